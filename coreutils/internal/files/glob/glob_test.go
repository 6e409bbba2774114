package glob

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		p, s  string
		flags Flags
		want  bool
	}{
		{"*.txt", "a.txt", 0, true},
		{"*.txt", "a.tx", 0, false},
		{"a?c", "abc", 0, true},
		{"[a-c]x", "bx", 0, true},
		{"[!a-c]x", "bx", 0, false},
		{"[^a-c]x", "dx", 0, true},
		{"[[:digit:]]*", "1a", 0, true},
		{"*", ".hidden", Period, false},
		{".*", ".hidden", Period, true},
		{"*", ".hidden", 0, true},
		{"a*", "A1", CaseFold, true},
		{`\*`, "*", 0, true},
		{"[", "[", 0, true},
		{"*/x", "a/b/x", 0, true},
		{"*/x", "a/b/x", Pathname, false},
		{"d", "d/e", LeadingDir, true},
		{"日*", "日本", 0, true},
		{"?", "é", 0, true},
	}
	for _, c := range cases {
		if got := Match(c.p, c.s, c.flags); got != c.want {
			t.Errorf("Match(%q, %q, %d) = %v", c.p, c.s, c.flags, got)
		}
	}
}

func TestMatchFlagsLinear(t *testing.T) {
	for _, tc := range []struct {
		pat, name string
		flags     Flags
		want      bool
	}{
		{"*.go", ".x.go", Period, false},
		{".*", ".x", Period, true},
		{"a/*", "a/.b", Period | Pathname, false},
		{"a/*", "a/b/c", Pathname, false},
		{"a/*", "a/b/c", Pathname | LeadingDir, true},
		{"*b*c", "aXbYbZc", 0, true},
		{"*/c", "a/b/c", Pathname, false},
		{"*/c", "a/b/c", 0, true},
		{"A*", "abc", CaseFold, true},
		{"[!a]*", "/x", Pathname, false},
		{strings.Repeat("*a", 20) + "b", strings.Repeat("a", 60), 0, false},
	} {
		if got := Match(tc.pat, tc.name, tc.flags); got != tc.want {
			t.Errorf("Match(%q, %q, %d) = %v", tc.pat, tc.name, tc.flags, got)
		}
	}
}
