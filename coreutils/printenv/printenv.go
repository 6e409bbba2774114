// Package printenv implements printenv: print all or part of the
// environment.
package printenv

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: '0', Long: "null"}, {Long: "help"}, {Long: "version"},
}}

// Run prints the environment (NAME=VALUE lines), or the values of the
// named variables; it fails with status 1 when one is not set.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, names, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 2)
	}
	end := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "null":
			end = 0
		case "help":
			fmt.Fprintf(c.Stdout, "Usage: %s [OPTION]... [VARIABLE]...\n", c.Name())
			fmt.Fprint(c.Stdout, "Print the values of the specified environment VARIABLE(s).\n"+
				"If no VARIABLE is specified, print name and value pairs for them all.\n\n"+
				"  -0, --null     end each output line with NUL, not newline\n"+
				"      --help        display this help and exit\n"+
				"      --version     output version information and exit\n")
			return 0
		case "version":
			return c.Version()
		}
	}
	w := bufio.NewWriterSize(c.Stdout, 32<<10)
	status := 0
	if len(names) == 0 {
		for _, kv := range c.Env {
			w.WriteString(kv)
			w.WriteByte(end)
		}
	} else {
		for _, name := range names {
			v, ok := "", false
			if !strings.Contains(name, "=") {
				v, ok = c.LookupEnv(name)
			}
			if !ok {
				status = 1
				continue
			}
			w.WriteString(v)
			w.WriteByte(end)
		}
	}
	if err := w.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		c.Errorf("write error: %s", builtins.ErrText(err))
		return 2
	}
	return status
}
