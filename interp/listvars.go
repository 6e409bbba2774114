package interp

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// The interpreter prints nothing for the builtins that list variables
// (set, declare, typeset, export and readonly without names). Scripts use
// them to inspect their environment, so the shell answers them: set and a
// bare declare in bash's NAME=value form, the -p forms by handing the
// interpreter's own declare -p every matching name. The rewriter turns
// such declarations into a call of cmdListVars (the interpreter evaluates
// declarations itself, without the call handler).

// listingFlags reports whether args (after the builtin's name) are only
// the flags a listing takes, and returns them joined.
func listingFlags(args []string) (string, bool) {
	var flags strings.Builder
	for _, o := range args {
		if len(o) < 2 || o[0] != '-' || strings.Trim(o[1:], "pxraA") != "" {
			return "", false
		}
		flags.WriteString(o[1:])
	}
	return flags.String(), true
}

// listVariables answers a listing: args are the builtin and its flags.
func listVariables(env expand.Environ, args []string) []string {
	name := args[0]
	flags, _ := listingFlags(args[1:])
	switch name {
	case "set":
		return []string{"printf", "%s", assignmentList(env)}
	case "export":
		flags += "x"
	case "readonly":
		flags += "r"
	default: // declare, typeset
		if flags == "" {
			return []string{"printf", "%s", assignmentList(env)}
		}
	}
	names := variableNames(env, func(vr expand.Variable) bool {
		return (!strings.Contains(flags, "x") || vr.Exported) &&
			(!strings.Contains(flags, "r") || vr.ReadOnly) &&
			(!strings.Contains(flags, "a") || vr.Kind == expand.Indexed) &&
			(!strings.Contains(flags, "A") || vr.Kind == expand.Associative)
	})
	if len(names) == 0 {
		return []string{":"}
	}
	return []string{"eval", "declare -p " + strings.Join(names, " ")}
}

// variableNames lists the set variables that keep returns true for, in
// byte order, leaving out the sandbox's own.
func variableNames(env expand.Environ, keep func(expand.Variable) bool) []string {
	var names []string
	for name := range env.Each { // a name shadowed in a subshell comes twice
		names = append(names, name)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return slices.DeleteFunc(names, func(name string) bool {
		vr := env.Get(name) // the value in effect
		return !hasValue(vr) || strings.HasPrefix(name, "__bashbox") || !keep(vr)
	})
}

// hasValue reports whether bash would list vr: set, or an array with
// elements (the interpreter leaves Set false on `a[5]=x`).
func hasValue(vr expand.Variable) bool {
	return vr.IsSet() || vr.Kind == expand.Indexed && len(vr.List) > 0 || vr.Kind == expand.Associative && len(vr.Map) > 0
}

// assignmentList is what bash's set prints for the variables: one
// NAME=value line each, values quoted only when they need it.
func assignmentList(env expand.Environ) string {
	var b strings.Builder
	for _, name := range variableNames(env, func(expand.Variable) bool { return true }) {
		vr := env.Get(name)
		b.WriteString(name)
		b.WriteByte('=')
		switch vr.Kind {
		case expand.Indexed:
			b.WriteByte('(')
			for i, v := range vr.List {
				index := i
				if vr.Indexes != nil { // a sparse array
					index = vr.Indexes[i]
				}
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString("[" + strconv.Itoa(index) + "]=" + doubleQuote(v))
			}
			b.WriteByte(')')
		case expand.Associative:
			b.WriteByte('(')
			keys := make([]string, 0, len(vr.Map))
			for k := range vr.Map {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				b.WriteString("[" + k + "]=" + doubleQuote(vr.Map[k]) + " ")
			}
			b.WriteByte(')')
		default:
			b.WriteString(valueQuote(vr.String()))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// valueQuote quotes a value as bash's set shows it: $'...' when it holds
// control characters, '...' when it holds shell metacharacters, else as is.
func valueQuote(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return ansiQuote(s)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case strings.IndexByte(" \t'\"\\|&;()<>!{}*[?]^$`", c) >= 0,
			c == '~' && (i == 0 || s[i-1] == '=' || s[i-1] == ':'),
			c == '#' && i == 0:
			return singleQuote(s)
		}
	}
	return s
}

// doubleQuote quotes an array element as bash prints it.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\"\\$`", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}
