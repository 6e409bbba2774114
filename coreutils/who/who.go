// Package who implements who. The sandbox keeps no login records, so who
// lists nobody: only the heading (-H) and the count line (-q) appear, in
// GNU's layout for the options given.
package who

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"}, {Short: 'b', Long: "boot"}, {Short: 'd', Long: "dead"},
	{Short: 'H', Long: "heading"}, {Short: 'l', Long: "login"}, {Long: "lookup"},
	{Short: 'm'}, {Short: 'p', Long: "process"}, {Short: 'q', Long: "count"},
	{Short: 'r', Long: "runlevel"}, {Short: 's', Long: "short"}, {Short: 't', Long: "time"},
	{Short: 'T', Long: "mesg"}, {Long: "message"}, {Long: "writable"}, {Short: 'w'},
	{Short: 'u', Long: "users"},
}}

// Run prints the (empty) list of logged-in users.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, code, done := utilcmd.Parse(c, options, helpText(c), 1)
	if done {
		return code
	}
	var heading, count, mesg, idle, exit, short bool
	assumptions := true
	for _, o := range opts {
		switch o.Key {
		case "all":
			mesg, idle, exit, assumptions = true, true, true, false
		case "boot", "process", "time":
			assumptions = false
		case "dead":
			idle, exit, assumptions = true, true, false
		case "login", "runlevel", "users":
			idle, assumptions = true, false
		case "heading":
			heading = true
		case "count":
			count = true
		case "short":
			short = true
		case "mesg", "message", "writable", "w":
			mesg = true
		}
	}
	if len(operands) > 2 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[2]))
		return c.TryHelp(1)
	}
	if assumptions {
		short = true
	}
	if exit {
		short = false
	}
	out := textfmt.NewOutput(c.Stdout)
	switch {
	case count:
		out.WriteString("\n# users=0\n")
	case heading:
		line := fmt.Sprintf("%-8s", "NAME")
		if mesg {
			line += "  "
		}
		line += fmt.Sprintf(" %-12s %-16s", "LINE", "TIME")
		if idle && !short {
			line += fmt.Sprintf(" %-6s", "IDLE")
		}
		if !short {
			line += fmt.Sprintf(" %10s", "PID")
		}
		line += fmt.Sprintf(" %-8s", "COMMENT")
		if exit {
			line += fmt.Sprintf(" %-12s", "EXIT")
		}
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return out.Finish(c, 0)
}

func helpText(c *builtins.Call) string {
	return "Usage: " + c.Name() + " [OPTION]... [ FILE | ARG1 ARG2 ]\n" +
		"Print information about users who are currently logged in.\n\n" +
		"  -a, --all         same as -b -d --login -p -r -t -T -u\n" +
		"  -b, --boot        time of last system boot\n" +
		"  -d, --dead        print dead processes\n" +
		"  -H, --heading     print line of column headings\n" +
		"  -l, --login       print system login processes\n" +
		"      --lookup      attempt to canonicalize hostnames via DNS\n" +
		"  -m                only hostname and user associated with stdin\n" +
		"  -p, --process     print active processes spawned by init\n" +
		"  -q, --count       all login names and number of users logged on\n" +
		"  -r, --runlevel    print current runlevel\n" +
		"  -s, --short       print only name, line, and time (default)\n" +
		"  -t, --time        print last system clock change\n" +
		"  -T, -w, --mesg    add user's message status as +, - or ?\n" +
		"      --message     same as -T\n" +
		"      --writable    same as -T\n" +
		"  -u, --users       list users logged in\n" +
		utilcmd.Trailer()
}
