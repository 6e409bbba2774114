package glob

import "testing"

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
