package awk

import (
	"strings"
	"testing"

	"github.com/benhoyt/goawk/parser"
)

// TestRewriteKeepsFastForms checks that the regenerated program leaves
// statements, conditions and constant fields in the forms goawk's compiler
// turns into single opcodes (IncrArrayGlobal, AugAssignArrayGlobal,
// FieldInt, compare-and-jump, ConcatMulti). Wrapped in parentheses they
// compile to generic, slower code: that made awk_groupby 1.6x gawk. The
// rules are one action, a pattern an if (see generate).
func TestRewriteKeepsFastForms(t *testing.T) {
	prog, err := parser.ParseProgram([]byte(`NR > 1 { n[$2]++; s[$2] += $3; x = $1 $2 $3 }
END { for (i = 0; i < 3; i++) t = t i; while (t != "") t = ""; if (x >= 1) y = x > 2 ? 1 : 0 }`), nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := generate(prog, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nn[$2]++\n", "\ns[$2] += $3\n", "? ($1 $2 $3) :",
		"for (i = 0; i < 3; i++)", "\nif (NR > 1) {\n", "while (t != \"\")", "if (x >= 1)", "(x > 2 ? 1 : 0)", "\n" + vTick + "--\nif (" + vTick + ") ; else "} {
		if !strings.Contains(src, want) {
			t.Errorf("generated program lacks %q:\n%s", want, src)
		}
	}
	// The result still parses and runs the same.
	if _, err := parser.ParseProgram([]byte(src), &parser.ParserConfig{Funcs: (&runtime{}).funcs()}); err != nil {
		t.Fatalf("generated program does not parse: %v\n%s", err, src)
	}
}
