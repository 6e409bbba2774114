package tsort

import "testing"

func TestAgainstGNU(t *testing.T) {
	var cases []gnuCase
	for _, in := range []string{
		"a b\nb c\nc d\n", "main parse\nmain eval\nparse lex\neval lex\nlex util\nmain util\n",
		"x x\ny z\nq r s t\n", "a b\nb c\nc a\nd e\n", "a b b c c b b d d b\n", "1 2 2 3 3 1 4 5 5 4 6 1\n",
		"a b c\n", "", "a\tb\r\n",
	} {
		cases = append(cases, gnuCase{stdin: in, args: []string{"tsort"}})
	}
	cases = append(cases, gnuCase{args: []string{"tsort", "nope"}}, gnuCase{args: []string{"tsort", "a", "b"}})
	compareGNU(t, Run, cases)
}
