package interp

import (
	"crypto/md5"
	"fmt"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// The expectations below were produced by bash 5.2.15.

// TestAssocOrder: keys come out in bash's hash-table order, across the
// table's growth (past 2048 keys) and for bytes above 0x7f (signed chars).
func TestAssocOrder(t *testing.T) {
	a := newAssoc()
	for _, k := range []string{"a", "b", "c", "d"} {
		a.set(k, k)
	}
	if got := strings.Join(a.keys(), " "); got != "d c b a" {
		t.Errorf("a b c d: got %q", got)
	}

	u := newAssoc()
	for _, k := range []string{"é", "ß", "日本", "ü", "z", "a", "Ω"} {
		u.set(k, "1")
	}
	if got, want := strings.Join(u.keys(), " "), "日本 Ω z a ß ü é"; got != want {
		t.Errorf("unicode keys: got %q, want %q", got, want)
	}

	g := newAssoc()
	for i := 1; i <= 2600; i++ {
		g.set(fmt.Sprintf("k%d", i), "x")
	}
	keys := g.keys()
	if got := strings.Join(keys[:3], " "); got != "k1698 k1699 k1696" {
		t.Errorf("after growth, first keys: got %q", got)
	}
	if sum := fmt.Sprintf("%x", md5.Sum([]byte(strings.Join(keys, " ")+"\n"))); sum != "8c05cd44118ad985fc55ef287c30b3c9" {
		t.Errorf("after growth, order digest %s", sum)
	}

	// deleting and setting again puts the key first in its bucket
	r := newAssoc()
	for _, k := range []string{"a", "b", "c"} {
		r.set(k, k)
	}
	r.unset("a")
	r.set("a", "new")
	r.set("d", "4")
	if got := strings.Join(r.keys(), " "); got != "d c b a" {
		t.Errorf("reinsert: got %q", got)
	}
}

// TestRandomSequence: $RANDOM after RANDOM=N gives bash's numbers.
func TestRandomSequence(t *testing.T) {
	for _, c := range []struct {
		seed uint32
		want []int
	}{
		{42, []int{17772, 26794, 1435}},
		{0, []int{20814, 24386}},
		{1, []int{16807}},
		{uint32(0xfffffffb), []int{17653, 593}}, // RANDOM=-5
	} {
		r := rngState{seed: c.seed}
		for i, w := range c.want {
			if got := r.next(); got != w {
				t.Errorf("seed %d, number %d: got %d, want %d", c.seed, i, got, w)
			}
		}
	}
}

// TestFuncText: declare -f's layout.
func TestFuncText(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`f() { echo "hi $1"; if [ -n x ]; then echo two; fi; }`,
			"f () \n{ \n    echo \"hi $1\";\n    if [ -n x ]; then\n        echo two;\n    fi\n}"},
		{`g() { for i in 1 2; do echo $i; done; case $1 in a|b) echo A;; *) ;; esac; }`,
			"g () \n{ \n    for i in 1 2;\n    do\n        echo $i;\n    done;\n    case $1 in \n        a | b)\n            echo A\n        ;;\n        *)\n\n        ;;\n    esac\n}"},
		{`h() { echo a >&2 2>/dev/null | cat & x=$'\t'; }`,
			"h () \n{ \n    echo a 1>&2 2> /dev/null | cat & x='\t'\n}"},
		{"k() { cat <<EOF\nbody\nEOF\n}", "k () \n{ \n    cat <<EOF\nbody\nEOF\n\n}"},
	} {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.src), "")
		if err != nil {
			t.Fatal(err)
		}
		fd := file.Stmts[0].Cmd.(*syntax.FuncDecl)
		if got := funcTextSrc(fd.Name.Value, fd.Body, c.src, true); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
		if got := funcTextSrc(fd.Name.Value, fd.Body, "", true); got != c.want && !strings.Contains(c.src, "$'") {
			t.Errorf("%s without source:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestAssocKeyText: an associative array's subscript is its text as
// written, which the parser read as arithmetic.
func TestAssocKeyText(t *testing.T) {
	for src, want := range map[string]string{
		"m[a,b]=1": "a,b", "m[x=y]=1": "x=y", "m[1+1]=1": "1+1",
		"m[-x]=1": "-x", "m[(a)]=1": "(a)", "m[i++]=1": "i++",
	} {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		as := file.Stmts[0].Cmd.(*syntax.CallExpr).Assigns[0]
		if got := subscriptText(as.Index); got != want {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}
