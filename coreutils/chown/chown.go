// Package chown implements GNU chown and chgrp over the sandbox's user
// table (root, uid 0, and the sandbox user, uid 1000, each with its own
// group; other numeric ids are accepted and shown as numbers). The
// sandbox records the new owners for the call; host files keep theirs.
// As under fakeroot, the sandbox user may give files to any owner.
package chown

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/lazy"
)

var options = lazy.Value[*builtins.Options]{New: func() *builtins.Options {
	return &builtins.Options{List: fileops.ChangerOptions(
		builtins.Option{Long: "dereference"},
		builtins.Option{Short: 'h', Long: "no-dereference"},
		builtins.Option{Long: "from", Arg: builtins.RequiredArg},
		builtins.Option{Short: 'H'},
		builtins.Option{Short: 'L'},
		builtins.Option{Short: 'P'},
		builtins.Option{Long: "help"},
		builtins.Option{Long: "version"},
	)}
}}

// lchowner is implemented by the sandbox namespace.
type lchowner interface {
	Lchown(name string, uid, gid int) error
}

type chowner struct {
	fileops.Changer
	chgrp    bool
	uid, gid int // -1: unchanged
	// userText and groupText are the new owner and group as the command
	// line spelled them, which -v shows.
	userText, groupText string
	fromUID             int
	fromGID             int
	deref               int // -1 default, 0 no, 1 yes
	traverse            byte
}

// Run is chown.
func Run(ctx context.Context, c *builtins.Call) int { return run(ctx, c, false) }

// RunChgrp is chgrp.
func RunChgrp(ctx context.Context, c *builtins.Call) int { return run(ctx, c, true) }

func run(ctx context.Context, c *builtins.Call, chgrp bool) int {
	opts, operands, err := options.Get().Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	ch := &chowner{Changer: fileops.Changer{Ctx: ctx, C: c, Q: quote.New(c)}, chgrp: chgrp, uid: -1, gid: -1, fromUID: -1, fromGID: -1, deref: -1, traverse: 'P'}
	for _, o := range opts {
		if ch.Option(o) {
			continue
		}
		switch o.Key {
		case "help":
			help(c, chgrp)
			return 0
		case "version":
			return c.Version()
		case "dereference":
			ch.deref = 1
		case "no-dereference":
			ch.deref = 0
		case "from":
			u, g, msg := ch.parseSpec(o.Value, false)
			if msg != "" {
				c.Errorf("%s", msg)
				return 1
			}
			ch.fromUID, ch.fromGID = u, g
		case "H", "L", "P":
			ch.traverse = o.Key[0]
		}
	}
	if ch.Recursive && ch.traverse == 'P' {
		if ch.deref == 1 {
			c.Errorf("-R --dereference requires either -H or -L")
			return 1
		}
		ch.deref = 0
	}
	if !ch.Recursive {
		ch.traverse = 'P'
	}
	reference, hasRef := ch.Reference, ch.HasRef
	if hasRef {
		if _, err := c.Stat(reference); err != nil {
			c.Errorf("failed to get attributes of %s: %s", ch.Q.AF(reference), builtins.ErrText(err))
			return 1
		}
		o := meta.OwnerOf(c, resolved(c, reference))
		ch.gid = o.GID
		if !chgrp {
			ch.uid = o.UID
		}
		ch.userText, ch.groupText = ch.names(o.UID, o.GID)
	} else {
		if len(operands) == 0 {
			return utilcmd.Fail(c, 1, "missing operand")
		}
		spec := operands[0]
		operands = operands[1:]
		if chgrp {
			g, ok := ch.lookup(spec)
			if !ok {
				c.Errorf("invalid group: %s", ch.Q.Q(spec))
				return 1
			}
			ch.gid, ch.groupText = g, spec
		} else {
			u, g, msg := ch.parseSpec(spec, true)
			if msg != "" {
				c.Errorf("%s", msg)
				return 1
			}
			ch.uid, ch.gid = u, g
		}
		if len(operands) == 0 {
			return utilcmd.Fail(c, 1, "missing operand after %s", ch.Q.Q(spec))
		}
	}
	stat := c.Lstat
	if ch.deref != 0 || ch.traverse != 'P' {
		stat = c.Stat
	}
	return ch.Run(operands, stat, func(name string, fi fs.FileInfo) { ch.apply(name, fi, ch.deref != 0) },
		func(p string, e fs.FileInfo) bool {
			if e.Mode()&fs.ModeSymlink != 0 && ch.traverse == 'L' {
				if fi, err := c.Stat(p); err == nil {
					ch.apply(p, fi, true)
					return fi.IsDir()
				}
			}
			ch.apply(p, e, false)
			return e.IsDir()
		})
}

// lookup finds a user or group by name or number.
func (ch *chowner) lookup(name string) (int, bool) {
	digits := strings.TrimPrefix(name, "+")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		n, err := strconv.Atoi(digits)
		return n, err == nil && n >= 0
	}
	return meta.LookupID(ch.C, name)
}

// parseSpec reads OWNER[:[GROUP]] (or OWNER.GROUP); "OWNER:" means the
// owner's login group. It returns GNU's message for a bad spec.
func (ch *chowner) parseSpec(spec string, main bool) (uid, gid int, msg string) {
	uid, gid = -1, -1
	user, group, colon := strings.Cut(spec, ":")
	if !colon {
		if _, ok := ch.lookup(spec); !ok {
			if u, g, dot := strings.Cut(spec, "."); dot {
				user, group, colon = u, g, true
			}
		}
	}
	if user != "" {
		u, ok := ch.lookup(user)
		if !ok {
			return 0, 0, "invalid user: " + ch.Q.Q(spec)
		}
		uid = u
		if main {
			ch.userText = user
		}
		if colon && group == "" {
			gid = u // the login group of root and of the sandbox user
			if main {
				ch.groupText, _ = ch.names(u, u)
			}
		}
	}
	if group != "" {
		g, ok := ch.lookup(group)
		if !ok {
			return 0, 0, "invalid group: " + ch.Q.Q(spec)
		}
		gid = g
		if main {
			ch.groupText = group
		}
	}
	return uid, gid, ""
}

// names is how chown shows an owner and group in its messages.
func (ch *chowner) names(uid, gid int) (string, string) {
	name := func(id int) string {
		if n := meta.IDName(ch.C, id); n != "" {
			return n
		}
		return strconv.Itoa(id)
	}
	return name(uid), name(gid)
}

func (ch *chowner) apply(name string, fi fs.FileInfo, follow bool) {
	c := ch.C
	target := c.Abs(name)
	if follow {
		target = resolved(c, name)
	}
	old := meta.OwnerOf(c, target)
	if ch.fromUID >= 0 && old.UID != ch.fromUID || ch.fromGID >= 0 && old.GID != ch.fromGID {
		if ch.Verbose {
			ch.report(name, old, old, false)
		}
		return
	}
	nu := old
	if ch.uid >= 0 {
		nu.UID = ch.uid
	}
	if ch.gid >= 0 {
		nu.GID = ch.gid
	}
	var err error
	if follow || fi.Mode()&fs.ModeSymlink == 0 {
		err = c.FS.Chown(c.Abs(name), ch.uid, ch.gid)
	} else if l, ok := c.FS.(lchowner); ok {
		err = l.Lchown(c.Abs(name), ch.uid, ch.gid)
	}
	if err != nil {
		what := "ownership"
		if ch.chgrp {
			what = "group"
		}
		ch.Errorf("changing %s of %s: %s", what, ch.Q.AF(name), builtins.ErrText(err))
		return
	}
	changed := nu.UID != old.UID || nu.GID != old.GID
	if ch.Verbose || ch.Changes && changed {
		ch.report(name, old, nu, changed)
	}
}

// resolved is the physical path of name with a final symlink followed.
func resolved(c *builtins.Call, name string) string {
	type resolver interface {
		Resolve(name string, followLast bool) (string, error)
	}
	if r, ok := c.FS.(resolver); ok {
		if p, err := r.Resolve(c.Abs(name), true); err == nil {
			return p
		}
	}
	return c.Abs(name)
}

// report prints -v/-c's line, as GNU's describe_change.
func (ch *chowner) report(name string, old, nu meta.Owner, changed bool) {
	ou, og := ch.names(old.UID, old.GID)
	nuName, ng := ou, og
	if changed {
		nuName, ng = ch.userText, ch.groupText
	}
	spec := func(u, g string) string {
		switch {
		case ch.uid >= 0 && ch.gid >= 0:
			return u + ":" + g
		case ch.uid >= 0:
			return u
		}
		return g
	}
	user := ch.uid >= 0
	n := ch.Q.AF(name)
	switch {
	case changed && user:
		fmt.Fprintf(ch.C.Stdout, "changed ownership of %s from %s to %s\n", n, spec(ou, og), spec(nuName, ng))
	case changed:
		fmt.Fprintf(ch.C.Stdout, "changed group of %s from %s to %s\n", n, og, ng)
	case user:
		fmt.Fprintf(ch.C.Stdout, "ownership of %s retained as %s\n", n, spec(nuName, ng))
	case ch.gid >= 0:
		fmt.Fprintf(ch.C.Stdout, "group of %s retained as %s\n", n, ng)
	default:
		fmt.Fprintf(ch.C.Stdout, "ownership of %s retained\n", n)
	}
}

func help(c *builtins.Call, chgrp bool) {
	if chgrp {
		fmt.Fprintf(c.Stdout, `Usage: %[1]s [OPTION]... GROUP FILE...
  or:  %[1]s [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
With --reference, change the group of each FILE to that of RFILE.
`, c.Name())
	} else {
		fmt.Fprintf(c.Stdout, `Usage: %[1]s [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  %[1]s [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.
`, c.Name())
	}
	fmt.Fprint(c.Stdout, `
  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link (this is
                         the default), rather than the symbolic link itself
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --from=CURRENT_OWNER:CURRENT_GROUP
                         change the owner and/or group of each file only if
                         its current owner and/or group match those specified
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's ownership rather than specifying values
  -R, --recursive        operate on files and directories recursively

The following options modify how a hierarchy is traversed when the -R
option is also specified.  If more than one is specified, only the final
one takes effect.

  -H                     if a command line argument is a symbolic link
                         to a directory, traverse it
  -L                     traverse every symbolic link to a directory
                         encountered
  -P                     do not traverse any symbolic links (default)

      --help        display this help and exit
      --version     output version information and exit
`)
}
