package expand

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestExpandAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "a\tb\tc\n\tx\t\ty\n12345678\tq\n", Want: "a       b       c\n        x               y\n12345678        q\n"},
		{Name: "size", Args: []string{"-t", "4"}, Stdin: "a\tb\tc\td\n", Want: "a   b   c   d\n"},
		{Name: "list", Args: []string{"-t", "2,5,9"}, Stdin: "a\tb\tc\td\te\n", Want: "a b  c   d e\n"},
		{Name: "extend", Args: []string{"-t", "3,/5"}, Stdin: "a\tb\tc\td\te\n", Want: "a  b c    d    e\n"},
		{Name: "increment", Args: []string{"-t", "3,+5"}, Stdin: "a\tb\tc\td\te\n", Want: "a  b    c    d    e\n"},
		{Name: "obsolete", Args: []string{"-4,6"}, Stdin: "a\tb\tc\td\n", Want: "a   b c d\n"},
		{Name: "initial", Args: []string{"-i"}, Stdin: "\ta\tb\n  \t c\td\n", Want: "        a\tb\n         c\td\n"},
		{Name: "backspace", Args: []string{}, Stdin: "ab\bc\td\n", Want: "ab\bc      d\n"},
		{Name: "files", Args: []string{"a", "b", "b"}, Files: map[string]string{"a": "x\ty\n", "b": "p\tq"}, Want: "x       y\np       qp      q"},
		{Name: "zero", Args: []string{"-t", "0"}},
		{Name: "descending", Args: []string{"-t", "4,2"}},
		{Name: "invalid", Args: []string{"-t", "x"}},
		{Name: "slash", Args: []string{"-t", "1/2"}},
		{Name: "missing", Args: []string{"in", "nope"}, Files: map[string]string{"in": "a\tb\n"}, Want: "a       b\n"},
	}
	gnutest.CheckCases(t, "expand", Run, cases)
}
