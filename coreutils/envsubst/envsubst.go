// Package envsubst implements GNU gettext's envsubst: copy standard input
// to standard output with $VARIABLE and ${VARIABLE} replaced by the
// sandbox environment's values (empty when unset), or only the variables
// named in a SHELL-FORMAT argument.
package envsubst

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'v', Long: "variables"}, {Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
}}

// Run substitutes standard input, or lists a format's variables.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err)
		c.TryHelp(0)
		return 1
	}
	list := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			io.WriteString(c.Stdout, help)
			return 0
		case "version":
			io.WriteString(c.Stdout, "envsubst (GNU gettext-runtime) 0.21 (bashbox "+builtins.ReleaseVersion+")\n")
			return 0
		case "variables":
			list = true
		}
	}
	if len(operands) > 1 {
		c.Errorf("too many arguments")
		return 1
	}
	if list {
		if len(operands) == 0 {
			c.Errorf("missing arguments")
			return 1
		}
		// Every occurrence, repeats included, as gettext lists them.
		scan(operands[0], func(_, _ int, name string) { fmt.Fprintln(c.Stdout, name) })
		return 0
	}
	var only map[string]bool
	if len(operands) == 1 {
		only = map[string]bool{}
		for _, name := range references(operands[0]) {
			only[name] = true
		}
	}
	out := textio.NewWriter(c.Stdout)
	in := bufio.NewReader(textio.Cancellable(ctx, c.Stdin))
	for {
		line, err := in.ReadString('\n')
		if line != "" {
			out.WriteString(substitute(line, func(name string) (string, bool) {
				if only != nil && !only[name] {
					return "", false
				}
				v, _ := c.LookupEnv(name)
				return v, true
			}))
		}
		if err != nil {
			if err != io.EOF {
				out.Flush()
				c.Errorf("error while reading %s: %s", "\"standard input\"", builtins.ErrText(err))
				return 1
			}
			break
		}
	}
	return textio.Finish(c, out, 0)
}

func nameStart(ch byte) bool { return ch == '_' || ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' }
func nameChar(ch byte) bool  { return nameStart(ch) || ch >= '0' && ch <= '9' }

// scan calls ref for each $NAME or ${NAME} in s with its bounds.
func scan(s string, ref func(start, end int, name string)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		j := i + 1
		braced := s[j] == '{'
		if braced {
			j++
		}
		if j >= len(s) || !nameStart(s[j]) {
			continue
		}
		k := j
		for k < len(s) && nameChar(s[k]) {
			k++
		}
		end := k
		if braced {
			if k >= len(s) || s[k] != '}' {
				continue
			}
			end = k + 1
		}
		ref(i, end, s[j:k])
		i = end - 1
	}
}

func references(format string) []string {
	var names []string
	seen := map[string]bool{}
	scan(format, func(_, _ int, name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	})
	return names
}

func substitute(s string, value func(string) (string, bool)) string {
	var b strings.Builder
	prev := 0
	scan(s, func(start, end int, name string) {
		if v, ok := value(name); ok {
			b.WriteString(s[prev:start])
			b.WriteString(v)
			prev = end
		}
	})
	b.WriteString(s[prev:])
	return b.String()
}
