package interp

import (
	"fmt"
	"strings"
)

// options are the set -o and shopt options of a frame, as bits.
type options uint64

const (
	optErrexit options = 1 << iota
	optNounset
	optXtrace
	optPipefail
	optNoclobber
	optNoglob
	optAllexport
	optNoexec
	optVerbose
	optPosix
	optHashall
	optBraceexpand
	optInteractiveComments
	optMonitor
	optNotify
	optOnecmd
	optPhysical
	optHistexpand
	optErrtrace
	optFunctrace
	optKeyword
	optNolog
	optIgnoreeof
	optPrivileged
	// shopt
	optExtglob
	optNullglob
	optFailglob
	optDotglob
	optGlobstar
	optNocaseglob
	optNocasematch
	optExpandAliases
	optLastpipe
	optInheritErrexit
	optXpgEcho
	optSourcepath
	optExtquote
	optPromptvars
	optCheckwinsize
	optCmdhist
	optComplete
	optProgcomp
	optInteractive
	optForceFignore
	optGlobasciiranges
	optPatsubRepl
	optLocalvarInherit
	optLocalvarUnset
	optShiftVerbose
	optNoexpandTranslation
	optCdablevars
	optAutocd
	optCdspell
	optCheckhash
	optCheckjobs
	optDirspell
	optDotglobSkip
	optExecfail
	optExtdebug
	optGnuErrfmt
	optHuponexit
	optHostcomplete
)

// setOptions lists set -o options in bash's listing order, with their
// single-letter flag (0 for none).
var setOptions = []struct {
	name string
	flag byte
	bit  options
}{
	{"allexport", 'a', optAllexport}, {"braceexpand", 'B', optBraceexpand}, {"emacs", 0, 0},
	{"errexit", 'e', optErrexit}, {"errtrace", 'E', optErrtrace}, {"functrace", 'T', optFunctrace},
	{"hashall", 'h', optHashall}, {"histexpand", 'H', optHistexpand}, {"history", 0, 0},
	{"ignoreeof", 0, optIgnoreeof}, {"interactive-comments", 0, optInteractiveComments},
	{"keyword", 'k', optKeyword}, {"monitor", 'm', optMonitor}, {"noclobber", 'C', optNoclobber},
	{"noexec", 'n', optNoexec}, {"noglob", 'f', optNoglob}, {"nolog", 0, optNolog},
	{"notify", 'b', optNotify}, {"nounset", 'u', optNounset}, {"onecmd", 't', optOnecmd},
	{"physical", 'P', optPhysical}, {"pipefail", 0, optPipefail}, {"posix", 0, optPosix},
	{"privileged", 'p', optPrivileged}, {"verbose", 'v', optVerbose}, {"vi", 0, 0},
	{"xtrace", 'x', optXtrace},
}

// shoptOptions lists shopt options in bash's listing order.
var shoptOptions = []struct {
	name string
	bit  options
}{
	{"autocd", optAutocd}, {"assoc_expand_once", 0}, {"cdable_vars", optCdablevars}, {"cdspell", optCdspell},
	{"checkhash", optCheckhash}, {"checkjobs", optCheckjobs}, {"checkwinsize", optCheckwinsize},
	{"cmdhist", optCmdhist}, {"compat31", 0}, {"compat32", 0}, {"compat40", 0}, {"compat41", 0},
	{"compat42", 0}, {"compat43", 0}, {"compat44", 0}, {"complete_fullquote", optComplete},
	{"direxpand", 0}, {"dirspell", optDirspell}, {"dotglob", optDotglob}, {"execfail", optExecfail},
	{"expand_aliases", optExpandAliases}, {"extdebug", optExtdebug}, {"extglob", optExtglob},
	{"extquote", optExtquote}, {"failglob", optFailglob}, {"force_fignore", optForceFignore},
	{"globasciiranges", optGlobasciiranges}, {"globskipdots", optDotglobSkip}, {"globstar", optGlobstar},
	{"gnu_errfmt", optGnuErrfmt}, {"histappend", 0}, {"histreedit", 0}, {"histverify", 0},
	{"hostcomplete", optHostcomplete}, {"huponexit", optHuponexit}, {"inherit_errexit", optInheritErrexit},
	{"interactive_comments", optInteractiveComments}, {"lastpipe", optLastpipe}, {"lithist", 0},
	{"localvar_inherit", optLocalvarInherit}, {"localvar_unset", optLocalvarUnset},
	{"login_shell", 0}, {"mailwarn", 0}, {"no_empty_cmd_completion", 0}, {"nocaseglob", optNocaseglob},
	{"nocasematch", optNocasematch}, {"noexpand_translation", optNoexpandTranslation},
	{"nullglob", optNullglob}, {"patsub_replacement", optPatsubRepl}, {"progcomp", optProgcomp},
	{"progcomp_alias", 0}, {"promptvars", optPromptvars}, {"restricted_shell", 0},
	{"shift_verbose", optShiftVerbose}, {"sourcepath", optSourcepath}, {"varredir_close", 0},
	{"xpg_echo", optXpgEcho},
}

// defaultOptions are a non-interactive bash's.
const defaultOptions = optBraceexpand | optHashall | optInteractiveComments | optCheckwinsize |
	optCmdhist | optComplete | optExtquote | optForceFignore | optGlobasciiranges | optDotglobSkip |
	optPatsubRepl | optProgcomp | optPromptvars | optSourcepath | optHostcomplete

func (o options) has(b options) bool { return o&b != 0 }

func (o *options) put(b options, on bool) {
	if on {
		*o |= b
	} else {
		*o &^= b
	}
}

// flags is $-.
func (o options) flags() string {
	var b strings.Builder
	for _, c := range "abefhkmnptuvxBCEHPT" {
		for _, so := range setOptions {
			if so.flag == byte(c) && so.bit != 0 && o.has(so.bit) {
				b.WriteRune(c)
			}
		}
	}
	b.WriteString("c") // -c scripts
	return sortFlags(b.String())
}

// sortFlags orders $- as bash does: its flag table order.
func sortFlags(s string) string {
	const order = "abefhkmnptuvxBCEHPTc"
	var b strings.Builder
	for _, c := range order {
		if strings.ContainsRune(s, c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func setOptionByName(name string) (options, bool) {
	for _, so := range setOptions {
		if so.name == name {
			return so.bit, true
		}
	}
	return 0, false
}

func shoptByName(name string) (options, bool) {
	for _, so := range shoptOptions {
		if so.name == name {
			return so.bit, true
		}
	}
	return 0, false
}

// runSet implements set's option part; it returns the remaining
// positional arguments and whether they were given.
func (f *frame) setFlags(args []string) (params []string, setParams bool, status int) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:], true, 0
		}
		if a == "-" {
			f.opts.put(optXtrace|optVerbose, false)
			return args[1:], len(args) > 1, 0
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			return args, true, 0
		}
		on := a[0] == '-'
		args = args[1:]
		for _, c := range a[1:] {
			if c == 'o' {
				// -o takes the next argument, also inside -eo
				if len(args) == 0 {
					f.listSetOptions(on)
					continue
				}
				bit, ok := setOptionByName(args[0])
				if !ok {
					f.errorf("set: %s: invalid option name", args[0])
					return nil, false, 2
				}
				if args[0] == "emacs" || args[0] == "vi" {
					// the line-editing mode: one of them, or neither
					if on {
						f.editMode = args[0]
					} else if f.editMode == args[0] {
						f.editMode = ""
					}
				}
				f.opts.put(bit, on)
				args = args[1:]
				continue
			}
			found := false
			for _, so := range setOptions {
				if so.flag == byte(c) {
					f.opts.put(so.bit, on)
					found = true
				}
			}
			if !found {
				f.errorf("set: %c%c: invalid option", a[0], c)
				f.fds.printf(2, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
				return nil, false, 2
			}
		}
	}
	return nil, false, 0
}

func (f *frame) listSetOptions(minus bool) {
	var b strings.Builder
	for _, so := range setOptions {
		on := so.bit != 0 && f.opts.has(so.bit)
		switch so.name {
		case "emacs", "vi":
			on = f.editMode == so.name
		case "history":
			on = false
		}
		if minus {
			state := "off"
			if on {
				state = "on"
			}
			fmt.Fprintf(&b, "%-15s\t%s\n", so.name, state)
		} else {
			sign := "+"
			if on {
				sign = "-"
			}
			fmt.Fprintf(&b, "set %so %s\n", sign, so.name)
		}
	}
	f.fds.writeString(1, b.String())
}
