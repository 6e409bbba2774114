package leanscript

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// denied reports the builtins that run text as code, define code from
// text, or change how names resolve.
func denied(s string) bool {
	switch s {
	case "eval", "source", ".", "trap", "alias", "unalias", "complete", "compgen", "compopt",
		"enable", "hash", "fc", "history", "bind", "declare", "typeset", "local", "export",
		"readonly", "nameref", "coproc":
		return true
	}
	return false
}

// safe reports the builtins whose arguments are data whatever they hold.
func safe(s string) bool {
	switch s {
	case "echo", "true", "false", ":", "cd", "pwd", "test", "[", "exit", "return", "break",
		"continue", "shift", "set", "shopt", "wait", "jobs", "kill", "umask", "times", "dirs",
		"pushd", "popd", "type", "ulimit", "caller", "disown", "suspend", "help", "logout", "let",
		"bg", "fg":
		return true
	}
	return false
}

// command checks a command's words: args[0] is its name. asShell is false
// for a command another command runs (xargs grep): functions and builtins
// are out of its reach there.
//
// appends is true when that command adds words of data to the arguments
// (xargs, find -exec): then the command must not be one that reads its
// arguments as a command or as options that run one.
func (c *checker) command(args []*syntax.Word, asShell, appends bool) {
	name, ok := literal(args[0])
	if !ok {
		c.fail("a command word that is not literal")
		return
	}
	rest := args[1:]
	switch {
	case name == "":
		c.fail("an empty command name")
	case strings.Contains(name, "/"):
		c.fail("%s: a command named by path", name)
	case name == "bash" || name == "sh":
		c.fail("%s runs a shell on text", name)
	case asShell && c.funcs[name]:
	case asShell && denied(name):
		c.fail("%s", name)
	case asShell && safe(name):
	case asShell && name == "printf":
		for i, w := range rest {
			if s, _ := literal(w); s == "-v" && (i+1 >= len(rest) || !plainName(rest[i+1])) {
				c.fail("printf -v with a variable name that is not literal")
			}
		}
	case asShell && (name == "read" || name == "mapfile" || name == "readarray" || name == "getopts" || name == "unset"):
		for _, w := range rest {
			s, ok := literal(w)
			if !ok || strings.ContainsAny(s, "$`") || name != "read" && name != "getopts" && strings.HasPrefix(s, "-") && strings.Contains(s, "C") {
				c.fail("%s with a word that is not literal", name)
				return
			}
		}
	case asShell && name == "exec":
		if len(rest) > 0 {
			c.runs(name, rest, options{value: "a", flags: "cl"})
		}
	case asShell && name == "command":
		i := 0
		for ; i < len(rest); i++ {
			s, ok := literal(rest[i])
			if !ok {
				c.fail("command with a word that is not literal")
				return
			}
			if s == "--" {
				i++
				break
			}
			if !strings.HasPrefix(s, "-") || s == "-" {
				break
			}
			if strings.ContainsAny(s, "vV") {
				return // command -v/-V only looks names up
			}
			if strings.Trim(s, "-p") != "" {
				c.fail("command %s", s)
				return
			}
		}
		if i < len(rest) {
			c.command(rest[i:], false, false)
		}
	case asShell && name == "builtin":
		if len(rest) > 0 {
			if b, ok := literal(rest[0]); !ok || !safe(b) {
				c.fail("builtin with an operand that is not a plain builtin")
			}
		}
	case !c.t.Lean(name):
		c.fail("%s is not in the lean table", name)
	case appends && runners(name):
		c.fail("%s run with words of data as its arguments", name)
	default:
		c.leanCommand(name, rest)
	}
}

// runners reports the lean commands whose arguments can make them run a
// command.
func runners(s string) bool {
	switch s {
	case "xargs", "env", "timeout", "nice", "nohup", "stdbuf", "find", "split":
		return true
	}
	return false
}

// plainName says whether w is a literal variable name without a subscript.
func plainName(w *syntax.Word) bool {
	s, ok := literal(w)
	return ok && syntax.ValidName(s)
}

// leanCommand checks the arguments of a lean command that can run others.
func (c *checker) leanCommand(name string, args []*syntax.Word) {
	switch name {
	case "xargs":
		o := options{value: "adEILnPs", attached: "eil", flags: "0rtpxo",
			long: "null no-run-if-empty verbose interactive exit open-tty show-limits"}
		if i := o.operand(args); i >= 0 && i < len(args) {
			if cmd, _ := literal(args[i]); replaced(args[:i], cmd) {
				c.fail("xargs replaces text in its command name")
				return
			}
		}
		c.runs(name, args, o)
	case "env":
		c.env(args)
	case "timeout":
		c.runsAfter(name, args, options{value: "sk", flags: "vfp", long: "foreground preserve-status verbose"}, 1)
	case "nice":
		c.runs(name, args, options{value: "n", digits: true})
	case "nohup":
		c.runs(name, args, options{})
	case "stdbuf":
		c.runs(name, args, options{value: "ioe"})
	case "find":
		c.find(args)
	case "split":
		for _, w := range args {
			s, ok := literal(w)
			if !ok && !oneField(w) || strings.HasPrefix(s, "--f") {
				c.fail("split with --filter or a word that could be an option")
				return
			}
		}
	}
}

// replaced says whether xargs's -I/-i/--replace string (opts are the
// words before its command) can occur in the command name.
func replaced(opts []*syntax.Word, cmd string) bool {
	for i, w := range opts {
		s, _ := literal(w)
		var repl string
		switch {
		case s == "--replace":
			repl = "{}"
		case strings.HasPrefix(s, "--replace="):
			repl = s[len("--replace="):]
		case strings.HasPrefix(s, "--"):
			continue
		case strings.HasPrefix(s, "-") && strings.ContainsAny(s, "Ii"):
			j := strings.IndexAny(s, "Ii")
			repl = s[j+1:]
			if repl == "" && s[j] == 'I' && i+1 < len(opts) {
				var ok bool
				if repl, ok = literal(opts[i+1]); !ok {
					return true
				}
			}
			if repl == "" {
				repl = "{}"
			}
		default:
			continue
		}
		if strings.Contains(cmd, repl) {
			return true
		}
	}
	return false
}

// options describes a command's getopt-style options for finding its
// command operand: value letters take an argument (attached or the next
// word), attached letters take one only attached, flags take none; long
// lists the long options without a value ("--name=value" is always one
// word); digits accepts -NUM (nice).
type options struct {
	value, attached, flags, long string
	digits                       bool
}

// operand returns the index of the first operand in args, or -1 when an
// option is unknown or a word before the operand is not literal.
func (o options) operand(args []*syntax.Word) int {
	for i := 0; i < len(args); i++ {
		s, ok := literal(args[i])
		if !ok {
			return -1
		}
		switch {
		case s == "--":
			return i + 1
		case s == "-" || !strings.HasPrefix(s, "-"):
			return i
		case strings.HasPrefix(s, "--"):
			name, _, hasValue := strings.Cut(s[2:], "=")
			if !hasValue && !strings.Contains(" "+o.long+" ", " "+name+" ") {
				return -1
			}
		case o.digits && strings.Trim(s[1:], "0123456789") == "" && len(s) > 1:
		default:
			for j := 1; j < len(s); j++ {
				ch := s[j]
				switch {
				case strings.IndexByte(o.flags, ch) >= 0:
					continue
				case strings.IndexByte(o.attached, ch) >= 0:
				case strings.IndexByte(o.value, ch) >= 0:
					if j == len(s)-1 {
						i++ // the value is the next word
						if i >= len(args) {
							return -1
						}
						if !singleField(args[i]) {
							return -1
						}
					}
				default:
					return -1
				}
				break
			}
		}
	}
	return len(args)
}

// runs checks a command that runs its first operand as a command.
func (c *checker) runs(name string, args []*syntax.Word, o options) {
	c.runsAfter(name, args, o, 0)
}

// runsAfter is runs for a command whose command operand follows skip
// other operands (timeout's DURATION).
func (c *checker) runsAfter(name string, args []*syntax.Word, o options, skip int) {
	i := o.operand(args)
	if i < 0 {
		c.fail("%s with an option or word the check does not know", name)
		return
	}
	for ; skip > 0 && i < len(args); skip-- {
		if !singleField(args[i]) {
			c.fail("%s with an operand that is not one field", name)
			return
		}
		i++
	}
	if i < len(args) {
		c.command(args[i:], false, name == "xargs")
	}
}

// env checks env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...].
func (c *checker) env(args []*syntax.Word) {
	i := options{value: "uC", flags: "i0v", long: "ignore-environment null debug list-signal-handling default-signal ignore-signal block-signal"}.operand(args)
	if i < 0 {
		c.fail("env with an option or word the check does not know")
		return
	}
	for ; i < len(args); i++ {
		if !strings.Contains(litPrefix(args[i]), "=") {
			break
		}
		if !singleField(args[i]) {
			c.fail("env with an assignment that is not one field")
			return
		}
	}
	if i < len(args) {
		c.command(args[i:], false, false)
	}
}

// findValue reports find's primaries and options followed by a value.
func findValue(s string) bool {
	switch s {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
		"-lname", "-ilname", "-newer", "-anewer", "-cnewer", "-samefile", "-type", "-xtype",
		"-size", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-mtime", "-atime",
		"-ctime", "-mmin", "-amin", "-cmin", "-used", "-maxdepth", "-mindepth", "-printf",
		"-fprint", "-fprint0", "-fprintf", "-fls", "-fstype", "-regextype", "-context",
		"-files0-from", "-newerXY":
		return true
	}
	return false
}

// findExec reports find's primaries that run a command.
func findExec(s string) bool {
	switch s {
	case "-exec", "-execdir", "-ok", "-okdir":
		return true
	}
	return false
}

// find checks find's -exec family. A word that is not literal passes only
// as one field: as the value of a primary that takes one (anywhere else it
// could be "-exec" itself), or as one argument of an -exec command (where
// it could be the ";" that ends the command, so there may be one only).
func (c *checker) find(args []*syntax.Word) {
	for i := 0; i < len(args); i++ {
		s, ok := literal(args[i])
		if !ok {
			c.fail("find with a word that is not literal outside a primary's value")
			return
		}
		switch {
		case findValue(s) || strings.HasPrefix(s, "-newer") && len(s) == 8:
			n := 1
			if s == "-fprintf" {
				n = 2
			}
			for ; n > 0 && i+1 < len(args); n-- {
				i++
				if !singleField(args[i]) {
					c.fail("find %s with a value that is not one field", s)
					return
				}
			}
		case findExec(s):
			end, loose := i+1, 0
			for ; end < len(args); end++ {
				t, ok := literal(args[end])
				if ok && (t == ";" || t == "+") {
					break
				}
				switch {
				case !ok && (end == i+1 || !singleField(args[end])):
					c.fail("find %s with a word that is not one field", s)
					return
				case !ok:
					loose++
				case loose > 0 && (findExec(t) || t == "-delete" || strings.HasPrefix(t, "-fprint") || t == "-fls"):
					// the word before could be ";", making this a primary
					c.fail("find %s with a word that could end it early", s)
					return
				}
			}
			if loose > 1 {
				c.fail("find %s with more than one word that is not literal", s)
				return
			}
			if end == i+1 || end >= len(args) {
				return // find reports the missing command or terminator
			}
			c.command(args[i+1:end], false, true)
			if c.err != nil {
				return
			}
			i = end
		}
	}
}

// litPrefix returns the literal text a word starts with, up to its first
// expansion.
func litPrefix(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return b.String()
				}
				b.WriteString(l.Value)
			}
		default:
			return b.String()
		}
	}
	return b.String()
}
