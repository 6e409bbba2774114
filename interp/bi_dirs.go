package interp

import (
	"path"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// cd and the directory stack (pushd, popd, dirs). The stack's entry 0 is
// always the current directory; f.dirStack holds entries 1 and up.

func (f *frame) biCd(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "cd", "PLe@", "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
	if !ok {
		return 2
	}
	physical := f.opts.has(optPhysical)
	switch fl.last("PL") {
	case 'P':
		physical = true
	case 'L':
		physical = false
	}
	if len(args) > 1 {
		f.errorf("cd: too many arguments")
		return 1
	}
	target := ""
	printDir := false
	if len(args) == 0 {
		h, ok := f.getVar("HOME")
		if !ok {
			f.errorf("cd: HOME not set")
			return 1
		}
		target = h
	} else {
		target = args[0]
		if target == "-" {
			old, ok := f.getVar("OLDPWD")
			if !ok || old == "" {
				f.errorf("cd: OLDPWD not set")
				return 1
			}
			target, printDir = old, true
		}
	}
	dest, viaCDPATH, st := f.chdir("cd", target, physical, true)
	if st == 0 && (printDir || viaCDPATH) {
		f.fds.writeString(1, dest+"\n")
	}
	return st
}

// chdir changes to target as cd does (CDPATH when asked), naming who in
// its errors. It returns the new directory and whether a non-empty
// CDPATH entry found it.
func (f *frame) chdir(who, target string, physical, cdpath bool) (string, bool, int) {
	if target == "" {
		return f.dir, false, 0
	}
	dest, via := "", false
	first, _, _ := strings.Cut(target, "/")
	if cdpath && !path.IsAbs(target) && first != "." && first != ".." {
		if cp, ok := f.getVar("CDPATH"); ok && cp != "" {
			for _, d := range strings.Split(cp, ":") {
				cand := path.Join(f.absPath(d), target)
				if d == "" {
					cand = f.absPath(target)
				}
				if fi, err := f.call.sh.FS.Stat(cand); err == nil && fi.IsDir() {
					dest, via = cand, d != ""
					break
				}
			}
		}
	}
	if dest == "" {
		dest = f.absPath(target)
	}
	fi, err := f.call.sh.FS.Stat(dest)
	if err != nil {
		f.errorf("%s: %s: %s", who, target, builtins.ErrText(err))
		return "", false, 1
	}
	if !fi.IsDir() {
		f.errorf("%s: %s: Not a directory", who, target)
		return "", false, 1
	}
	if physical {
		if p, err := f.call.sh.FS.Resolve(dest, true); err == nil {
			dest = p
		}
	}
	f.oldDir = f.dir
	f.dir = dest
	f.assignScalar("OLDPWD", f.oldDir)
	f.assignScalar("PWD", dest)
	return dest, via, 0
}

// dirStackAll is the whole stack, entry 0 first.
func (f *frame) dirStackAll() []string {
	return append([]string{f.dir}, f.dirStack...)
}

// tildeDir abbreviates HOME as bash's dirs does without -l.
func (f *frame) tildeDir(d string) string {
	home, _ := f.getVar("HOME")
	if home != "" && home != "/" && (d == home || strings.HasPrefix(d, home+"/")) {
		return "~" + d[len(home):]
	}
	return d
}

// stackIndex turns +N / -N into an index of a stack of n entries.
func stackIndex(arg string, n int) (int, bool, bool) {
	if len(arg) < 2 || (arg[0] != '+' && arg[0] != '-') {
		return 0, false, false
	}
	k, err := strconv.Atoi(arg[1:])
	if err != nil || k < 0 {
		return 0, false, false
	}
	if arg[0] == '-' {
		k = n - 1 - k
	}
	return k, k >= 0 && k < n, true
}

const dirsUsage = "dirs: usage: dirs [-clpv] [+N] [-N]\n"

func (f *frame) biDirs(args []string) int {
	long, perLine, numbered := false, false, false
	which := ""
	for _, a := range args[1:] {
		switch {
		case a == "--":
		case len(a) > 1 && a[0] == '+' || len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			which = a
		case len(a) > 1 && a[0] == '-':
			for _, c := range a[1:] {
				switch c {
				case 'c':
					f.dirStack = nil
					return 0
				case 'l':
					long = true
				case 'p':
					perLine = true
				case 'v':
					perLine, numbered = true, true
				default:
					f.errorf("dirs: %s: invalid number", a)
					f.fds.writeString(2, dirsUsage)
					return 2
				}
			}
		default:
			f.errorf("dirs: %s: invalid number", a)
			f.fds.writeString(2, dirsUsage)
			return 2
		}
	}
	stack := f.dirStackAll()
	show := func(d string) string {
		if long {
			return d
		}
		return f.tildeDir(d)
	}
	if which != "" {
		k, ok, valid := stackIndex(which, len(stack))
		if !valid {
			f.errorf("dirs: %s: invalid number", which)
			f.fds.writeString(2, dirsUsage)
			return 2
		}
		if !ok {
			if len(f.dirStack) == 0 {
				f.errorf("dirs: directory stack empty")
			} else {
				f.errorf("dirs: %s: directory stack index out of range", strings.TrimPrefix(which, "+"))
			}
			return 1
		}
		if numbered {
			f.fds.printf(1, "%2d  %s\n", k, show(stack[k]))
		} else {
			f.fds.writeString(1, show(stack[k])+"\n")
		}
		return 0
	}
	var b strings.Builder
	for i, d := range stack {
		switch {
		case numbered:
			b.WriteString(padLeft(strconv.Itoa(i), 2) + "  " + show(d) + "\n")
		case perLine:
			b.WriteString(show(d) + "\n")
		default:
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(show(d))
		}
	}
	if !perLine {
		b.WriteByte('\n')
	}
	f.fds.writeString(1, b.String())
	return 0
}

func padLeft(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
}

// stackArgs parses pushd's and popd's [-n] [+N | -N | dir].
func (f *frame) stackArgs(who string, args []string) (noCd bool, rest []string, st int) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if a == "-n" {
			noCd, args = true, args[1:]
			continue
		}
		if len(a) > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9') {
			f.errorf("%s: %s: invalid option", who, a)
			f.fds.writeString(2, who+": usage: "+who+" [-n] [+N | -N"+map[bool]string{true: " | dir]\n", false: "]\n"}[who == "pushd"])
			return false, nil, 2
		}
		break
	}
	return noCd, args, 0
}

func (f *frame) stackRangeError(who, arg string) int {
	if len(f.dirStack) == 0 {
		f.errorf("%s: directory stack empty", who)
	} else {
		f.errorf("%s: %s: directory stack index out of range", who, arg)
	}
	return 1
}

func (f *frame) biPushd(args []string) int {
	noCd, args, st := f.stackArgs("pushd", args[1:])
	if st != 0 {
		return st
	}
	stack := f.dirStackAll()
	switch {
	case len(args) == 0:
		if len(f.dirStack) == 0 {
			f.errorf("pushd: no other directory")
			return 1
		}
		stack[0], stack[1] = stack[1], stack[0]
		if !noCd {
			if _, _, st := f.chdir("pushd", stack[0], false, false); st != 0 {
				return st
			}
		}
		f.dirStack = stack[1:]
	case len(args[0]) > 1 && (args[0][0] == '+' || args[0][0] == '-'):
		k, ok, valid := stackIndex(args[0], len(stack))
		if !valid {
			f.errorf("pushd: %s: invalid number", args[0])
			return 2
		}
		if !ok {
			return f.stackRangeError("pushd", args[0])
		}
		rot := append(append([]string(nil), stack[k:]...), stack[:k]...)
		if !noCd {
			if _, _, st := f.chdir("pushd", rot[0], false, false); st != 0 {
				return st
			}
		}
		f.dirStack = rot[1:]
	default:
		if noCd {
			f.dirStack = append([]string{args[0]}, f.dirStack...)
			break
		}
		cur := f.dir
		if _, _, st := f.chdir("pushd", args[0], f.opts.has(optPhysical), true); st != 0 {
			return st
		}
		f.dirStack = append([]string{cur}, f.dirStack...)
	}
	return f.biDirs([]string{"dirs"})
}

func (f *frame) biPopd(args []string) int {
	noCd, args, st := f.stackArgs("popd", args[1:])
	if st != 0 {
		return st
	}
	stack := f.dirStackAll()
	k := 0
	if noCd {
		k = 1
	}
	if len(args) > 0 {
		var ok, valid bool
		k, ok, valid = stackIndex(args[0], len(stack))
		if !valid {
			f.errorf("popd: %s: invalid argument", args[0])
			f.fds.writeString(2, "popd: usage: popd [-n] [+N | -N]\n")
			return 2
		}
		if !ok {
			return f.stackRangeError("popd", args[0])
		}
	}
	if len(f.dirStack) == 0 {
		f.errorf("popd: directory stack empty")
		return 1
	}
	if k == 0 {
		if !noCd {
			if _, _, st := f.chdir("popd", stack[1], false, false); st != 0 {
				return st
			}
		}
		stack = stack[1:]
		if noCd {
			stack[0] = f.dir
		}
		f.dirStack = append([]string(nil), stack[1:]...)
	} else {
		f.dirStack = append(append([]string(nil), stack[1:k]...), stack[k+1:]...)
	}
	return f.biDirs([]string{"dirs"})
}

// biUmask prints or sets the file creation mask, in octal or in chmod's
// symbolic form (which names the permissions left, not the mask).
func (f *frame) biUmask(args []string) int {
	symbolic, reusable := false, false
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if strings.Trim(a[1:], "Sp") != "" {
			f.errorf("umask: %s: invalid option", a[:2])
			f.fds.writeString(2, "umask: usage: umask [-p] [-S] [mode]\n")
			return 2
		}
		symbolic = symbolic || strings.Contains(a, "S")
		reusable = reusable || strings.Contains(a, "p")
		args = args[1:]
	}
	if len(args) == 0 {
		m := f.umask
		out := ""
		if symbolic {
			perm := func(shift uint) string {
				bits := (^m >> shift) & 7
				s := ""
				for i, c := range "rwx" {
					if bits&(4>>i) != 0 {
						s += string(c)
					}
				}
				return s
			}
			out = "u=" + perm(6) + ",g=" + perm(3) + ",o=" + perm(0) + "\n"
			if reusable {
				out = "umask -S " + out
			}
		} else {
			out = "0" + strconv.FormatUint(uint64(m), 8)
			for len(out) < 4 {
				out = "0" + out
			}
			if reusable {
				out = "umask " + out
			}
			out += "\n"
		}
		f.fds.writeString(1, out)
		return 0
	}
	if c := args[0][0]; c >= '0' && c <= '9' {
		n, err := strconv.ParseUint(args[0], 8, 32)
		if err != nil || n > 0o777 {
			f.errorf("umask: %s: octal number out of range", args[0])
			return 1
		}
		f.umask = uint32(n)
		return 0
	}
	perms, ok := f.symbolicPerms(args[0], ^f.umask&0o777)
	if !ok {
		return 1
	}
	f.umask = ^perms & 0o777
	return 0
}

// symbolicPerms applies a symbolic mode ("u=rwx,g+w,o-x") to perms, as
// umask reads it: no who means all of u, g and o.
func (f *frame) symbolicPerms(mode string, perms uint32) (uint32, bool) {
	for _, clause := range strings.Split(mode, ",") {
		i := 0
		var who uint32
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			who |= map[byte]uint32{'u': 0o700, 'g': 0o070, 'o': 0o007, 'a': 0o777}[clause[i]]
		}
		if who == 0 {
			who = 0o777
		}
		if i >= len(clause) || strings.IndexByte("+-=", clause[i]) < 0 {
			c := byte(0)
			if i < len(clause) {
				c = clause[i]
			}
			f.errorf("umask: `%c': invalid symbolic mode operator", c)
			return 0, false
		}
		for i < len(clause) && strings.IndexByte("+-=", clause[i]) >= 0 {
			op := clause[i]
			i++
			var bits uint32
			for ; i < len(clause) && strings.IndexByte("+-=", clause[i]) < 0; i++ {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x':
					bits |= 0o111
				default:
					f.errorf("umask: `%c': invalid symbolic mode character", clause[i])
					return 0, false
				}
			}
			bits &= who
			switch op {
			case '+':
				perms |= bits
			case '-':
				perms &^= bits
			case '=':
				perms = perms&^who | bits
			}
		}
	}
	return perms, true
}
