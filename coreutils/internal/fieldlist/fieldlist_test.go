package fieldlist

import (
	"math"
	"reflect"
	"testing"
)

func q(s string) string { return "'" + s + "'" }

func TestParse(t *testing.T) {
	const max = math.MaxUint64
	for _, tt := range []struct {
		in         string
		pos, compl bool
		want       []Range
		msg        string
	}{
		{"3,1-3", false, false, []Range{{1, 3}}, ""},
		{"5- 2,4", false, false, []Range{{2, 2}, {4, 4}, {5, max}}, ""}, // GNU merges overlaps only
		{"-2,7", false, false, []Range{{1, 2}, {7, 7}}, ""},
		{"2,4-5", false, true, []Range{{1, 1}, {3, 3}, {6, max}}, ""},
		{"1-", false, true, nil, ""},
		{"0", false, false, nil, "fields are numbered from 1"},
		{"0", true, false, nil, "byte/character positions are numbered from 1"},
		{"3-1", false, false, nil, "invalid decreasing range"},
		{"-", false, false, nil, "invalid range with no endpoint: -"},
		{"1-2-3", false, false, nil, "invalid field range"},
		{"1-2-3", true, false, nil, "invalid byte or character range"},
		{"1,x", false, false, nil, "invalid field value 'x'"},
		{"", false, false, nil, "fields are numbered from 1"},
		{",", false, false, nil, "fields are numbered from 1"},
		{"18446744073709551615", false, false, nil, "field number '18446744073709551615' is too large"},
	} {
		got, msg := Parse(tt.in, tt.pos, tt.compl, q)
		if msg != tt.msg || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q, %v, %v) = %v, %q; want %v, %q", tt.in, tt.pos, tt.compl, got, msg, tt.want, tt.msg)
		}
	}
	if !Contains([]Range{{2, 3}, {7, max}}, 9) || Contains([]Range{{2, 3}, {7, max}}, 5) {
		t.Error("Contains")
	}
}
