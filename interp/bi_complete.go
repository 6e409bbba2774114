package interp

import (
	"path"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// Programmable completion without a terminal: compgen generates the
// words a specification names, complete stores and lists
// specifications, compopt answers as outside a completion function.

// compSpec is one completion specification (complete's and compgen's
// options).
type compSpec struct {
	opts                      []string // -o
	actions                   []string // action names, in the order given
	glob, words, prefix       string
	suffix, filter, command   string
	funcName                  string
	hasGlob, hasWords, hasFun bool
}

// compActions maps the one-letter options to action names.
var compActions = lazy.Value[map[byte]string]{New: func() map[byte]string {
	return map[byte]string{
		'a': "alias", 'b': "builtin", 'c': "command", 'd': "directory", 'e': "export", 'f': "file",
		'g': "group", 'j': "job", 'k': "keyword", 's': "service", 'u': "user", 'v': "variable",
	}
}}

var compActionNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"alias": true, "arrayvar": true, "binding": true, "builtin": true, "command": true, "directory": true,
		"disabled": true, "enabled": true, "export": true, "file": true, "function": true, "group": true,
		"helptopic": true, "hostname": true, "job": true, "keyword": true, "running": true, "service": true,
		"setopt": true, "shopt": true, "signal": true, "stopped": true, "user": true, "variable": true,
	}
}}

var compOptNames = []string{"bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs"}

const (
	compgenUsage  = "compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]\n"
	completeUsage = "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]\n"
)

// parseCompSpec reads the options compgen and complete share; extra are
// the letters only the caller takes (complete's p, r, D, E, I). It
// returns the spec, the extra letters seen, the operands, and a status
// (non-zero: an error was printed).
func (f *frame) parseCompSpec(who, usage, extra string, args []string) (compSpec, string, []string, int) {
	var cs compSpec
	seen := ""
	bad := func(format string, a ...any) (compSpec, string, []string, int) {
		f.errorf(who+": "+format, a...)
		f.fds.writeString(2, usage)
		return cs, seen, nil, 2
	}
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			c := a[i]
			if act, ok := compActions.Get()[c]; ok {
				cs.actions = append(cs.actions, act)
				continue
			}
			if strings.IndexByte(extra, c) >= 0 {
				seen += string(c)
				continue
			}
			if strings.IndexByte("oAGWFCXPS", c) < 0 {
				return bad("-%c: invalid option", c)
			}
			val := a[i+1:]
			if val == "" {
				if len(args) == 0 {
					return bad("-%c: option requires an argument", c)
				}
				val, args = args[0], args[1:]
			}
			i = len(a)
			switch c {
			case 'o':
				known := false
				for _, o := range compOptNames {
					known = known || o == val
				}
				if !known {
					f.errorf("%s: %s: invalid option name", who, val)
					return cs, seen, nil, 2
				}
				cs.opts = append(cs.opts, val)
			case 'A':
				if !compActionNames.Get()[val] {
					f.errorf("%s: %s: invalid action name", who, val)
					return cs, seen, nil, 2
				}
				cs.actions = append(cs.actions, val)
			case 'G':
				cs.glob, cs.hasGlob = val, true
			case 'W':
				cs.words, cs.hasWords = val, true
			case 'F':
				cs.funcName, cs.hasFun = val, true
			case 'C':
				cs.command = val
			case 'X':
				cs.filter = val
			case 'P':
				cs.prefix = val
			case 'S':
				cs.suffix = val
			}
		}
	}
	return cs, seen, args, 0
}

func (f *frame) biCompgen(args []string) int {
	cs, _, rest, st := f.parseCompSpec("compgen", compgenUsage, "", args[1:])
	if st != 0 {
		return st
	}
	word := ""
	if len(rest) > 0 {
		word = rest[0]
	}
	out := f.generate(cs, word)
	if len(out) == 0 {
		return 1
	}
	var b strings.Builder
	for _, w := range out {
		b.WriteString(w + "\n")
	}
	f.fds.writeString(1, b.String())
	return 0
}

// generate lists what cs completes word to: actions, then the glob, the
// word list and the function, filtered by -X, with -P and -S added.
func (f *frame) generate(cs compSpec, word string) []string {
	var out []string
	add := func(cands []string) {
		for _, c := range cands {
			if strings.HasPrefix(c, word) {
				out = append(out, c)
			}
		}
	}
	for _, act := range cs.actions {
		switch act {
		case "file", "directory":
			out = append(out, f.completeFiles(word, act == "directory")...)
		default:
			add(f.actionWords(act))
		}
	}
	if cs.hasGlob {
		if m, _ := f.glob(cs.glob); len(m) > 0 {
			out = append(out, m...)
		}
	}
	if cs.hasWords {
		add(f.wordList(cs.words))
	}
	if cs.hasFun {
		f.errorf("compgen: warning: -F option may not work as you expect")
		if body, ok := f.funcs[cs.funcName]; ok {
			f.callFunc(cs.funcName, body, []string{cs.funcName, "", word, ""})
			if v := f.lookupVar("COMPREPLY"); v != nil && v.idx != nil {
				for _, k := range v.idx.keys {
					s, _ := v.idx.get(k)
					out = append(out, s)
				}
			}
		}
	}
	if cs.filter != "" {
		pat, negate := cs.filter, false
		if strings.HasPrefix(pat, "!") {
			pat, negate = pat[1:], true
		}
		pat = strings.ReplaceAll(pat, "&", word)
		kept := out[:0]
		for _, w := range out {
			if f.matchPattern(pat, w, false) == negate {
				kept = append(kept, w)
			}
		}
		out = kept
	}
	for i, w := range out {
		out[i] = cs.prefix + w + cs.suffix
	}
	return out
}

// wordList expands -W's list as the shell would a command line's words
// (quotes, expansions, splitting), without running it.
func (f *frame) wordList(list string) []string {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(": "+list), "")
	if err != nil || len(file.Stmts) != 1 {
		return strings.Fields(list)
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 1 {
		return strings.Fields(list)
	}
	words, ok := f.fields(call.Args[1:])
	if !ok {
		return nil
	}
	return words
}

// completeFiles lists the entries of word's directory starting with its
// last part, as readline's filename completion does.
func (f *frame) completeFiles(word string, dirsOnly bool) []string {
	dir, base := path.Split(word)
	ents, err := f.call.sh.FS.ReadDir(f.absPath(strings.TrimSuffix(dir, "/") + map[bool]string{true: ".", false: ""}[dir == ""]))
	if err != nil {
		return nil
	}
	var names []string
	if base != "" {
		names = append(names, ".", "..")
	}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	var out []string
	for _, n := range names {
		if !strings.HasPrefix(n, base) {
			continue
		}
		if dirsOnly {
			fi, err := f.call.sh.FS.Stat(f.absPath(dir + n))
			if err != nil || !fi.IsDir() {
				continue
			}
		}
		out = append(out, dir+n)
	}
	sort.Strings(out)
	return out
}

// actionWords lists the candidates of a named action.
func (f *frame) actionWords(act string) []string {
	var out []string
	switch act {
	case "alias":
		for n := range f.aliases {
			out = append(out, n)
		}
	case "builtin", "enabled", "disabled":
		for _, n := range builtinNames() {
			if act == "builtin" || f.disabled[n] == (act == "disabled") {
				out = append(out, n)
			}
		}
		return out
	case "keyword":
		for n := range shellKeywords.Get() {
			out = append(out, n)
		}
	case "function":
		for n := range f.funcs {
			out = append(out, n)
		}
	case "variable":
		return f.varNames("")
	case "export", "arrayvar":
		for _, n := range f.varNames("") {
			v := f.lookupVar(n)
			if v != nil && (act == "export" && v.attrs&attrExport != 0 || act == "arrayvar" && v.isArray()) {
				out = append(out, n)
			}
		}
		return out
	case "command":
		out = append(out, f.actionWords("alias")...)
		out = append(out, builtinNames()...)
		out = append(out, f.actionWords("function")...)
		out = append(out, f.actionWords("keyword")...)
		out = append(out, f.call.sh.Registry.Names()...)
	case "user":
		user, _ := f.getVar("USER")
		if user == "" {
			user = "user"
		}
		out = []string{"root", user}
	case "group":
		out = []string{"root", "user"}
	case "setopt":
		for _, o := range setOptions {
			out = append(out, o.name)
		}
		return out
	case "shopt":
		for _, o := range shoptOptions {
			out = append(out, o.name)
		}
		return out
	case "signal":
		for _, s := range signalNames.Get() {
			if s != "EXIT" {
				out = append(out, "SIG"+s)
			}
		}
	case "helptopic":
		for _, t := range helpTopics {
			out = append(out, t.name)
		}
		return out
	case "job", "running", "stopped", "hostname", "service", "binding":
		return nil
	}
	sort.Strings(out)
	return out
}

// compLine is how complete -p prints a specification.
func compLine(cs compSpec) string {
	var b strings.Builder
	b.WriteString("complete ")
	for _, o := range compOptNames {
		for _, have := range cs.opts {
			if have == o {
				b.WriteString("-o " + o + " ")
				break
			}
		}
	}
	has := func(act string) bool {
		for _, a := range cs.actions {
			if a == act {
				return true
			}
		}
		return false
	}
	for _, c := range "abcdefgjksuv" {
		if has(compActions.Get()[byte(c)]) {
			b.WriteString("-" + string(c) + " ")
		}
	}
	for _, act := range []string{"arrayvar", "binding", "disabled", "enabled", "function", "helptopic", "hostname", "running", "setopt", "shopt", "signal", "stopped"} {
		if has(act) {
			b.WriteString("-A " + act + " ")
		}
	}
	for _, a := range []struct{ flag, val string }{{"-G", cs.glob}, {"-W", cs.words}, {"-P", cs.prefix}, {"-S", cs.suffix}, {"-X", cs.filter}, {"-C", cs.command}} {
		if a.val != "" || a.flag == "-G" && cs.hasGlob || a.flag == "-W" && cs.hasWords {
			b.WriteString(a.flag + " " + singleQuote(a.val) + " ")
		}
	}
	if cs.hasFun {
		b.WriteString("-F " + cs.funcName + " ")
	}
	return b.String()
}

func (f *frame) biComplete(args []string) int {
	cs, extra, names, st := f.parseCompSpec("complete", completeUsage, "prDEI", args[1:])
	if st != 0 {
		return st
	}
	for _, c := range "DEI" {
		if strings.ContainsRune(extra, c) {
			names = append(names, "-"+string(c))
		}
	}
	print := strings.Contains(extra, "p") || len(args) == 1 || len(names) == 0 && !strings.Contains(extra, "r")
	status := 0
	switch {
	case strings.Contains(extra, "r"):
		if len(names) == 0 {
			f.compSpecs = nil
			return 0
		}
		next := map[string]string{}
		for n, v := range f.compSpecs {
			next[n] = v
		}
		for _, n := range names {
			delete(next, n)
		}
		f.compSpecs = next
	case print:
		if len(names) == 0 {
			for n := range f.compSpecs {
				names = append(names, n)
			}
			sort.Strings(names)
		}
		var b strings.Builder
		for _, n := range names {
			line, ok := f.compSpecs[n]
			if !ok {
				f.fds.writeString(1, b.String())
				b.Reset()
				f.errorf("complete: %s: no completion specification", n)
				status = 1
				continue
			}
			b.WriteString(line + n + "\n")
		}
		f.fds.writeString(1, b.String())
	default:
		next := map[string]string{}
		for n, v := range f.compSpecs {
			next[n] = v
		}
		line := compLine(cs)
		for _, n := range names {
			next[n] = line
		}
		f.compSpecs = next
	}
	return status
}

func (f *frame) biCompopt(args []string) int {
	f.errorf("compopt: not currently executing completion function")
	return 1
}
