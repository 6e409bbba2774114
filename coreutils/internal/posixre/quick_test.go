package posixre

import "testing"

func TestQuick(t *testing.T) {
	for _, c := range []struct{ p string; syn Syntax; in string }{
		{`a\(b*\)c`, BRE, "xabbcy"},
		{`\(a\)\1`, BRE, "xaay"},
		{`\<foo\>`, BRE, "a foo b"},
		{`[[:alpha:]]+`, ERE, "12abc3"},
		{`*a`, BRE, "x*a"},
		{`a|b`, ERE, "cb"},
		{`a\|b`, BRE, "cb"},
	} {
		re, err := Compile(c.p, c.syn, Flags{})
		if err != nil {
			t.Fatal(c.p, err)
		}
		t.Logf("%q -> go=%v net=%v %v", c.p, re.goRE, re.netRE, re.FindSubmatchIndex([]byte(c.in)))
	}
}
