package interp

import (
	"errors"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/interp/arith"
)

// frameArith is the frame as arithmetic sees it (arith.Env).
type frameArith struct{ f *frame }

// errReported is an error already printed by the shell (a failed
// expansion or assignment): arithmetic passes it back unchanged.
var errReported = errors.New("error reported")

func (a frameArith) Get(name string) (string, bool, error) {
	s, ok := a.f.getVar(name)
	if !ok && a.f.opts.has(optNounset) {
		a.f.errorf("%s: unbound variable", name)
		a.f.fatal(127)
		return "", false, errReported
	}
	return s, ok, nil
}

func (a frameArith) Set(name string, v int64) error {
	if !a.f.assignScalar(name, itoa64(v)) {
		return errReported
	}
	return nil
}

func (a frameArith) Assoc(name string) bool {
	v := a.f.lookupVar(name)
	return v != nil && v.assoc != nil
}

func (a frameArith) GetElem(name, index string) (string, bool, error) {
	v, ok := a.f.fetch(name, wordOf(index))
	if !ok {
		return "", false, errReported
	}
	return v.s, v.set, nil
}

func (a frameArith) SetElem(name, index string, v int64) error {
	if !a.f.assignIndex(name, wordOf(index), itoa64(v), false) {
		return errReported
	}
	return nil
}

func (a frameArith) Expand(w *syntax.Word) (string, error) {
	s, ok := a.f.literal(w)
	if !ok {
		return "", errReported
	}
	return s, nil
}

// arith evaluates x; an error is printed as bash prints it and abandons
// the command.
func (f *frame) arith(x syntax.ArithmExpr) (int64, bool) { return f.arithNamed(x, "") }

// arithNamed is arith for an expression inside ${name:...}: bash names
// the parameter in the error ("s: 1/0: division by 0").
func (f *frame) arithNamed(x syntax.ArithmExpr, name string) (int64, bool) {
	if x == nil {
		return 0, true
	}
	if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			if n, err := strconv.ParseInt(l.Value, 10, 64); err == nil && (l.Value[0] != '0' || len(l.Value) == 1) {
				return n, true
			}
			if !l.ValuePos.IsValid() {
				// a subscript given as text (a nameref's "a[i]"): no
				// source position to cut it from
				return f.arithString(l.Value)
			}
		}
	}
	src := f.src
	if end := int(x.End().Offset()); end > len(src) {
		src = ""
	} else if f.arithCmd == "let" {
		// A let argument is a word: bash shows no blanks after it.
		src = src[:end]
	}
	var n int64
	var err error
	if cx := f.call.sh.arithCompiled(x, src); cx != nil {
		// No expansions inside: the text is the same every time.
		n, err = f.call.sh.arithCache.Run(cx, frameArith{f})
	} else {
		n, err = f.call.sh.arithCache.Eval(x, src, frameArith{f})
	}
	if err != nil {
		if name != "" && err != errReported {
			err = errors.New(name + ": " + err.Error())
		}
		f.arithFail(err)
		return 0, false
	}
	return n, true
}

// arithString evaluates text (let, declare -i, [[ -eq ]] operands, array
// subscripts given as text).
func (f *frame) arithString(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && (len(s) == 1 || s[0] != '0') {
		return n, true
	}
	n, err := f.call.sh.arithCache.EvalString(s, frameArith{f})
	if err != nil {
		f.arithFail(err)
		return 0, false
	}
	return n, true
}

func (f *frame) arithFail(err error) {
	if err != errReported {
		if f.arithCmd != "" {
			f.errorf("%s: %s", f.arithCmd, err.Error())
		} else {
			f.errorf("%s", err.Error())
		}
	}
	f.arithErr = true
	if f.ctl == ctlNone {
		f.status = 1
		switch {
		case f.arithFatal:
			f.fatal(1)
		case f.arithCmd != "((" && f.arithCmd != "let" && f.arithCmd != "[[":
			// An expansion or a declaration: bash abandons the command
			// line; (( )), let and [[ ]] only fail.
			f.abort()
		}
	}
}

// arithFor sets the command arithmetic errors are reported for and
// whether they end the shell, returning the previous setting for
// arithRestore.
func (f *frame) arithFor(cmd string, fatal bool) (string, bool) {
	c, fa := f.arithCmd, f.arithFatal
	f.arithCmd, f.arithFatal = cmd, fatal
	return c, fa
}

func (f *frame) arithRestore(cmd string, fatal bool) { f.arithCmd, f.arithFatal = cmd, fatal }

// arithAs evaluates x for a command: "((" for (( )) and for (( )).
func (f *frame) arithAs(cmd string, x syntax.ArithmExpr) (int64, bool) {
	c0, fa := f.arithFor(cmd, false)
	n, ok := f.arith(x)
	f.arithRestore(c0, fa)
	return n, ok
}

// arithText prints an arithmetic expression back as source.
func arithText(x syntax.ArithmExpr) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, &syntax.Word{Parts: []syntax.WordPart{&syntax.ArithmExp{X: x}}})
	return strings.TrimLeft(strings.TrimSuffix(strings.TrimPrefix(b.String(), "$(("), "))"), " \t")
}

// maxArithTextBytes bounds the text of the expressions compiled per tree
// node (eval in a loop parses new trees every time): the map starts over
// past it.
const maxArithTextBytes = 64 << 10

// arithCompiled returns the compiled source text of an arithmetic
// expression without expansions ($x, $(..), quotes), cached per tree node:
// arith.Eval would rebuild the same text on every evaluation. It is nil
// for an expression with expansions.
func (sh *Shell) arithCompiled(x syntax.ArithmExpr, src string) *arith.Expr {
	sh.arithMu.Lock()
	cx, ok := sh.arithTexts[x]
	sh.arithMu.Unlock()
	if ok {
		return cx
	}
	var t string
	start, end := int(x.Pos().Offset()), int(x.End().Offset())
	literal := src != "" && start <= end && end <= len(src)
	if literal {
		syntax.Walk(x, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Word:
				if n.Lit() == "" {
					pe, ok := n.Parts[0].(*syntax.ParamExp)
					if len(n.Parts) != 1 || !ok || pe.Dollar.IsValid() || pe.Index == nil {
						literal = false
					}
				}
			case *syntax.ParamExp:
				if n.Dollar.IsValid() || n.Exp != nil || n.Slice != nil || n.Repl != nil {
					literal = false
				}
			case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.DblQuoted, *syntax.SglQuoted, *syntax.ProcSubst:
				literal = false
			}
			return literal
		})
	}
	if literal {
		for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\n') {
			end++
		}
		t = src[start:end]
		cx = sh.arithCache.Compile(t)
	}
	sh.arithMu.Lock()
	if sh.arithTexts == nil || sh.arithBytes+len(t) > maxArithTextBytes || len(sh.arithTexts) >= maxArithTextBytes/8 {
		sh.arithTexts, sh.arithBytes = map[syntax.ArithmExpr]*arith.Expr{}, 0
	}
	sh.arithTexts[x] = cx
	sh.arithBytes += len(t)
	sh.arithMu.Unlock()
	return cx
}

// softArith evaluates for who (let, [[ ]]) whose arithmetic errors name
// it and fail it without abandoning the command line.
func (f *frame) softArith(who string, fn func() (int64, bool)) (int64, bool) {
	c0, fa := f.arithFor(who, false)
	defer f.arithRestore(c0, fa)
	return fn()
}
