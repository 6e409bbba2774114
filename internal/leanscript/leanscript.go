// Package leanscript decides, from a script's syntax tree alone, whether
// running it can only ever reach commands of a reduced command table: the
// table of bashbox's lean front binary, which links the engine and the
// commands that are cheap to start, and hands every other script to the
// full binary before anything runs.
//
// The check is an allowlist and errs on the side of "no": a script passes
// only when every command word is a literal name the check can classify,
// and no construct the engine offers turns data (a variable's value, a
// file, a command's output) into code or into a command name. Rejected,
// among others: eval, source and ., trap, alias, complete/compgen, enable,
// hash, bash and sh, names with a slash (script files), non-literal or
// globbed command words, ${x@P}, single quotes inside double quotes (the
// engine expands their text), unset/read/printf -v/mapfile/getopts with a
// variable name that is not literal, declare's -n and non-literal bare
// words (both can name an array element whose subscript is expanded), and
// any mention of a variable that steers command lookup or runs prompt
// code (PATH, PS0-PS4, PROMPT_COMMAND, BASH_ENV, ENV, SHELLOPTS, BASHOPTS,
// BASH_FUNC_*). Commands that run other commands (xargs, find -exec, env,
// timeout, nice, nohup, stdbuf, exec, command, builtin) pass only when
// their options and command operand are literal and the operand passes
// in turn; split passes only without --filter.
//
// What no tree can show is a script that writes a file from data into a
// directory of PATH and then runs a command of the same name. The lean
// front's table has an entry for every command of the full table, so such
// a script runs the same code as in the full binary as long as that code
// stays within the lean commands; a command outside them ends the call
// with an internal error, never with a different result passed off as
// success.
package leanscript

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Table says what a command name is in the lean binary: Lean(name) when
// its real implementation is linked, Known(name) when the full binary has
// it (lean or not).
type Table interface {
	Lean(name string) bool
	Known(name string) bool
}

// Check returns nil when running f can only reach builtins, functions of f
// and commands for which t.Lean is true, and otherwise an error saying the
// first reason it found.
func Check(f *syntax.File, t Table) (err error) {
	defer func() {
		// A tree shape this code did not expect is a "no", not a crash
		// of the front.
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	c := &checker{t: t, funcs: map[string]bool{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			c.funcs[fd.Name.Value] = true
		}
		return true
	})
	for name := range c.funcs {
		if denied(name) || name == "bash" || name == "sh" || t.Known(name) && !t.Lean(name) {
			return fmt.Errorf("function %s shadows a command the lean table lacks", name)
		}
	}
	syntax.Walk(f, c.visit)
	return c.err
}

type checker struct {
	t     Table
	funcs map[string]bool
	err   error
}

func (c *checker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// special reports the variables that steer command lookup, hold prompt
// code the engine expands, or hold code bash runs. (The tables of this
// package are switches, not maps: a map literal is built at every start
// of the lean front.)
func special(s string) bool {
	switch s {
	case "PATH", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "BASH_ENV", "ENV",
		"SHELLOPTS", "BASHOPTS":
		return true
	}
	return false
}

// mentionsSpecial says whether a literal names a special variable, alone
// or as the target of an assignment ("PATH=/x", "PS4+=x").
func mentionsSpecial(s string) bool {
	s = strings.TrimLeft(s, "-")
	if i := strings.IndexAny(s, "+=["); i >= 0 {
		s = s[:i]
	}
	return special(s) || strings.HasPrefix(s, "BASH_FUNC_")
}

// paramOps reports the ${x@OP} transformations that only quote or describe.
func paramOps(s string) bool {
	switch s {
	case "Q", "E", "A", "K", "k", "a", "U", "u", "L":
		return true
	}
	return false
}

func (c *checker) visit(n syntax.Node) bool {
	if c.err != nil {
		return false
	}
	switch n := n.(type) {
	case *syntax.CallExpr:
		for _, as := range n.Assigns {
			c.assign(as)
		}
		if len(n.Args) > 0 {
			c.command(n.Args, true, false)
		}
	case *syntax.DeclClause:
		c.decl(n)
	case *syntax.Assign:
		c.assign(n)
	case *syntax.ParamExp:
		if n.Param != nil && mentionsSpecial(n.Param.Value) && n.Exp != nil &&
			(n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
			c.fail("${%s=...} assigns a special variable", n.Param.Value)
		}
		if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
			if op, ok := literal(n.Exp.Word); !ok || !paramOps(op) {
				c.fail("${...@OP} that is not a plain transformation")
			}
		}
		if n.Flags != nil || n.NestedParam != nil {
			c.fail("zsh parameter syntax")
		}
		// $PATH reads it: its name is not a mention of the kind above.
		if n.Exp != nil && n.Exp.Word != nil {
			syntax.Walk(n.Exp.Word, c.visit)
		}
		if n.Index != nil {
			syntax.Walk(n.Index, c.visit)
		}
		if n.Slice != nil {
			if n.Slice.Offset != nil {
				syntax.Walk(n.Slice.Offset, c.visit)
			}
			if n.Slice.Length != nil {
				syntax.Walk(n.Slice.Length, c.visit)
			}
		}
		if n.Repl != nil {
			if n.Repl.Orig != nil {
				syntax.Walk(n.Repl.Orig, c.visit)
			}
			if n.Repl.With != nil {
				syntax.Walk(n.Repl.With, c.visit)
			}
		}
		return false
	case *syntax.DblQuoted:
		// Inside double quotes (say "${x:-'...'}") the engine expands the
		// text of single quotes as it expands the quotes around them.
		syntax.Walk(n, func(m syntax.Node) bool {
			if sq, ok := m.(*syntax.SglQuoted); ok && !sq.Dollar && strings.ContainsAny(sq.Value, "$`") {
				c.fail("single quotes with $ or ` inside double quotes")
			}
			return c.err == nil
		})
	case *syntax.Lit:
		if mentionsSpecial(n.Value) {
			c.fail("%s is mentioned (it steers command lookup or holds prompt code)", n.Value)
		}
	case *syntax.WordIter:
		if n.Name != nil && mentionsSpecial(n.Name.Value) {
			c.fail("for %s assigns a special variable", n.Name.Value)
		}
	case *syntax.ForClause:
		if n.Select {
			c.fail("select")
		}
	case *syntax.CoprocClause:
		c.fail("coproc")
	case *syntax.TestDecl:
		c.fail("@test")
	}
	return c.err == nil
}

// assign checks an assignment's target; its value is walked as any word.
func (c *checker) assign(as *syntax.Assign) {
	if as.Name != nil && mentionsSpecial(as.Name.Value) {
		c.fail("%s is assigned", as.Name.Value)
	}
}

// decl checks declare, local, export, readonly, typeset and nameref: a
// bare word the engine reads as text ("declare $x") can name an array
// element or hold a compound value, both of which it expands.
func (c *checker) decl(d *syntax.DeclClause) {
	if d.Variant != nil && d.Variant.Value == "nameref" {
		c.fail("nameref")
		return
	}
	for _, as := range d.Args {
		if !as.Naked {
			continue
		}
		if as.Value == nil {
			continue // a bare name: the parser keeps it in Name
		}
		s, ok := literal(as.Value)
		if !ok {
			c.fail("%s with a word that is not literal", d.Variant.Value)
			return
		}
		if strings.ContainsAny(s, "$`") {
			c.fail("%s with $ or ` in a literal word", d.Variant.Value)
			return
		}
		if strings.HasPrefix(s, "-") && strings.Contains(s, "n") || strings.HasPrefix(s, "+") && strings.Contains(s, "n") {
			c.fail("%s -n (nameref)", d.Variant.Value)
			return
		}
	}
}

// literal returns the text of a word without expansions (quotes and
// escapes removed), and false when any part of it expands: parameters,
// substitutions, arithmetic, unescaped globs, brace expansion, extended
// globs, or a leading ~.
func literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	// A lone "[" is no pattern (a bracket expression needs its "]"), so
	// it names the test builtin, as in bash.
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && l.Value == "[" {
			return "[", true
		}
	}
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			if !unescape(&b, p.Value) {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape writes unquoted literal text without its backslashes, and
// returns false when the text would expand: an unescaped glob character
// or a brace expansion.
func unescape(b *strings.Builder, s string) bool {
	if i := strings.IndexByte(s, '{'); i >= 0 && strings.ContainsAny(s[i:], ",.") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
		case '*', '?', '[':
			return false
		default:
			b.WriteByte(ch)
		}
	}
	return true
}

// singleField says whether a word always expands to exactly one field:
// unquoted text without globs or braces, and every expansion inside double
// quotes (no "$@", no ${a[@]}, no ${!prefix@}).
func singleField(w *syntax.Word) bool {
	if w == nil || len(w.Parts) == 0 {
		return false
	}
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			var b strings.Builder
			if i == 0 && strings.HasPrefix(p.Value, "~") || !unescape(&b, p.Value) {
				return false
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if p.Dollar {
				return false
			}
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && (pe.Param != nil && (pe.Param.Value == "@" || pe.Param.Value == "*") || pe.Index != nil || pe.Names != 0) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// oneField says whether a word always expands to exactly one field that
// cannot be an option or a terminator: singleField, with literal text
// first that does not start with "-", "~", ";" or "+".
func oneField(w *syntax.Word) bool {
	if s, ok := literal(w); ok {
		return s != "" && !strings.ContainsAny(s[:1], "-;+")
	}
	if !singleField(w) {
		return false
	}
	prefix, ok := w.Parts[0].(*syntax.Lit)
	return ok && prefix.Value != "" && !strings.ContainsAny(prefix.Value[:1], "-~;+")
}
