package fileops

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// Parse parses a coreutils command line with GNU's rules, answering
// --help (with help, printed as is after "Usage: ") and --version. When
// done is set the command returns status at once.
func Parse(c *builtins.Call, spec builtins.Options, help string) (opts []builtins.Opt, operands []string, status int, done bool) {
	spec.List = append(spec.List[:len(spec.List):len(spec.List)],
		builtins.Option{Long: "help"}, builtins.Option{Long: "version"})
	opts, operands, err := spec.Parse(c.Args[1:])
	if err != nil {
		return nil, nil, c.UsageFail(err, "", 1), true
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			io.WriteString(c.Stdout, strings.ReplaceAll(help, "PROG", c.Name()))
			return nil, nil, 0, true
		case "version":
			return nil, nil, c.Version(), true
		}
	}
	return opts, operands, 0, false
}

// UsageErr prints "NAME: msg" and the --help hint; it returns 1.
func UsageErr(c *builtins.Call, format string, args ...any) int {
	c.Errorf(format, args...)
	fmt.Fprintf(c.Stderr, "Try '%s --help' for more information.\n", c.Name())
	return 1
}

// ArgMatch finds arg among valid (exactly or as an unambiguous prefix),
// as gnulib's argmatch does. On failure it prints GNU's message and the
// valid arguments, and returns -1.
func ArgMatch(c *builtins.Call, q Quoter, option, arg string, valid []string) int {
	return ArgMatchGroups(c, q, option, arg, valid, nil)
}

// ArgMatchGroups is ArgMatch where valid values with the same group
// number are synonyms, listed on one line.
func ArgMatchGroups(c *builtins.Call, q Quoter, option, arg string, valid []string, groups []int) int {
	found := -1
	ambiguous := false
	for i, v := range valid {
		if v == arg {
			return i
		}
		if strings.HasPrefix(v, arg) && arg != "" {
			if found >= 0 && (groups == nil || groups[found] != groups[i]) {
				ambiguous = true
			}
			found = i
		}
	}
	if found >= 0 && !ambiguous {
		return found
	}
	kind := "invalid"
	if ambiguous {
		kind = "ambiguous"
	}
	c.Errorf("%s argument %s for %s", kind, q.Q(arg), q.Q(option))
	fmt.Fprintf(c.Stderr, "Valid arguments are:\n")
	for i, v := range valid {
		if groups != nil && i > 0 && groups[i] == groups[i-1] {
			fmt.Fprintf(c.Stderr, ", %s", q.Q(v))
			continue
		}
		if i > 0 {
			fmt.Fprintf(c.Stderr, "\n")
		}
		fmt.Fprintf(c.Stderr, "  - %s", q.Q(v))
	}
	fmt.Fprintf(c.Stderr, "\n")
	fmt.Fprintf(c.Stderr, "Try '%s --help' for more information.\n", c.Name())
	return -1
}

// Output wraps standard output in a buffer; Flush reports a failed write
// as GNU does ("write error") or returns 141 quietly on a broken pipe.
type Output struct {
	*bufio.Writer
	c *builtins.Call
}

// NewOutput buffers the call's standard output.
func NewOutput(c *builtins.Call) *Output {
	return &Output{Writer: bufio.NewWriterSize(c.Stdout, 32*1024), c: c}
}

// Finish flushes the output and returns the exit status to use.
func (o *Output) Finish(status int) int {
	if err := o.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		o.c.Errorf("write error: %s", builtins.ErrText(err))
		return 1
	}
	return status
}
