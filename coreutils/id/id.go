// Package id implements id: print the sandbox user's identity. The sandbox
// has one user, uid and gid 1000, named by $USER (default "user"), whose
// only group has the same name; root (0) is known as well, so that `id
// root` and `id -u root` work.
package id

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a'}, {Short: 'Z', Long: "context"}, {Short: 'g', Long: "group"},
	{Short: 'G', Long: "groups"}, {Short: 'n', Long: "name"}, {Short: 'r', Long: "real"},
	{Short: 'u', Long: "user"}, {Short: 'z', Long: "zero"},
	{Long: "help"}, {Long: "version"},
}}

type account struct {
	uid  int
	name string
}

// Run prints user and group information.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var user, group, groups, name, real, zero, context bool
	for _, o := range opts {
		switch o.Key {
		case "user":
			user = true
		case "group":
			group = true
		case "groups":
			groups = true
		case "name":
			name = true
		case "real":
			real = true
		case "zero":
			zero = true
		case "context":
			context = true
		case "help":
			return help(c)
		case "version":
			return c.Version()
		}
	}
	_ = real // real and effective ids are the same in the sandbox
	me := meta.UserName(c)
	if context {
		c.Errorf("--context (-Z) works only on an SELinux-enabled kernel")
		return 1
	}
	n := 0
	for _, b := range []bool{user, group, groups} {
		if b {
			n++
		}
	}
	if n > 1 {
		c.Errorf("cannot print \"only\" of more than one choice")
		return 1
	}
	if n == 0 && (name || real) {
		c.Errorf("cannot print only names or real IDs in default format")
		return 1
	}
	if n == 0 && zero {
		c.Errorf("option --zero not permitted in default format")
		return 1
	}
	var accts []account
	if len(operands) == 0 {
		accts = []account{{1000, me}}
	}
	status := 0
	for _, op := range operands {
		switch op {
		case me, "1000":
			accts = append(accts, account{1000, me})
		case "root", "0":
			accts = append(accts, account{0, "root"})
		default:
			c.Errorf("%s: no such user", utilcmd.Q(c, op))
			status = 1
		}
	}
	out := textfmt.NewOutput(c.Stdout)
	end := "\n"
	if zero {
		end = "\x00"
	}
	for _, a := range accts {
		val := fmt.Sprint(a.uid)
		if name {
			val = a.name
		}
		switch {
		case user, group, groups:
			out.WriteString(val + end)
		default:
			out.WriteString(fmt.Sprintf("uid=%d(%s) gid=%d(%s) groups=%d(%s)\n", a.uid, a.name, a.uid, a.name, a.uid, a.name))
		}
	}
	return out.Finish(c, status)
}

func help(c *builtins.Call) int {
	name := c.Name()
	return textfmt.Help(c, strings.Join([]string{
		"Usage: " + name + " [OPTION]... [USER]...",
		"Print user and group information for each specified USER,",
		"or (when USER omitted) for the current process.",
		"",
		"  -a             ignore, for compatibility with other versions",
		"  -Z, --context  print only the security context of the process",
		"  -g, --group    print only the effective group ID",
		"  -G, --groups   print all group IDs",
		"  -n, --name     print a name instead of a number, for -ugG",
		"  -r, --real     print the real ID instead of the effective ID, with -ugG",
		"  -u, --user     print only the effective user ID",
		"  -z, --zero     delimit entries with NUL characters, not whitespace;",
		"                   not permitted in default format",
		"",
	}, "\n")+utilcmd.Trailer()+
		"\nWithout any OPTION, print some useful set of identified information.\n")
}
