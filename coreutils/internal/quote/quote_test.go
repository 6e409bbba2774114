package quote

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// names are file names with the characters every quoting style treats
// specially, alone and in company.
var names = []string{"plain", "a b", "it's", `a"b`, "a\nb", "a$b", "#x", "x#", "~x", "x~", "{", "}", "x{y", "t\tab", "\x01c",
	"é", "\xff", "a'b c", "a'b$c", "a'b!", "a'b@", "a'b%", "''", "é'", "\u200b", "\xc2\x85", "a\\b", "-x", "=x", "a:b",
	"a'b\t", "\t'", "a\rb", "x\u2019y", "x\u2018y", "a\x7fb", "?", "a?b", "é\xff", "\xe2\x80", "a\xe2\x80b", "'a'b'",
	"a'b\x01'c", "@", "a@b", "日本", "a\u00a0b", "\ue000", "a\a\b\f\v", "\\", "'\\'", "a'é", "a'\xc3"}

// randomNames adds names drawn from the interesting bytes.
func randomNames(n int) []string {
	const alphabet = "a '\"\\$#~{}\t\n\x01\x7f:?@%é\xff\xe2\x80\x99"
	r := rand.New(rand.NewSource(1))
	out := make([]string, 0, n)
	for len(out) < n {
		b := make([]byte, 1+r.Intn(6))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		if s := string(b); s != "." && s != ".." && !strings.Contains(s, "/") {
			out = append(out, s)
		}
	}
	return out
}

func makeFiles(t *testing.T, names []string) string {
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAgainstLs compares every style, in both locales, with GNU ls
// --quoting-style (which quotes spaces too in the escape style).
func TestAgainstLs(t *testing.T) {
	if _, err := exec.LookPath("ls"); err != nil {
		t.Skip("no ls")
	}
	all := append(append([]string{}, names...), randomNames(300)...)
	dir := makeFiles(t, all)
	for _, utf := range []bool{true, false} {
		env := []string{"LC_ALL=C"}
		if utf {
			env = []string{"LC_ALL=C.UTF-8"}
		}
		q := Quoter{UTF8: utf}
		for _, st := range Styles {
			cmd := exec.Command("ls", append([]string{"-1", "-U", "-d", "--quoting-style=" + st.Name, "--"}, all...)...)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("ls: %v", err)
			}
			// Names with a newline print over two lines in some styles:
			// compare the whole output.
			var want, got strings.Builder
			want.Write(out)
			for _, n := range all {
				also := ""
				if st.Style == Escape {
					also = " "
				}
				got.WriteString(q.QuoteAlso(n, st.Style, also) + "\n")
			}
			if got.String() != want.String() {
				g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
				for i := 0; i < len(g) && i < len(w); i++ {
					if g[i] != w[i] {
						t.Errorf("%s utf8=%v: line %d: got %q want %q", st.Name, utf, i, g[i], w[i])
						break
					}
				}
			}
		}
	}
}

// TestAgainstMessages compares quotef (wc's) and quoteaf (rm's) with the
// messages of the GNU tools.
func TestAgainstMessages(t *testing.T) {
	for _, tool := range []string{"wc", "rm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	dir := t.TempDir()
	all := append(append([]string{}, names...), randomNames(60)...)
	for _, utf := range []bool{true, false} {
		env := []string{"LC_ALL=C"}
		if utf {
			env = []string{"LC_ALL=C.UTF-8"}
		}
		q := Quoter{UTF8: utf}
		for _, n := range all {
			if strings.Contains(n, "\n") {
				continue
			}
			for _, tc := range []struct {
				tool string
				f    func(string) string
				msg  string
			}{
				{"wc", q.F, "wc: %s: No such file or directory\n"},
				{"rm", q.AF, "rm: cannot remove %s: No such file or directory\n"},
			} {
				cmd := exec.Command(tc.tool, "--", n)
				cmd.Dir, cmd.Env = dir, env
				var stderr strings.Builder
				cmd.Stderr = &stderr
				cmd.Run()
				if want, got := stderr.String(), strings.Replace(tc.msg, "%s", tc.f(n), 1); got != want {
					t.Errorf("%s %q utf8=%v: got %q want %q", tc.tool, n, utf, got, want)
				}
			}
		}
	}
}

func TestQ(t *testing.T) {
	for _, tc := range []struct {
		utf8    bool
		in, out string
	}{
		{true, "x", "\u2018x\u2019"},
		{false, "x", "'x'"},
		{true, "a’b", `‘a\’b’`},
	} {
		if got := (Quoter{UTF8: tc.utf8}).Q(tc.in); got != tc.out {
			t.Errorf("Q(%q, utf8=%v) = %s, want %s", tc.in, tc.utf8, got, tc.out)
		}
	}
	if !UTF8Locale(func(k string) string { return map[string]string{"LANG": "C.UTF-8"}[k] }) {
		t.Error("C.UTF-8 is UTF-8")
	}
	if UTF8Locale(func(k string) string { return map[string]string{"LC_ALL": "C", "LANG": "C.UTF-8"}[k] }) {
		t.Error("LC_ALL=C wins")
	}
}

func TestWidth(t *testing.T) {
	for s, w := range map[string]int{"abc": 3, "é": 1, "日本": 4, "a\tb": 2, "e\u0301": 1, "\xff": 1, "a\u00adb": 3} { // U+00AD: glibc wcwidth 1
		if got := Width(s); got != w {
			t.Errorf("Width(%q) = %d, want %d", s, got, w)
		}
	}
}

func TestHideControl(t *testing.T) {
	for _, tc := range []struct {
		utf8    bool
		in, out string
	}{
		{true, "a\tb", "a?b"}, {true, "é\xff", "é?"}, {false, "é", "??"}, {true, "plain", "plain"},
	} {
		if got := (Quoter{UTF8: tc.utf8}).HideControl(tc.in); got != tc.out {
			t.Errorf("HideControl(%q, utf8=%v) = %q, want %q", tc.in, tc.utf8, got, tc.out)
		}
	}
}

// The cases below were fileops' tests of its quoting.

func TestQuoteAF(t *testing.T) {
	q := Quoter{UTF8: true}
	for in, want := range map[string]string{
		"a":         "'a'",
		"a b":       "'a b'",
		"c'd":       `"c'd"`,
		"x'$":       `'x'\''$'`,
		"e\nf":      `'e'$'\n''f'`,
		"\nb":       `''$'\n''b'`,
		"a\n":       `'a'$'\n'`,
		"a\x01b\tc": `'a'$'\001''b'$'\t''c'`,
		"\x7f\xffd": `''$'\177\377''d'`,
		"é":         "'é'",
		"":          "''",
		"'":         `"'"`,
	} {
		if got := q.AF(in); got != want {
			t.Errorf("AF(%q) = %s, want %s", in, got, want)
		}
	}
	if got := (Quoter{}).AF("é"); got != `''$'\303\251'` {
		t.Errorf("C locale AF(é) = %s", got)
	}
}

func TestQuoteQ(t *testing.T) {
	for _, tc := range []struct {
		utf8    bool
		in, out string
	}{
		{true, "d", "‘d’"},
		{true, "a'b", "‘a'b’"},
		{true, `c\d`, `‘c\\d’`},
		{true, "q\nw", `‘q\nw’`},
		{false, "a'b", `'a\'b'`},
		{false, "é", `'\303\251'`},
	} {
		if got := (Quoter{UTF8: tc.utf8}).Q(tc.in); got != tc.out {
			t.Errorf("Q(%q, utf8=%v) = %s, want %s", tc.in, tc.utf8, got, tc.out)
		}
	}
}

func TestQuoteF(t *testing.T) {
	q := Quoter{UTF8: true}
	for in, want := range map[string]string{"d/l": "d/l", "a b": "'a b'", "a:b": "'a:b'", "~x": "'~x'", "x~": "x~", "": "''"} {
		if got := q.F(in); got != want {
			t.Errorf("F(%q) = %s, want %s", in, got, want)
		}
	}
}

// The cases below were procutil's tests of its quoting (xargs -t, env,
// find, timeout).

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "abc"},
		{"", "''"},
		{"it's", `"it's"`},
		{`a"b`, `'a"b'`},
		{`x\y`, `'x\y'`},
		{"$v", "'$v'"},
		{"a b", "'a b'"},
		{"tab\tx", `'tab'$'\t''x'`},
		{"ü", "ü"},
		{"~x", "'~x'"},
		{"a~", "a~"},
		{"#x", "'#x'"},
		{"x#", "x#"},
		{"a=b", "'a=b'"},
		{"*", "'*'"},
		{"x?y", "'x?y'"},
		{"{", "'{'"},
		{"x{y", "x{y"},
		{"a'b c", `"a'b c"`},
		{`a'b"c`, `'a'\''b"c'`},
		{"'", `"'"`},
		{`a'b\c`, `'a'\''b\c'`},
		{"\x01", `''$'\001'`},
		{"\xff", `''$'\377'`},
		{"a\xffb", `'a'$'\377''b'`},
		{"a'b\t", `'''a'\''b'$'\t'`},
	} {
		if got := (Quoter{UTF8: true}).Quote(tc.in, ShellEscape); got != tc.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestShellQuoteAlways(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/tmp", "'/tmp'"}, {"it's", `"it's"`}, {"a b", "'a b'"}, {"", "''"},
	} {
		if got := (Quoter{UTF8: true}).AF(tc.in); got != tc.want {
			t.Errorf("ShellQuoteAlways(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestQuoteIn(t *testing.T) {
	if got := (Quoter{UTF8: true}).Q("a\nb"); got != "\u2018a\\nb\u2019" {
		t.Errorf("got %q", got)
	}
	if got := (Quoter{}).Q("x"); got != "'x'" {
		t.Errorf("got %q", got)
	}
}
