package interp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/internal/lazy"
)

// How the shell describes and finds commands: type, command, builtin,
// hash, enable and help.

// cmdMatch is one thing a command name can run: its kind (alias,
// keyword, function, builtin, file) and, for a file, its path.
type cmdMatch struct{ kind, path string }

// standardPath is where command -p looks: bash's default PATH.
const standardPath = "/bin:/usr/bin:/sbin:/usr/sbin"

// commandMatches lists what name can run, in bash's order of precedence;
// all asks for every file on PATH, not only the first.
func (f *frame) commandMatches(name string, noFuncs, all bool, pathVar string) []cmdMatch {
	var out []cmdMatch
	if !noFuncs {
		if a, ok := f.aliases[name]; ok && f.opts.has(optExpandAliases) {
			out = append(out, cmdMatch{"alias", a})
		}
		if shellKeywords.Get()[name] {
			out = append(out, cmdMatch{"keyword", ""})
		}
		if _, ok := f.funcs[name]; ok {
			out = append(out, cmdMatch{"function", ""})
		}
	}
	if isBuiltinName(name) && !f.disabled[name] {
		out = append(out, cmdMatch{"builtin", ""})
	}
	return append(out, f.fileMatches(name, all, pathVar)...)
}

// fileMatches finds name as a file: the path itself when it has a
// slash, else on PATH (the first, or all).
func (f *frame) fileMatches(name string, all bool, pathVar string) []cmdMatch {
	if strings.Contains(name, "/") {
		if fi, err := f.call.sh.FS.Stat(f.absPath(name)); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return []cmdMatch{{"file", name}}
		}
		return nil
	}
	if pathVar == "" {
		pathVar, _ = f.getVar("PATH")
	}
	var out []cmdMatch
	for _, dir := range strings.Split(pathVar, ":") {
		if dir == "" {
			dir = "."
		}
		if p, ok := f.call.sh.lookPath(dir, f.dir, name); ok {
			out = append(out, cmdMatch{"file", p})
			if !all {
				break
			}
		}
	}
	return out
}

// commandKind says what runs for name: its first match, or "".
func (f *frame) commandKind(name string, useFuncs bool) (string, string) {
	m := f.commandMatches(name, !useFuncs, false, "")
	if len(m) == 0 {
		return "", ""
	}
	return m[0].kind, m[0].path
}

func (f *frame) biType(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "type", "afptP", "type: usage: type [-afptP] name [name ...]\n")
	if !ok {
		return 2
	}
	all, noFuncs, pathOnly, forcePath, kindOnly := fl.has('a'), fl.has('f'), fl.has('p'), fl.has('P'), fl.has('t')
	status := 0
	for _, n := range args {
		var ms []cmdMatch
		if forcePath {
			ms = f.fileMatches(n, all, "")
			if !all {
				if p, ok := f.hashedPath(n); ok {
					ms = []cmdMatch{{"file", p}}
				}
			}
		} else {
			ms = f.commandMatches(n, noFuncs, all, "")
		}
		if len(ms) == 0 {
			status = 1
			if !kindOnly && !pathOnly && !forcePath {
				f.errorf("type: %s: not found", n)
			}
			continue
		}
		if !all {
			ms = ms[:1]
		}
		for _, m := range ms {
			switch {
			case kindOnly:
				f.fds.writeString(1, m.kind+"\n")
			case pathOnly || forcePath:
				if m.kind == "file" {
					f.fds.writeString(1, m.path+"\n")
				}
			default:
				f.fds.writeString(1, f.describe(n, m, !all))
			}
		}
	}
	return status
}

// describe is type's sentence for one match; hashed files say so unless
// every match is listed.
func (f *frame) describe(n string, m cmdMatch, showHash bool) string {
	switch m.kind {
	case "alias":
		return fmt.Sprintf("%s is aliased to `%s'\n", n, m.path)
	case "keyword":
		return n + " is a shell keyword\n"
	case "function":
		return n + " is a function\n" + f.funcString(n) + "\n"
	case "builtin":
		return n + " is a shell builtin\n"
	}
	if _, hashed := f.hashTab[n]; hashed && showHash {
		p := m.path
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "./") {
			p = "./" + p // bash shows a relative PATH entry's hash so
		}
		return n + " is hashed (" + p + ")\n"
	}
	return n + " is " + m.path + "\n"
}

func (f *frame) biCommand(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "command", "pvV", "command: usage: command [-pVv] command [arg ...]\n")
	if !ok {
		return 2
	}
	std, short, verbose := fl.has('p'), fl.has('v'), fl.has('V')
	if len(args) == 0 {
		return 0
	}
	pathVar := ""
	if std {
		pathVar = standardPath
	}
	if short || verbose {
		status := 0
		for _, n := range args {
			ms := f.commandMatches(n, false, false, pathVar)
			if len(ms) == 0 {
				if verbose {
					f.errorf("command: %s: not found", n)
				}
				status = 1
				continue
			}
			m := ms[0]
			if verbose {
				f.fds.writeString(1, f.describe(n, m, !std))
				continue
			}
			switch m.kind {
			case "file":
				f.fds.writeString(1, m.path+"\n")
			case "alias":
				f.fds.writeString(1, "alias "+n+"="+singleQuote(m.path)+"\n")
			default:
				f.fds.writeString(1, n+"\n")
			}
		}
		return status
	}
	// command NAME: skip functions
	if bi, ok := nativeBuiltins[args[0]]; ok && !f.disabled[args[0]] {
		return bi(f, args)
	}
	if std {
		// the command is looked up on bash's default path
		tmp := &scope{vars: map[string]*variable{"PATH": {str: standardPath}}}
		return f.external(args, tmp)
	}
	return f.external(args, nil)
}

func (f *frame) biBuiltin(args []string) int {
	if len(args) < 2 {
		return 0
	}
	bi, ok := nativeBuiltins[args[1]]
	if !ok || f.disabled[args[1]] {
		f.errorf("builtin: %s: not a shell builtin", args[1])
		return 1
	}
	return bi(f, args[1:])
}

// hashEntry is a remembered command: its path (found when first needed)
// and how often it ran.
type hashEntry struct {
	path string
	hits int
}

// hashHit counts a run of a command found on PATH.
func (f *frame) hashHit(name string) {
	e := f.hashTab[name]
	e.hits++
	if f.hashTab == nil {
		f.hashTab, f.hashShared = map[string]hashEntry{}, false
	}
	cowSet(&f.hashTab, &f.hashShared, name, e, false)
}

// hashedPath is where the hash table says name is, if it remembers it
// and the command exists.
func (f *frame) hashedPath(name string) (string, bool) {
	e, ok := f.hashTab[name]
	if !ok {
		return "", false
	}
	if e.path != "" {
		return e.path, true
	}
	ms := f.fileMatches(name, false, "")
	if len(ms) == 0 {
		return "", false
	}
	return ms[0].path, true
}

func (f *frame) biHash(args []string) int {
	args = args[1:]
	var del, list, show, cleared bool
	setPath := ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case 'r':
				f.hashTab, f.hashShared, cleared = nil, false, true
			case 'd':
				del = true
			case 'l':
				list = true
			case 't':
				show = true
			case 'p':
				if i+1 < len(a) {
					setPath, i = a[i+1:], len(a)
				} else if len(args) > 0 {
					setPath, args = args[0], args[1:]
				} else {
					f.errorf("hash: -p: option requires an argument")
					f.fds.writeString(2, "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n")
					return 2
				}
			default:
				f.errorf("hash: -%c: invalid option", a[i])
				f.fds.writeString(2, "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n")
				return 2
			}
		}
	}
	if len(args) == 0 {
		if cleared {
			return 0
		}
		if del || show {
			f.errorf("hash: -%s: option requires an argument", map[bool]string{true: "d", false: "t"}[del])
			return 1
		}
		return f.listHash(list)
	}
	status := 0
	for _, n := range args {
		switch {
		case setPath != "":
			if f.hashTab == nil {
				f.hashTab, f.hashShared = map[string]hashEntry{}, false
			}
			cowSet(&f.hashTab, &f.hashShared, n, hashEntry{path: setPath}, false)
		case del:
			if _, ok := f.hashTab[n]; !ok {
				f.errorf("hash: %s: not found", n)
				status = 1
				continue
			}
			cowSet(&f.hashTab, &f.hashShared, n, hashEntry{}, true)
		case show:
			p, ok := f.hashedPath(n)
			if !ok {
				f.errorf("hash: %s: not found", n)
				status = 1
				continue
			}
			if list {
				f.fds.writeString(1, "builtin hash -p "+p+" "+n+"\n")
			} else if len(args) > 1 {
				f.fds.writeString(1, n+"\t"+p+"\n")
			} else {
				f.fds.writeString(1, p+"\n")
			}
		default:
			if strings.Contains(n, "/") || isBuiltinName(n) && !f.disabled[n] {
				continue
			}
			ms := f.fileMatches(n, false, "")
			if len(ms) == 0 {
				f.errorf("hash: %s: not found", n)
				status = 1
				continue
			}
			if f.hashTab == nil {
				f.hashTab, f.hashShared = map[string]hashEntry{}, false
			}
			cowSet(&f.hashTab, &f.hashShared, n, hashEntry{path: ms[0].path}, false)
		}
	}
	return status
}

// listHash prints the table as bash does (hits and path, or -l's
// reusable commands).
func (f *frame) listHash(reusable bool) int {
	names := make([]string, 0, len(f.hashTab))
	for n := range f.hashTab {
		if _, ok := f.hashedPath(n); ok {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		if !reusable {
			f.fds.writeString(1, "hash: hash table empty\n")
		}
		return 0
	}
	sort.Strings(names)
	var b strings.Builder
	if !reusable {
		b.WriteString("hits\tcommand\n")
	}
	for _, n := range names {
		p, _ := f.hashedPath(n)
		if reusable {
			b.WriteString("builtin hash -p " + p + " " + n + "\n")
		} else {
			fmt.Fprintf(&b, "%4d\t%s\n", f.hashTab[n].hits, p)
		}
	}
	f.fds.writeString(1, b.String())
	return 0
}

// biEnable turns builtins off and on (-n); loading new ones (-f) is not
// possible in the sandbox.
func (f *frame) biEnable(args []string) int {
	args = args[1:]
	var off, all, special bool
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case 'n':
				off = true
			case 'a':
				all = true
			case 'p':
			case 's':
				special = true
			case 'f', 'd':
				name := ""
				if len(args) > 0 {
					name = args[0]
				}
				f.errorf("enable: cannot open shared object %s: dynamic loading is not available in the sandbox", name)
				return 1
			default:
				f.errorf("enable: -%c: invalid option", a[i])
				f.fds.writeString(2, "enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n")
				return 2
			}
		}
	}
	if len(args) == 0 {
		var b strings.Builder
		for _, n := range builtinNames() {
			if special && !specialBuiltins.Get()[n] {
				continue
			}
			dis := f.disabled[n]
			switch {
			case all && dis:
				b.WriteString("enable -n " + n + "\n")
			case all || dis == off:
				if dis {
					b.WriteString("enable -n " + n + "\n")
				} else {
					b.WriteString("enable " + n + "\n")
				}
			}
		}
		f.fds.writeString(1, b.String())
		return 0
	}
	status := 0
	next := map[string]bool{}
	for n, v := range f.disabled {
		next[n] = v
	}
	for _, n := range args {
		if !isBuiltinName(n) {
			f.errorf("enable: %s: not a shell builtin", n)
			status = 1
			continue
		}
		if off {
			next[n] = true
		} else {
			delete(next, n)
		}
	}
	f.disabled = next
	return status
}

// specialBuiltins are POSIX's special builtins (enable -s).
var specialBuiltins = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		".": true, ":": true, "break": true, "continue": true, "eval": true, "exec": true, "exit": true,
		"export": true, "readonly": true, "return": true, "set": true, "shift": true, "source": true,
		"times": true, "trap": true, "unset": true,
	}
}}

// builtinNames lists the builtins in bash's table order (C byte order).
func builtinNames() []string {
	names := make([]string, 0, len(nativeBuiltins))
	for n := range nativeBuiltins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

type helpTopic struct{ name, synopsis, short string }

const helpHeader = `GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)
These shell commands are defined internally.  Type ` + "`help'" + ` to see this list.
Type ` + "`help name'" + ` to find out more about the function ` + "`name'" + `.
Use ` + "`info bash'" + ` to find out more about the shell in general.
Use ` + "`man -k'" + ` or ` + "`info'" + ` to find out more about commands not in this list.

A star (*) next to a name means that the command is disabled.

`

// biHelp prints bash's help: the two-column list, and per topic the
// synopsis (-s), the short description (-d) or both.
func (f *frame) biHelp(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "help", "dsm", "help: usage: help [-dms] [pattern ...]\n")
	if !ok {
		return 2
	}
	short, syn := fl.has('d'), fl.has('s')
	var b strings.Builder
	if len(args) == 0 {
		b.WriteString(helpHeader)
		h := (len(helpTopics) + 1) / 2
		col := func(t helpTopic, width int) string {
			s := t.synopsis
			if len(s) >= width {
				s = s[:width] + ">"
			}
			flag := " "
			if f.disabled[t.name] {
				flag = "*"
			}
			return flag + s
		}
		for i := 0; i < h; i++ {
			left := col(helpTopics[i], 37)
			if 2*i >= len(helpTopics) || i+h >= len(helpTopics) {
				b.WriteString(left + "\n")
				continue
			}
			b.WriteString(left + strings.Repeat(" ", 40-len(left)) + col(helpTopics[i+h], 36) + "\n")
		}
		f.fds.writeString(1, b.String())
		return 0
	}
	for _, pat := range args {
		if strings.ContainsAny(pat, "*?[") {
			b.WriteString("Shell commands matching keyword" + map[bool]string{true: "s", false: ""}[len(args) > 1] + " `" + strings.Join(args, ", ") + "'\n\n")
			break
		}
	}
	status := 0
	for _, pat := range args {
		found, exact := false, false
		for _, t := range helpTopics {
			exact = exact || t.name == pat
		}
		for _, t := range helpTopics {
			if exact && t.name != pat || !strings.HasPrefix(t.name, pat) && !f.matchPattern(pat, t.name, false) {
				continue
			}
			found = true
			switch {
			case short:
				b.WriteString(t.name + " - " + t.short + "\n")
			case syn:
				b.WriteString(t.name + ": " + t.synopsis + "\n")
			default:
				// The long texts are not carried: the synopsis and the
				// summary, as bash's help starts.
				b.WriteString(t.name + ": " + t.synopsis + "\n    " + t.short + "\n")
			}
		}
		if !found {
			f.fds.writeString(1, b.String())
			b.Reset()
			f.errorf("help: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", pat, pat, pat)
			status = 1
		}
	}
	f.fds.writeString(1, b.String())
	return status
}
