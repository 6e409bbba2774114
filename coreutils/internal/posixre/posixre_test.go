package posixre

import (
	"bytes"
	"fmt"
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
		{`a{}`, ERE, `Invalid content of \{\}`},
		{`a{1,2,3}`, ERE, `Invalid content of \{\}`},
		{`a\{1}`, BRE, `Unmatched \{`},
		{`a\{1x\}`, BRE, `Invalid content of \{\}`},
		{`a\{\}`, BRE, `Invalid content of \{\}`},
		{`[:alpha:]`, ERE, "character class syntax is [[:space:]], not [:space:]"},
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

// TestClassesAgainstGNU checks character class membership of assorted
// non-ASCII characters with the real grep in C.UTF-8.
func TestClassesAgainstGNU(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("no grep")
	}
	chars := []string{"٣", "é", "ǅ", "ʰ", "中", "ⅷ", "²", "\u0300", "·", "ß", "µ", "٫", "½", "ª", "Ω", "\u00a0", "\u2003", "\u200b", "€", "_", "5", "\u0915\u093e"}
	for _, class := range []string{`\w`, `\W`, `\s`, `[[:alpha:]]`, `[[:digit:]]`, `[[:alnum:]]`, `[[:upper:]]`, `[[:lower:]]`, `[[:punct:]]`, `[[:space:]]`, `[[:blank:]]`, `[[:print:]]`, `[[:graph:]]`, `[[:cntrl:]]`} {
		full := mustCompile(t, "^"+class+"$", BRE, Flags{})
		cmd := exec.Command(grep, "-n", "-e", "^"+class+"$")
		cmd.Env = []string{"LC_ALL=C.UTF-8"}
		cmd.Stdin = strings.NewReader(strings.Join(chars, "\n") + "\n")
		out, _ := cmd.Output()
		for i, ch := range chars {
			want := strings.Contains("\n"+string(out), fmt.Sprintf("\n%d:", i+1))
			if got := full.Match([]byte(ch)); got != want {
				t.Errorf("%s on %q (%U): got %v, want %v", class, ch, []rune(ch), got, want)
			}
		}
	}
}

func TestCompileList(t *testing.T) {
	for _, c := range []struct {
		pats []string
		syn  Syntax
		lo   ListOptions
		ic   bool
		in   string
		want [][]int
	}{
		{[]string{"foo", "bar"}, BRE, ListOptions{}, false, "a bar foo", [][]int{{2, 5}, {6, 9}}},
		{[]string{"foo"}, BRE, ListOptions{Word: true}, false, "foo foofoo foo_ foo", [][]int{{0, 3}, {16, 19}}},
		{[]string{`foo\w*`}, BRE, ListOptions{Word: true}, false, "foobar foo", [][]int{{0, 6}, {7, 10}}},
		{[]string{"a.c"}, Fixed, ListOptions{}, false, "abc a.c", [][]int{{4, 7}}},
		{[]string{"a.c"}, Fixed, ListOptions{Line: true}, false, "a.c", [][]int{{0, 3}}},
		{[]string{"ABC"}, Fixed, ListOptions{Word: true}, true, "xabc abc", [][]int{{5, 8}}},
		{[]string{`\(a\)\1`, `\(b\)\1`}, BRE, ListOptions{}, false, "abba aab", [][]int{{1, 3}, {5, 7}}},
		{[]string{"café"}, BRE, ListOptions{Word: true}, false, "cafés café", [][]int{{7, 12}}},
		{nil, BRE, ListOptions{}, false, "anything", nil},
		{[]string{""}, BRE, ListOptions{Line: true}, false, "", [][]int{{0, 0}}},
	} {
		re, err := CompileList(c.pats, c.syn, Flags{IgnoreCase: c.ic}, c.lo)
		if err != nil {
			t.Fatalf("CompileList(%q): %v", c.pats, err)
		}
		got := re.FindAllIndex([]byte(c.in), -1)
		if len(got) != len(c.want) {
			t.Errorf("CompileList(%q, %+v) on %q = %v, want %v", c.pats, c.lo, c.in, got, c.want)
			continue
		}
		for i := range got {
			if !equalInts(got[i], c.want[i]) {
				t.Errorf("CompileList(%q, %+v) on %q = %v, want %v", c.pats, c.lo, c.in, got, c.want)
				break
			}
		}
	}
	// back-references number within their own pattern
	re, err := CompileList([]string{`\(x\)`, `\(a\)\1`}, BRE, Flags{}, ListOptions{})
	if err != nil || re.NumSubexp() != 2 || !re.Match([]byte("aa")) || re.Match([]byte("ab")) {
		t.Errorf("back-reference numbering across patterns: %v", err)
	}
}

func TestAnalysis(t *testing.T) {
	for _, c := range []struct {
		p     string
		syn   Syntax
		lits  []string
		must  []string
		isLit bool
	}{
		{"foo", BRE, []string{"foo"}, []string{"foo"}, true},
		{`foo\|bar`, BRE, []string{"foo", "bar"}, []string{"foo", "bar"}, true},
		{"(ab|cd)e", ERE, []string{"abe", "cde"}, []string{"abe", "cde"}, true},
		{"needle|zzyzx", ERE, []string{"needle", "zzyzx"}, []string{"needle", "zzyzx"}, true},
		{"ERROR.*gamma", BRE, nil, []string{"ERROR"}, false},
		{"^foo", BRE, nil, []string{"foo"}, false},
		{"x[0-9]+longer", ERE, nil, []string{"longer"}, false},
		{"a*", BRE, nil, nil, false},
		{"(foo|b)+x", ERE, nil, []string{"x"}, false},
		{"(foo|bar)[0-9]", ERE, nil, []string{"foo", "bar"}, false},
		{`\(a\)\1b`, BRE, nil, []string{"a"}, false},
	} {
		re := mustCompile(t, c.p, c.syn, Flags{})
		lits, ok := re.Literals()
		if ok != c.isLit || strings.Join(lits, ",") != strings.Join(c.lits, ",") {
			t.Errorf("Literals(%q) = %q %v, want %q %v", c.p, lits, ok, c.lits, c.isLit)
		}
		if got := re.MustAny(); strings.Join(got, ",") != strings.Join(c.must, ",") {
			t.Errorf("MustAny(%q) = %q, want %q", c.p, got, c.must)
		}
	}
	if _, ok := mustCompile(t, "foo", BRE, Flags{IgnoreCase: true}).Literals(); ok {
		t.Errorf("case-insensitive pattern reported as literals")
	}
}

func TestPCRE(t *testing.T) {
	for _, c := range []struct {
		p, in string
		want  []int
	}{
		{`\d+`, "ab٣12", []int{4, 6}},
		{`(?<=price: )\d+`, "price: 42", []int{7, 9}},
		{`\bfoo\b`, "éfoo foo", []int{2, 5}}, // ASCII \b: é is not a word character
		{`\Qa.b\E`, "axb a.b", []int{4, 7}},
		{`(?P<n>x)\k<n>`, "axx", []int{1, 3}},
		{`[\d]x`, "a1x", []int{1, 3}},
		{`\s\w`, "a\u00a0b c", []int{4, 6}},
		{`a++b`, "aaab", []int{0, 4}},
		{`(ab)*+c`, "ababc", []int{0, 5}},
		{`x[a-c]?+c`, "xcc", []int{0, 3}},
		{`a{2}+`, "aaaa", []int{0, 2}},
		{`\d+?`, "123", []int{0, 1}},
	} {
		re, err := Compile(c.p, PCRE, Flags{})
		if err != nil {
			t.Errorf("Compile(%q, PCRE): %v", c.p, err)
			continue
		}
		if got := re.FindIndex([]byte(c.in)); !equalInts(got, c.want) {
			t.Errorf("PCRE %q on %q = %v, want %v", c.p, c.in, got, c.want)
		}
	}
	if _, err := Compile(`(a`, PCRE, Flags{}); err == nil {
		t.Errorf("PCRE (a compiled")
	}
}

func TestWarnings(t *testing.T) {
	for _, c := range []struct {
		p    string
		want string
	}{
		{"*a", "* at start of expression"},
		{"+a", "+ at start of expression"},
		{"a|?b", "? at start of expression"},
		{"{1}a", "{...} at start of expression"},
		{"(*a)", "* at start of expression"},
		{"a*", ""},
	} {
		re := mustCompile(t, c.p, ERE, Flags{})
		if got := strings.Join(re.Warnings(), ";"); got != c.want {
			t.Errorf("Warnings(%q) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestMustAll(t *testing.T) {
	for _, c := range []struct {
		p    string
		want string
	}{
		{"id=[0-9]*99$", "id=,99"},
		{"ERROR.*gamma", "ERROR,gamma"},
		{"foo", "foo"},
		{"a*", ""},
		{`\(ab\)c.d`, "abc,d"},
	} {
		re := mustCompile(t, c.p, BRE, Flags{})
		if got := strings.Join(re.MustAll(), ","); got != c.want {
			t.Errorf("MustAll(%q) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestPCREKeepAndErrors(t *testing.T) {
	re, err := Compile(`key=\K\w+`, PCRE, Flags{})
	if err != nil {
		t.Fatal(err)
	}
	got := re.FindAllIndex([]byte("key=abc x key=de"), -1)
	if len(got) != 2 || !equalInts(got[0], []int{4, 7}) || !equalInts(got[1], []int{14, 16}) {
		t.Errorf(`\K matches = %v`, got)
	}
	if re.NumSubexp() != 0 {
		t.Errorf(`\K counted as a group: %d`, re.NumSubexp())
	}
	for p, want := range map[string]string{
		"(a":     "missing closing parenthesis",
		"a)":     "unmatched closing parenthesis",
		"[a":     "missing terminating ] for character class",
		"a{2,1}": "numbers out of order in {} quantifier",
		"*a":     "quantifier does not follow a repeatable item",
		`\`:      `\ at end of pattern`,
	} {
		if _, err := Compile(p, PCRE, Flags{}); err == nil || err.Error() != want {
			t.Errorf("Compile(%q, PCRE) = %v, want %q", p, err, want)
		}
	}
}

func TestIntervalsAsLiterals(t *testing.T) {
	for _, c := range []struct{ p, in, want string }{
		{"a{1", "xa{1", "a{1"},
		{"a{1,x", "a{1,x", "a{1,x"},
		{"a{x}", "a{x}", "a{x}"},
		{"{1,2,3}", "1,2,3}", "1,2,3}"},
		{"{}a", "{}a", "}a"},
		{"a{,}", "aaa", "aaa"},
		{"a{,2}", "aaa", "aa"},
	} {
		re := mustCompile(t, c.p, ERE, Flags{})
		m := re.FindIndex([]byte(c.in))
		if m == nil || c.in[m[0]:m[1]] != c.want {
			t.Errorf("ERE %q on %q = %v, want %q", c.p, c.in, m, c.want)
		}
	}
}
