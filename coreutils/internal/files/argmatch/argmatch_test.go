package argmatch

import "testing"

func TestMatch(t *testing.T) {
	choices := []Choice{{[]string{"never", "no", "none"}, 0}, {[]string{"once"}, 1}, {[]string{"always", "yes"}, 2}, {[]string{"non"}, 3}}
	for _, tc := range []struct {
		arg              string
		value            int
		found, ambiguous bool
	}{
		{"never", 0, true, false},
		{"non", 3, true, false}, // exact beats the prefix of "none"
		{"ne", 0, true, false},
		{"n", 0, false, true}, // never/no/none and non differ
		{"o", 1, true, false},
		{"y", 2, true, false},
		{"", 0, false, true}, // GNU: ambiguous argument ‘’
		{"x", 0, false, false},
	} {
		v, found, amb := Match(tc.arg, choices)
		if found != tc.found || amb != tc.ambiguous || found && v != tc.value {
			t.Errorf("Match(%q) = %d, %v, %v; want %d, %v, %v", tc.arg, v, found, amb, tc.value, tc.found, tc.ambiguous)
		}
	}
}
