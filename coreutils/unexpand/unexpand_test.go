package unexpand

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestUnexpandAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "        eight spaces\n    four    four\n                 x  y        z\n", Want: "\teight spaces\n    four    four\n\t\t x  y        z\n"},
		{Name: "all", Args: []string{"-a"}, Stdin: "a       b       c\n    four    four  two\n", Want: "a\tb\tc\n    four    four  two\n"},
		{Name: "size", Args: []string{"-t", "4"}, Stdin: "ab  cd  ef      gh\n    x\n", Want: "ab\tcd\tef\t\tgh\n\tx\n"},
		{Name: "first only", Args: []string{"-t", "4", "--first-only"}, Stdin: "ab  cd  ef      gh\n    x\n", Want: "ab  cd  ef      gh\n\tx\n"},
		{Name: "list", Args: []string{"-t", "3,8"}, Stdin: "a         b    c\n", Want: "a\t\t  b    c\n"},
		{Name: "obsolete", Args: []string{"-3"}, Stdin: "a         b    c\n      x\n", Want: "a         b    c\n\t\tx\n"},
		{Name: "tabs in input", Args: []string{"-a"}, Stdin: " \t  a \t b\n", Want: "\t  a\t b\n"},
		{Name: "zero", Args: []string{"-t", "0"}},
		{Name: "missing", Args: []string{"nope"}},
	}
	gnutest.CheckCases(t, "unexpand", Run, cases)
}
