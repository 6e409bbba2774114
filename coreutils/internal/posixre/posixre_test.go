package posixre

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func mustCompile(t *testing.T, p string, syn Syntax, fl Flags) *Regexp {
	t.Helper()
	re, err := Compile(p, syn, fl)
	if err != nil {
		t.Fatalf("Compile(%q): %v", p, err)
	}
	return re
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		p   string
		syn Syntax
		msg string
	}{
		{`[abc`, BRE, "Unmatched [, [^, [:, [., or [="},
		{`[[:alpha:]`, BRE, "Unmatched [, [^, [:, [., or [="},
		{`[[:alpha`, ERE, "Unmatched [, [^, [:, [., or [="},
		{`\(a`, BRE, `Unmatched ( or \(`},
		{`(a`, ERE, `Unmatched ( or \(`},
		{`a\)`, BRE, `Unmatched ) or \)`},
		{`a\{1`, BRE, `Unmatched \{`},
		{`a\{1,2`, BRE, `Unmatched \{`},
		{`a\{x\}`, BRE, `Invalid content of \{\}`},
		{`a\{2,1\}`, BRE, `Invalid content of \{\}`},
		{`a{2,1}`, ERE, `Invalid content of \{\}`},
		{`[b-a]`, BRE, "Invalid range end"},
		{`[[:foo:]]`, BRE, "Invalid character class name"},
		{`a\`, BRE, "Trailing backslash"},
		{`a\`, ERE, "Trailing backslash"},
		{`\1`, BRE, "Invalid back reference"},
		{`\(a\)\2`, BRE, "Invalid back reference"},
		{`(a)\2`, ERE, "Invalid back reference"},
		{`a{99999}`, ERE, "Regular expression too big"},
		{`a\{32768\}`, BRE, "Regular expression too big"},
	} {
		_, err := Compile(c.p, c.syn, Flags{})
		if err == nil || err.Error() != c.msg {
			t.Errorf("Compile(%q, %d) = %v, want %q", c.p, c.syn, err, c.msg)
		}
	}
}

func TestLiteral(t *testing.T) {
	for _, c := range []struct {
		p   string
		syn Syntax
		lit string
		ok  bool
	}{
		{"hello", BRE, "hello", true},
		{"a+b", BRE, "a+b", true},
		{"a+b", ERE, "", false},
		{`a\.b`, BRE, "a.b", true},
		{"a.b", BRE, "", false},
		{"[x]y", BRE, "xy", true},
		{"caf\xe9", BRE, "caf\xe9", true},
	} {
		re := mustCompile(t, c.p, c.syn, Flags{})
		lit, ok := re.Literal()
		if lit != c.lit || ok != c.ok {
			t.Errorf("Literal(%q) = %q %v, want %q %v", c.p, lit, ok, c.lit, c.ok)
		}
	}
	if _, ok := mustCompile(t, "abc", BRE, Flags{IgnoreCase: true}).Literal(); ok {
		t.Errorf("case-folded pattern reported as literal")
	}
}

func TestSubmatch(t *testing.T) {
	for _, c := range []struct {
		p    string
		syn  Syntax
		in   string
		want []int
	}{
		{`a\(b*\)c`, BRE, "xabbcy", []int{1, 5, 2, 4}},
		{`(a|ab)(c|bcd)`, ERE, "abcd", []int{0, 4, 0, 1, 1, 4}},
		{`\(a*\)\1`, BRE, "aaaa", []int{0, 4, 0, 2}},
		{`(x)?y`, ERE, "y", []int{0, 1, -1, -1}},
		{`é+`, ERE, "aééb", []int{1, 5}},
	} {
		re := mustCompile(t, c.p, c.syn, Flags{})
		got := re.FindSubmatchIndex([]byte(c.in))
		if !equalInts(got, c.want) {
			t.Errorf("FindSubmatchIndex(%q, %q) = %v, want %v", c.p, c.in, got, c.want)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	in := []byte("ab\xff\xfecd\xc3")
	for _, p := range []string{".", "[^a]", `\(.\)\1`, `\w`, "cd", `\<cd`, "\xff"} {
		re := mustCompile(t, p, BRE, Flags{})
		re.FindAllIndex(in, -1)
		re.FindSubmatchIndex(in)
		re.Match(in)
	}
}

func TestMultilineAndLines(t *testing.T) {
	in := []byte("foo\nbar\n")
	re := mustCompile(t, "^bar$", BRE, Flags{Multiline: true})
	if got := re.FindIndex(in); !equalInts(got, []int{4, 7}) {
		t.Errorf("multiline ^bar$ = %v", got)
	}
	re = mustCompile(t, "^bar$", BRE, Flags{})
	if re.Match(in) {
		t.Errorf("^bar$ matched inside a multi-line subject without Multiline")
	}
	re = mustCompile(t, `o.b`, BRE, Flags{})
	if !re.Match(in) {
		t.Errorf(". does not match newline")
	}
	for _, p := range []string{`o.b`, `o[^x]b`, `o\sb`, `o\Wb`, `o[[:space:]]b`} {
		re = mustCompile(t, p, BRE, Flags{Lines: true})
		if re.Match(in) {
			t.Errorf("%q matched across a newline in Lines mode", p)
		}
	}
	re = mustCompile(t, `\(o\)\n\(b\)`, BRE, Flags{})
	if !re.Match(in) {
		t.Errorf(`\n does not match a newline`)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// onlyMatching mimics grep -o over the lines of in.
func onlyMatching(re *Regexp, in string) string {
	var out bytes.Buffer
	for _, line := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		for _, m := range re.FindAllIndex([]byte(line), -1) {
			if m[1] > m[0] {
				out.WriteString(line[m[0]:m[1]])
				out.WriteByte('\n')
			}
		}
	}
	return out.String()
}

// TestAgainstGNUGrep compares matches with the real grep -o.
func TestAgainstGNUGrep(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("no grep")
	}
	input := strings.Join([]string{
		"hello world", "foo bar baz", "aaa bbb ccc", "abcabcabc", "a+b a?b a*b a|b", "x{1}y {2}",
		"The Quick brown fox_1 jumps", "tab\there", "  leading spaces", "trailing  ", "123 456-789",
		"foo.bar foo,bar", "(paren) [bracket] {brace}", "back\\slash", "café naïve Ünïcödé", "wordword word-word",
		"ab", "abab", "aabbaabb", "", "mississippi", "xyzzy", "^caret$ dollar$", "a.b.c", "AbC aBc",
	}, "\n") + "\n"
	dir := t.TempDir()
	in := dir + "/in"
	if err := os.WriteFile(in, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p   string
		syn Syntax
		ic  bool
	}{
		{"o", BRE, false}, {"wor", BRE, false}, {"a*", BRE, false}, {"ab*", BRE, false}, {"a\\+b", BRE, false},
		{"a\\?b", BRE, false}, {"\\(ab\\)*", BRE, false}, {"\\(ab\\)\\{2\\}", BRE, false}, {"a\\{2,\\}", BRE, false},
		{"[[:alpha:]]*", BRE, false}, {"[[:digit:]]\\+", BRE, false}, {"[[:space:]]", BRE, false}, {"[[:punct:]]", BRE, false},
		{"[[:upper:]][[:lower:]]*", BRE, false}, {"[^a-z ]\\+", BRE, false}, {"[]a]", BRE, false}, {"[^]a]\\+", BRE, false},
		{"[a-c-]\\+", BRE, false}, {"\\w\\+", BRE, false}, {"\\W\\+", BRE, false}, {"\\s", BRE, false}, {"\\S\\+", BRE, false},
		{"\\bw", BRE, false}, {"\\Bo", BRE, false}, {"\\<w", BRE, false}, {"d\\>", BRE, false}, {"\\<[a-z]*\\>", BRE, false},
		{"^.", BRE, false}, {".$", BRE, false}, {"^$", BRE, false}, {"a^b", BRE, false}, {"a$b", BRE, false}, {"\\$", BRE, false},
		{"*a", BRE, false}, {"^*", BRE, false}, {"\\(*a\\)", BRE, false}, {"a**", BRE, false}, {"x\\{1\\}", BRE, false},
		{"\\(a\\)\\1", BRE, false}, {"\\(.\\)\\1", BRE, false}, {"\\(a*\\)b\\1", BRE, false}, {"\\([a-z]\\)\\(.\\)\\2\\1", BRE, false},
		{"ab\\|cd\\|a", BRE, false}, {"fo\\|foo", BRE, false}, {"ss\\(i\\|is\\)", BRE, false},
		{"a+b", ERE, false}, {"(ab)+", ERE, false}, {"a|b|c", ERE, false}, {"(a|ab)(c|bcd)", ERE, false}, {"a{2}", ERE, false},
		{"a{,2}", ERE, false}, {"a{1", ERE, false}, {"x{1}y", ERE, false}, {"{2}", ERE, false}, {"a**", ERE, false},
		{"a+?", ERE, false}, {"()", ERE, false}, {"(a|)b", ERE, false}, {"[.]", ERE, false}, {"\\.", ERE, false},
		{"[[:alnum:]_]+", ERE, false}, {"(s)(i)\\2", ERE, false}, {"\\<(w|f)[a-z]+", ERE, false}, {"o\\b", ERE, false},
		{"[[:xdigit:]]+", ERE, false}, {"[[=a=]]", ERE, false}, {"[[.a.]-c]+", ERE, false}, {"é|ï", ERE, false},
		{".", ERE, false}, {"[^[:alnum:] ]", ERE, false}, {"\\w+", ERE, false}, {"[a\\]+", ERE, false},
		{"abc", BRE, true}, {"[a-c]+", ERE, true}, {"ünï", BRE, true}, {"\\(a\\)\\1", BRE, true},
		{"(ab|a)(bc|c)?", ERE, false}, {"(a*)*", ERE, false}, {"(a*)+b", ERE, false}, {"ss*i", BRE, false},
	}
	for _, c := range cases {
		args := []string{"-o"}
		fl := Flags{IgnoreCase: c.ic}
		if c.syn == ERE {
			args = append(args, "-E")
		}
		if c.ic {
			args = append(args, "-i")
		}
		args = append(args, "-e", c.p, in)
		cmd := exec.Command(grep, args...)
		cmd.Env = []string{"LC_ALL=C.UTF-8"}
		want, _ := cmd.Output()
		re, err := Compile(c.p, c.syn, fl)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.p, err)
			continue
		}
		if got := onlyMatching(re, input); got != string(want) {
			t.Errorf("grep -o %v %q:\n got %q\nwant %q", args[:len(args)-3], c.p, got, want)
		}
	}
}
