package tsort

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, in := range []string{
		"a b\nb c\nc d\n", "main parse\nmain eval\nparse lex\neval lex\nlex util\nmain util\n",
		"x x\ny z\nq r s t\n", "a b\nb c\nc a\nd e\n", "a b b c c b b d d b\n", "1 2 2 3 3 1 4 5 5 4 6 1\n",
		"a b c\n", "", "a\tb\r\n",
	} {
		cases = append(cases, cmdtest.GNUCase{Stdin: in, Args: []string{"tsort"}})
	}
	cases = append(cases, cmdtest.GNUCase{Args: []string{"tsort", "nope"}}, cmdtest.GNUCase{Args: []string{"tsort", "a", "b"}})
	gnutest.Check(t, Run, cases)
}
