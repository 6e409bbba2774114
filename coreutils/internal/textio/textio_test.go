package textio

import (
	"math"
	"testing"
)

func TestParseUint(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		err  NumErr
	}{
		{"10", 10, NumOK},
		{"+3", 3, NumOK},
		{" 5", 5, NumOK},
		{"5 ", 0, NumInvalid},
		{"-1", 0, NumInvalid},
		{"1k", 1024, NumOK},
		{"1K", 1024, NumOK},
		{"1KiB", 1024, NumOK},
		{"1kB", 1000, NumOK},
		{"2MB", 2000000, NumOK},
		{"1b", 512, NumOK},
		{"K", 1024, NumOK},
		{"1g", 0, NumInvalid},
		{"1KiBx", 0, NumInvalid},
		{"x", 0, NumInvalid},
		{"99999999999999999999999", math.MaxUint64, NumOverflow},
		{"1Y", math.MaxUint64, NumOverflow},
	}
	for _, tt := range tests {
		got, err := ParseUint(tt.in, "bkKmMGTPEZY0")
		if err != tt.err || (err != NumInvalid && got != tt.want) {
			t.Errorf("ParseUint(%q) = %d, %d; want %d, %d", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := ParseUint("1k", ""); err != NumInvalid {
		t.Errorf("suffix allowed without suffixes")
	}
}

func TestQuoting(t *testing.T) {
	tests := []struct{ in, f, af string }{
		{"plain", "plain", "'plain'"},
		{"a b", "'a b'", "'a b'"},
		{"it's", `"it's"`, `"it's"`},
		{"a'b c$", `'a'\''b c$'`, `'a'\''b c$'`},
		{"new\nline", `'new'$'\n''line'`, `'new'$'\n''line'`},
		{"\xff", `''$'\377'`, `''$'\377'`},
		{"x#", "x#", "'x#'"},
		{"#x", "'#x'", "'#x'"},
		{"é", "é", "'é'"},
		{"", "''", "''"},
	}
	for _, tt := range tests {
		if got := QuoteF(tt.in); got != tt.f {
			t.Errorf("QuoteF(%q) = %s, want %s", tt.in, got, tt.f)
		}
		if got := QuoteAF(tt.in); got != tt.af {
			t.Errorf("QuoteAF(%q) = %s, want %s", tt.in, got, tt.af)
		}
	}
}

func TestRuneWidth(t *testing.T) {
	for r, w := range map[rune]int{'a': 1, '\t': -1, 0x0301: 0, 'é': 1, '日': 2, 0xFF21: 2, 0x200B: 0, 0x7f: -1} {
		if got := RuneWidth(r); got != w {
			t.Errorf("RuneWidth(%U) = %d, want %d", r, got, w)
		}
	}
}
