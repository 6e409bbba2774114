package interp

import (
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// frameArith is the frame as arithmetic sees it.
type frameArith struct{ f *frame }

func (a frameArith) Get(name string) (string, bool) {
	if a.f.opts.has(optNounset) {
		if _, ok := a.f.getVar(name); !ok {
			return "", false
		}
	}
	return a.f.getVar(name)
}

func (a frameArith) GetElem(name string, index syntax.ArithmExpr) (string, error) {
	v, ok := a.f.fetch(name, index)
	if !ok {
		return "", errArithDone
	}
	return v.s, nil
}

func (a frameArith) Set(name string, index syntax.ArithmExpr, val int64) error {
	var ok bool
	if index != nil {
		ok = a.f.assignIndex(name, index, itoa64(val), false)
	} else {
		ok = a.f.assignScalar(name, itoa64(val))
	}
	if !ok {
		return errArithDone
	}
	return nil
}

func (a frameArith) Expand(w *syntax.Word) (string, error) {
	s, ok := a.f.literal(w)
	if !ok {
		return "", errArithDone
	}
	return s, nil
}

func (a frameArith) EvalString(s string, depth int) (int64, error) {
	s = strings.TrimSpace(s)
	if n, ok := parseArithNumber(s); ok {
		return n, nil
	}
	if syntax.ValidName(s) {
		v, _ := a.Get(s)
		if depth > maxArithDepth {
			return 0, &arithError{"expression recursion level exceeded"}
		}
		return a.EvalString(v, depth+1)
	}
	x, err := parseArith(s)
	if err != nil {
		return 0, err
	}
	if x == nil {
		return 0, nil
	}
	return arithEval(x, a, depth+1)
}

// errArithDone reports an error already printed (by an expansion).
var errArithDone = errors.New("arithmetic error reported")

var arithParseCache sync.Map // string -> syntax.ArithmExpr

// parseArith parses text as an arithmetic expression, cached.
func parseArith(s string) (syntax.ArithmExpr, error) {
	if x, ok := arithParseCache.Load(s); ok {
		return x.(syntax.ArithmExpr), nil
	}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	w, err := p.Document(strings.NewReader("$((" + s + "))"))
	if err != nil || len(w.Parts) != 1 {
		return nil, &arithError{syntaxTok(s)}
	}
	ae, ok := w.Parts[0].(*syntax.ArithmExp)
	if !ok {
		return nil, &arithError{syntaxTok(s)}
	}
	arithParseCache.Store(s, ae.X)
	return ae.X, nil
}

func syntaxTok(s string) string {
	tok := strings.TrimSpace(s)
	if i := strings.IndexAny(tok, " \t"); i >= 0 {
		tok = strings.TrimSpace(tok[i:])
	}
	return "syntax error: invalid arithmetic operator (error token is \"" + tok + "\")"
}

// arith evaluates x; an error is printed as bash prints it and abandons
// the command.
func (f *frame) arith(x syntax.ArithmExpr) (int64, bool) {
	return f.arithText(x, "")
}

// rawText returns the source between from and to when the frame's source
// holds it with the given opening and closing text around it.
func (f *frame) rawText(from, to syntax.Pos, open, close string) string {
	a, b := int(from.Offset()), int(to.Offset())
	if a < 0 || b > len(f.src) || a+len(open) > b || !strings.HasPrefix(f.src[a:], open) || !strings.HasPrefix(f.src[b:], close) {
		return ""
	}
	return strings.TrimLeft(f.src[a+len(open):b], " \t\n")
}

// arithText evaluates x; text is its source, for error messages.
func (f *frame) arithText(x syntax.ArithmExpr, text string) (int64, bool) {
	if x == nil {
		return 0, true
	}
	if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			if n, ok := parseArithNumber(l.Value); ok {
				return n, true
			}
		}
	}
	n, err := arithEval(x, frameArith{f}, 0)
	if err != nil {
		if text == "" {
			text = arithText(x)
		}
		f.arithFail(text, err)
		return 0, false
	}
	return n, true
}

// arithString evaluates text (let, declare -i, [[ -eq ]] operands).
func (f *frame) arithString(s string) (int64, bool) {
	if n, ok := parseArithNumber(strings.TrimSpace(s)); ok {
		return n, true
	}
	n, err := frameArith{f}.EvalString(s, 0)
	if err != nil {
		f.arithFail(strings.TrimSpace(s), err)
		return 0, false
	}
	return n, true
}

func (f *frame) arithFail(expr string, err error) {
	if err == errArithDone {
		if f.ctl == ctlNone {
			f.abort()
		}
		return
	}
	msg := err.Error()
	if msg == "division by 0" {
		tok := expr
		if i := strings.LastIndexAny(expr, "/%"); i >= 0 {
			tok = strings.TrimLeft(expr[i+1:], " \t")
		}
		msg += " (error token is \"" + tok + "\")"
	}
	f.errorf("%s: %s", expr, msg)
	f.status = 1
	f.abort()
}

// arithText prints an arithmetic expression back as source.
func arithText(x syntax.ArithmExpr) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, &syntax.Word{Parts: []syntax.WordPart{&syntax.ArithmExp{X: x}}})
	return strings.TrimSuffix(strings.TrimPrefix(b.String(), "$(("), "))")
}
