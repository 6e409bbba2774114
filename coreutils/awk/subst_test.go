package awk

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/parser"

	"github.com/bashbox/bashbox/builtins"
)

// TestLongSubMatchesGoawk checks the runtime's sub and gsub (used on long
// targets) against goawk's own on the same pattern, replacement and
// target: same count, same text (empty matches, anchors, & and \ in the
// replacement, multi-byte characters, patterns that look behind).
func TestLongSubMatchesGoawk(t *testing.T) {
	patterns := []string{"x", "x*", "b*", "^a", "^", "$", "a|^b", "^a*", "(?m)^a", `\bab`, `\Bb`, "", ".", "é", "[0-9]+", "a\nb", "(a)(b)", `\.`, "ab$|^ab"}
	repls := []string{"", "-", "&&", `\&`, `\\&`, `x\y`, `\`, "[&]"}
	targets := []string{"", "a", "abc", "xxabx", "ab ab\nab", "aébé", "123 45 6", "a.b.c", "bbb", "ab"}
	prog, err := parser.ParseProgram([]byte(`BEGIN { t = s; n = sub(re, r, t); printf "%d<%s>", n, t; t = s; n = gsub(re, r, t); printf "%d<%s>", n, t }`), nil)
	if err != nil {
		t.Fatal(err)
	}
	rt := &runtime{ctx: context.Background(), c: &builtins.Call{}}
	// Long targets: searches of 64 KiB or more read through ctxReader.
	long := []string{strings.Repeat("ab ab\nxé1", 9000), "x" + strings.Repeat("é", 40000) + "b"}
	for _, re := range patterns {
		for _, r := range repls {
			ts := targets
			if r == "[&]" {
				ts = append(ts[:len(ts):len(ts)], long...)
			}
			for _, s := range ts {
				var want bytes.Buffer
				if _, err := interp.ExecProgram(prog, &interp.Config{Output: &want, Vars: []string{"re", re, "r", r, "s", s}}); err != nil {
					t.Fatal(err)
				}
				var got strings.Builder
				for global := 0; global < 2; global++ {
					n, err := rt.substitute(global, re, r, s)
					if err != nil {
						t.Fatal(err)
					}
					out := s
					if n > 0 {
						out = rt.subResult()
					}
					got.WriteString(strconv.Itoa(n) + "<" + out + ">")
				}
				if got.String() != want.String() {
					t.Errorf("re %q repl %q target %.40q: got %.80s, goawk %.80s", re, r, s, got.String(), want.String())
				}
			}
		}
	}
}
