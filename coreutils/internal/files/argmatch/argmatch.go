// Package argmatch matches an option's word argument against a list of
// choices, accepting unambiguous prefixes, and reports a bad one in the
// words of gnulib's argmatch.
package argmatch

import (
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Choice is one accepted value with its synonyms.
type Choice struct {
	Names []string
	Value int
}

// Words lists single-name choices whose values are their indexes.
func Words(names ...string) []Choice {
	out := make([]Choice, len(names))
	for i, n := range names {
		out[i] = Choice{Names: []string{n}, Value: i}
	}
	return out
}

// Match returns the value arg selects: an exact name, or a prefix that
// names one value only.
func Match(arg string, choices []Choice) (int, bool, bool) {
	found, value := false, 0
	for _, ch := range choices {
		for _, n := range ch.Names {
			if n == arg {
				return ch.Value, true, false
			}
		}
	}
	for _, ch := range choices {
		for _, n := range ch.Names {
			if strings.HasPrefix(n, arg) {
				if found && value != ch.Value {
					return 0, false, true
				}
				found, value = true, ch.Value
			}
		}
	}
	return value, found, false
}

// Fail prints gnulib's message for a bad argument and returns status.
func Fail(c *builtins.Call, arg, option string, ambiguous bool, choices []Choice, status int) int {
	q := quote.New(c)
	kind := "invalid"
	if ambiguous {
		kind = "ambiguous"
	}
	c.Errorf("%s argument %s for %s", kind, q.Q(arg), q.Q(option))
	fmt.Fprintln(c.Stderr, "Valid arguments are:")
	for _, ch := range choices {
		qs := make([]string, len(ch.Names))
		for i, n := range ch.Names {
			qs[i] = q.Q(n)
		}
		fmt.Fprintf(c.Stderr, "  - %s\n", strings.Join(qs, ", "))
	}
	c.TryHelp(0)
	return status
}

// Get matches arg, printing the failure itself; ok is false on failure
// and status is then the exit status.
func Get(c *builtins.Call, arg, option string, choices []Choice, status int) (value int, ok bool) {
	v, found, amb := Match(arg, choices)
	if !found {
		Fail(c, arg, option, amb, choices, status)
		return 0, false
	}
	return v, true
}

// When is the --color/--classify/--hyperlink argument.
const (
	Always = iota
	Never
	Auto
)

// WhenChoices are the WHEN words.
var WhenChoices = []Choice{
	{[]string{"always", "yes", "force"}, Always},
	{[]string{"never", "no", "none"}, Never},
	{[]string{"auto", "tty", "if-tty"}, Auto},
}
