package fileops

import "testing"

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
