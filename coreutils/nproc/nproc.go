// Package nproc implements nproc. The sandbox reports 2 processors (the
// same value getconf _NPROCESSORS_ONLN gives), and honours
// OMP_NUM_THREADS and OMP_THREAD_LIMIT as GNU nproc does.
package nproc

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Processors is the sandbox's processor count.
const Processors = 2

var options = builtins.Options{List: []builtins.Option{
	{Long: "all"}, {Long: "ignore", Arg: builtins.RequiredArg}, {Long: "help"}, {Long: "version"},
}}

// Run prints the number of processing units available.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	all := false
	var ignore uint64
	for _, o := range opts {
		switch o.Key {
		case "all":
			all = true
		case "ignore":
			n, ok := parseUint(o.Value)
			if !ok {
				c.Errorf("invalid number: %s", utilcmd.Q(c, o.Value))
				return 1
			}
			ignore = n
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]...\n"+
				"Print the number of processing units available to the current process,\n"+
				"which may be less than the number of online processors\n\n"+
				"      --all      print the number of installed processors\n"+
				"      --ignore=N  if possible, exclude N processing units\n"+
				utilcmd.Trailer())
		case "version":
			return c.Version()
		}
	}
	if len(operands) > 0 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[0]))
		return c.TryHelp(1)
	}
	n := uint64(Processors)
	if !all {
		limit := ompValue(c.Getenv("OMP_THREAD_LIMIT"))
		if limit == 0 {
			limit = math.MaxUint64
		}
		if t := ompValue(c.Getenv("OMP_NUM_THREADS")); t != 0 {
			n = t
		}
		n = min(n, limit)
	}
	if ignore < n {
		n -= ignore
	} else {
		n = 1
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(strconv.FormatUint(n, 10) + "\n")
	return out.Finish(c, 0)
}

func parseUint(s string) (uint64, bool) {
	n, e := textio.ParseUint(s, "")
	return n, e == textio.NumOK
}

// ompValue reads the first entry of an OpenMP thread count list; 0 when
// unset or invalid.
func ompValue(s string) uint64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		n = math.MaxUint64
	}
	rest := strings.TrimLeft(s[i:], " \t\n\v\f\r")
	if rest != "" && rest[0] != ',' {
		return 0
	}
	return n
}
