package archive

import "testing"

func TestSaferName(t *testing.T) {
	for _, tc := range []struct{ in, rest, prefix string }{
		{"a/b", "a/b", ""},
		{"/abs/path", "abs/path", "/"},
		{"//x", "x", "//"},
		{"../evil", "evil", "../"},
		{"a/../../evil2", "evil2", "a/../../"},
		{"x/../y", "y", "x/../"},
		{"..", ".", ".."},
		{"/", ".", "/"},
		{"a/..b/c", "a/..b/c", ""},
		{"./x", "./x", ""},
	} {
		rest, prefix := SaferName(tc.in)
		if rest != tc.rest || prefix != tc.prefix {
			t.Errorf("SaferName(%q) = %q, %q; want %q, %q", tc.in, rest, prefix, tc.rest, tc.prefix)
		}
		if ContainsDotDot(rest) {
			t.Errorf("SaferName(%q) left a '..': %q", tc.in, rest)
		}
	}
}

func TestContainsDotDot(t *testing.T) {
	for in, want := range map[string]bool{"a/b": false, "..": true, "a/../b": true, "a/..": true, "..a/b": false, "a..": false} {
		if got := ContainsDotDot(in); got != want {
			t.Errorf("ContainsDotDot(%q) = %v", in, got)
		}
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "a b": "a b", "new\nline": `new\nline`, `back\slash`: `back\\slash`,
		"tab\t": `tab\t`, "ünï": "ünï", "\x01": `\001`, "bad\xff": `bad\377`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStripComponents(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
		ok   bool
	}{
		{"a/b/c", 1, "b/c", true},
		{"a/b/c", 2, "c", true},
		{"a/b/c", 3, "", false},
		{"a/", 1, "", false},
		{"a//b", 1, "b", true},
		{"./a/b", 1, "a/b", true},
	} {
		got, ok := StripComponents(tc.in, tc.n)
		if got != tc.want || ok != tc.ok {
			t.Errorf("StripComponents(%q, %d) = %q, %v", tc.in, tc.n, got, ok)
		}
	}
}
