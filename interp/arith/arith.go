// Package arith evaluates bash arithmetic: $(( )), (( )), let, declare -i
// values and array subscripts, with bash 5.2's semantics and error texts.
//
// bash evaluates arithmetic on text: in $(( $x * 2 )) the value of x is
// pasted in before the expression is read, so x=1+2 gives 5, while in
// $(( x * 2 )) the value of x is evaluated as an expression of its own and
// gives 6. This package does the same: [EvalString] reads and evaluates a
// string as bash's expr.c does (evaluating while parsing, skipping side
// effects in the branches not taken), and [Eval] turns a syntax tree from
// mvdan.cc/sh/v3/syntax back into text, with its expansions ($x, ${x},
// $(cmd)) done by the caller's [Env.Expand], and evaluates that.
//
// It does not use syntax.Parser.Arithmetic for strings: its errors are not
// bash's, and bash's text ("division by 0 (error token is "0")") is part of
// what scripts and agents see. The reader here is a recursive descent whose
// depth is bounded: parentheses nest at most [MaxDepth] deep and variable
// values recurse at most [MaxDepth] levels ("expression recursion level
// exceeded"), so no input can exhaust the Go stack.
//
// Numbers are 64-bit and wrap around. Constants take the forms 0x1F, 017,
// and BASE#DIGITS with BASE from 2 to 64 (digits 0-9, a-z, A-Z, @, _; for
// bases up to 36 letters of either case are the same digit).
package arith

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Env is the engine's side: variables and expansions. Namerefs, attributes
// (readonly, -u under set -u) and special variables are the engine's
// business; an error it returns is passed through unchanged.
type Env interface {
	// Get returns a variable's value (element 0 of an array) and whether
	// it is set.
	Get(name string) (string, bool, error)
	// Set assigns an integer to a variable.
	Set(name string, v int64) error
	// Assoc reports whether name is an associative array: its subscripts
	// are keys (text), not arithmetic.
	Assoc(name string) bool
	// GetElem and SetElem access an array element. index is the subscript
	// evaluated to a decimal integer (it may be negative: the engine
	// counts from the end or reports a bad subscript), or the key text for
	// an associative array.
	GetElem(name, index string) (string, bool, error)
	SetElem(name, index string, v int64) error
	// Expand expands a word found in an arithmetic tree ($x, ${x#y},
	// $(cmd), "quoted") to its text. Eval calls it only for words that are
	// not plain literals.
	Expand(w *syntax.Word) (string, error)
}

// MaxDepth bounds parenthesis nesting and the recursion of variable values
// evaluated as expressions (bash's own limit is 1024 levels).
const MaxDepth = 1024

// Error is an arithmetic error as bash reports it. The engine prints it
// after its "bash: line N: " prefix.
type Error struct {
	Expr  string // the expression (or value) being evaluated
	Msg   string // e.g. "division by 0"
	Token string // the rest of the expression from the offending token
}

func (e *Error) Error() string {
	return e.Expr + ": " + e.Msg + " (error token is \"" + e.Token + "\")"
}

// EvalString evaluates an arithmetic expression given as text. An empty
// or blank expression is 0. It reads the text every time; a [Cache] reads
// each text once.
func EvalString(src string, env Env) (int64, error) {
	return (*Cache)(nil).eval(src, env, 0)
}

// Eval evaluates an arithmetic syntax tree. src is the source text the
// tree was parsed from (its positions index into it), so the text evaluated
// and shown in errors keeps the script's spelling, blanks before "))"
// included; with src empty the tree is printed compactly instead.
func Eval(expr syntax.ArithmExpr, src string, env Env) (int64, error) {
	return (*Cache)(nil).Eval(expr, src, env)
}

// Cache keeps compiled expressions by their text, so a loop reads its
// expressions (and the expressions stored in variables) once. It is safe
// for concurrent use; the zero value is ready and a nil *Cache compiles
// nothing.
type Cache struct {
	mu    sync.Mutex
	m     map[string]*Expr
	bytes int // text held by m
}

// Expr is an expression text as a Cache keeps it: compiled, or marked to
// be read eagerly (a text with a syntax error, or a long one).
type Expr struct {
	src  string
	root *node // nil: evaluate src eagerly
}

const (
	// The cache starts over when it holds this much text: a compiled
	// text takes some hundred bytes per operator, so a script evaluating
	// ever new expressions keeps a few megabytes at most.
	maxCachedBytes = 64 << 10
	maxCachedLen   = 512 // longer texts are evaluated eagerly, not kept
)

// EvalString is the package's EvalString through the cache.
func (c *Cache) EvalString(src string, env Env) (int64, error) {
	return c.eval(src, env, 0)
}

// Eval is the package's Eval through the cache.
func (c *Cache) Eval(expr syntax.ArithmExpr, src string, env Env) (int64, error) {
	if expr == nil {
		return 0, nil
	}
	var b strings.Builder
	if err := text(&b, expr, src, env); err != nil {
		return 0, err
	}
	return c.eval(b.String(), env, 0)
}

// Compile returns the cache's entry for src, compiling it the first time:
// a caller that evaluates the same text often keeps it and calls Run.
func (c *Cache) Compile(src string) *Expr {
	if c == nil || len(src) > maxCachedLen {
		return &Expr{src: src}
	}
	c.mu.Lock()
	x, ok := c.m[src]
	c.mu.Unlock()
	if ok {
		return x
	}
	x = &Expr{src: src, root: compile(src)}
	c.mu.Lock()
	if c.m == nil || c.bytes+len(src) > maxCachedBytes {
		c.m, c.bytes = make(map[string]*Expr), 0
	}
	c.m[src] = x
	c.bytes += len(src)
	c.mu.Unlock()
	return x
}

// Run evaluates a compiled expression.
func (c *Cache) Run(x *Expr, env Env) (int64, error) {
	return c.run(x, env, 0)
}

func (c *Cache) eval(src string, env Env, depth int) (int64, error) {
	if depth >= MaxDepth {
		return 0, &Error{Expr: strings.TrimLeft(src, " \t\n"), Msg: "expression recursion level exceeded", Token: strings.TrimLeft(src, " \t\n")}
	}
	return c.run(c.Compile(src), env, depth)
}

func (c *Cache) run(x *Expr, env Env, depth int) (int64, error) {
	ev := evaluator{src: x.src, env: env, cache: c, depth: depth}
	if x.root != nil {
		return ev.run(x.root)
	}
	p := &parser{evaluator: ev, eager: true}
	return p.runEager()
}

// empty is the tree of the empty expression, which is 0.
var empty = &node{op: oNum}

// compile reads src into a tree, or returns nil if it has a syntax error.
func compile(src string) (n *node) {
	p := &parser{evaluator: evaluator{src: src}}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(failure); !ok {
				panic(r)
			}
			n = nil
		}
	}()
	if n = p.parse(); n == nil {
		n = empty
	}
	return n
}

func (p *parser) runEager() (v int64, err error) {
	defer catch(&v, &err)
	return p.parse().value(), nil
}

// text writes the expression with its expansions done.
func text(b *strings.Builder, x syntax.ArithmExpr, src string, env Env) error {
	if src != "" {
		start, end := int(x.Pos().Offset()), int(x.End().Offset())
		if start <= end && end <= len(src) {
			// bash keeps the blanks before "))" in the text it shows.
			for end < len(src) && isSpace(src[end]) {
				end++
			}
			return splice(b, x, src, start, end, env)
		}
	}
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if err := text(b, x.X, "", env); err != nil {
			return err
		}
		b.WriteString(x.Op.String())
		return text(b, x.Y, "", env)
	case *syntax.UnaryArithm:
		if x.Post {
			if err := text(b, x.X, "", env); err != nil {
				return err
			}
			b.WriteString(x.Op.String())
			return nil
		}
		b.WriteString(x.Op.String())
		b.WriteByte(' ') // keep "- -x" from reading as "--x"
		return text(b, x.X, "", env)
	case *syntax.ParenArithm:
		b.WriteByte('(')
		if err := text(b, x.X, "", env); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	case *syntax.Word:
		return word(b, x, "", env)
	}
	return &Error{Expr: "", Msg: "syntax error: operand expected", Token: ""}
}

// word writes a word: literals and a[i] as they are, the rest expanded.
func word(b *strings.Builder, w *syntax.Word, src string, env Env) error {
	if lit := w.Lit(); lit != "" || len(w.Parts) == 0 {
		b.WriteString(lit)
		return nil
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && !pe.Dollar.IsValid() && pe.Index != nil && pe.Param != nil {
			// a[i] written without '$': an array element reference.
			b.WriteString(pe.Param.Value)
			b.WriteByte('[')
			if err := text(b, pe.Index, src, env); err != nil {
				return err
			}
			b.WriteByte(']')
			return nil
		}
	}
	s, err := env.Expand(w)
	if err != nil {
		return err
	}
	b.WriteString(s)
	return nil
}

// splice copies src[start:end], replacing each word that needs expansion
// by its expansion.
func splice(b *strings.Builder, x syntax.ArithmExpr, src string, start, end int, env Env) error {
	pos := start
	var err error
	syntax.Walk(x, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		w, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		if w.Lit() != "" {
			return false
		}
		ws, we := int(w.Pos().Offset()), int(w.End().Offset())
		if ws < pos || we > end {
			return false
		}
		if len(w.Parts) == 1 {
			if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && !pe.Dollar.IsValid() && pe.Index != nil {
				return true // a[i]: descend into the subscript
			}
		}
		b.WriteString(src[pos:ws])
		var s string
		s, err = env.Expand(w)
		b.WriteString(s)
		pos = we
		return false
	})
	if err != nil {
		return err
	}
	b.WriteString(src[pos:end])
	return nil
}
