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
func (f *frame) arith(x syntax.ArithmExpr) (int64, bool) { return f.arithFor(x, "") }

// arithFor is arith for an expression inside ${name:...}: bash names
// the parameter in the error ("s: 1/0: division by 0").
func (f *frame) arithFor(x syntax.ArithmExpr, name string) (int64, bool) {
	if x == nil {
		return 0, true
	}
	if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			if n, err := strconv.ParseInt(l.Value, 10, 64); err == nil && (l.Value[0] != '0' || len(l.Value) == 1) {
				return n, true
			}
		}
	}
	src := f.src
	if int(x.End().Offset()) > len(src) {
		src = ""
	}
	var n int64
	var err error
	if text, ok := f.call.sh.arithLiteralText(x, src); ok {
		// No expansions inside: the text is the same every time.
		n, err = arith.EvalString(text, frameArith{f})
	} else {
		n, err = arith.Eval(x, src, frameArith{f})
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
	n, err := arith.EvalString(s, frameArith{f})
	if err != nil {
		f.arithFail(err)
		return 0, false
	}
	return n, true
}

func (f *frame) arithFail(err error) {
	if err != errReported {
		f.errorf("%s", err.Error())
	}
	if f.ctl == ctlNone {
		f.status = 1
		f.abort()
	}
}

// arithText prints an arithmetic expression back as source.
func arithText(x syntax.ArithmExpr) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, &syntax.Word{Parts: []syntax.WordPart{&syntax.ArithmExp{X: x}}})
	return strings.TrimSuffix(strings.TrimPrefix(b.String(), "$(("), "))")
}

// maxArithTexts bounds the cache of expression texts (eval in a loop
// parses new trees every time).
const maxArithTexts = 4096

// arithLiteralText returns the source text of an arithmetic expression
// without expansions ($x, $(..), quotes), cached per tree node: arith.Eval
// would rebuild the same text on every evaluation.
func (sh *Shell) arithLiteralText(x syntax.ArithmExpr, src string) (string, bool) {
	sh.arithMu.Lock()
	t, ok := sh.arithTexts[x]
	sh.arithMu.Unlock()
	if ok {
		return t, t != ""
	}
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
	}
	sh.arithMu.Lock()
	if sh.arithTexts == nil {
		sh.arithTexts = map[syntax.ArithmExpr]string{}
	}
	if len(sh.arithTexts) < maxArithTexts {
		sh.arithTexts[x] = t
	}
	sh.arithMu.Unlock()
	return t, literal
}
