package interp

// A stand-in for interp/arith (being built on another branch): evaluates
// syntax.ArithmExpr through arithEnv. It goes away when interp/arith is
// merged; the frame's side is arith_glue.go.

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arithEnv is what arithmetic needs from the shell.
type arithEnv interface {
	// Get returns a variable's value (element 0 of an array).
	Get(name string) (string, bool)
	// GetElem returns name[index] (index is the evaluated subscript as
	// text: a number, or an associative key).
	GetElem(name string, index syntax.ArithmExpr) (string, error)
	Set(name string, index syntax.ArithmExpr, val int64) error
	// Expand expands a word that is not a plain name ($x, ${x}, $(..)).
	Expand(w *syntax.Word) (string, error)
	// EvalString evaluates text as an expression (a variable's value).
	EvalString(s string, depth int) (int64, error)
}

type arithError struct{ msg string }

func (e *arithError) Error() string { return e.msg }

const maxArithDepth = 1024

func arithEval(x syntax.ArithmExpr, env arithEnv, depth int) (int64, error) {
	if depth > maxArithDepth {
		return 0, &arithError{"expression recursion level exceeded"}
	}
	switch x := x.(type) {
	case *syntax.Word:
		name, index, ok := lvalue(x)
		if ok {
			var s string
			var err error
			if index != nil {
				s, err = env.GetElem(name, index)
				if err != nil {
					return 0, err
				}
			} else {
				s, _ = env.Get(name)
			}
			return env.EvalString(s, depth+1)
		}
		s, err := env.Expand(x)
		if err != nil {
			return 0, err
		}
		return env.EvalString(s, depth+1)
	case *syntax.ParenArithm:
		return arithEval(x.X, env, depth+1)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			w, _ := x.X.(*syntax.Word)
			name, index, ok := lvalue(w)
			if !ok {
				return 0, &arithError{"syntax error: operand expected"}
			}
			old, err := arithEval(x.X, env, depth+1)
			if err != nil {
				return 0, err
			}
			n := old + 1
			if x.Op == syntax.Dec {
				n = old - 1
			}
			if err := env.Set(name, index, n); err != nil {
				return 0, err
			}
			if x.Post {
				return old, nil
			}
			return n, nil
		}
		v, err := arithEval(x.X, env, depth+1)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.Not:
			return b2i(v == 0), nil
		case syntax.BitNegation:
			return ^v, nil
		case syntax.Minus:
			return -v, nil
		}
		return v, nil
	case *syntax.BinaryArithm:
		switch x.Op {
		case syntax.AndArit:
			l, err := arithEval(x.X, env, depth+1)
			if err != nil || l == 0 {
				return 0, err
			}
			r, err := arithEval(x.Y, env, depth+1)
			return b2i(r != 0), err
		case syntax.OrArit:
			l, err := arithEval(x.X, env, depth+1)
			if err != nil || l != 0 {
				return b2i(l != 0), err
			}
			r, err := arithEval(x.Y, env, depth+1)
			return b2i(r != 0), err
		case syntax.TernQuest:
			c, err := arithEval(x.X, env, depth+1)
			if err != nil {
				return 0, err
			}
			colon, ok := x.Y.(*syntax.BinaryArithm)
			if !ok || colon.Op != syntax.TernColon {
				return 0, &arithError{"`:' expected for conditional expression"}
			}
			if c != 0 {
				return arithEval(colon.X, env, depth+1)
			}
			return arithEval(colon.Y, env, depth+1)
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
			w, _ := x.X.(*syntax.Word)
			name, index, ok := lvalue(w)
			if !ok {
				return 0, &arithError{"attempted assignment to non-variable"}
			}
			r, err := arithEval(x.Y, env, depth+1)
			if err != nil {
				return 0, err
			}
			if x.Op != syntax.Assgn {
				l, err := arithEval(x.X, env, depth+1)
				if err != nil {
					return 0, err
				}
				if r, err = binop(assignOp(x.Op), l, r); err != nil {
					return 0, err
				}
			}
			return r, env.Set(name, index, r)
		}
		l, err := arithEval(x.X, env, depth+1)
		if err != nil {
			return 0, err
		}
		r, err := arithEval(x.Y, env, depth+1)
		if err != nil {
			return 0, err
		}
		if x.Op == syntax.Comma {
			return r, nil
		}
		return binop(x.Op, l, r)
	}
	return 0, &arithError{"syntax error: operand expected"}
}

func assignOp(op syntax.BinAritOperator) syntax.BinAritOperator {
	switch op {
	case syntax.AddAssgn:
		return syntax.Add
	case syntax.SubAssgn:
		return syntax.Sub
	case syntax.MulAssgn:
		return syntax.Mul
	case syntax.QuoAssgn:
		return syntax.Quo
	case syntax.RemAssgn:
		return syntax.Rem
	case syntax.AndAssgn:
		return syntax.And
	case syntax.OrAssgn:
		return syntax.Or
	case syntax.XorAssgn:
		return syntax.Xor
	case syntax.ShlAssgn:
		return syntax.Shl
	}
	return syntax.Shr
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func binop(op syntax.BinAritOperator, l, r int64) (int64, error) {
	switch op {
	case syntax.Add:
		return l + r, nil
	case syntax.Sub:
		return l - r, nil
	case syntax.Mul:
		return l * r, nil
	case syntax.Quo, syntax.Rem:
		if r == 0 {
			return 0, &arithError{"division by 0"}
		}
		if l == -1<<63 && r == -1 {
			if op == syntax.Quo {
				return l, nil
			}
			return 0, nil
		}
		if op == syntax.Quo {
			return l / r, nil
		}
		return l % r, nil
	case syntax.Pow:
		if r < 0 {
			return 0, &arithError{"exponent less than 0"}
		}
		n := int64(1)
		for ; r > 0; r-- {
			n *= l
		}
		return n, nil
	case syntax.Eql:
		return b2i(l == r), nil
	case syntax.Neq:
		return b2i(l != r), nil
	case syntax.Lss:
		return b2i(l < r), nil
	case syntax.Leq:
		return b2i(l <= r), nil
	case syntax.Gtr:
		return b2i(l > r), nil
	case syntax.Geq:
		return b2i(l >= r), nil
	case syntax.And:
		return l & r, nil
	case syntax.Or:
		return l | r, nil
	case syntax.Xor:
		return l ^ r, nil
	case syntax.Shl:
		return l << (uint64(r) & 63), nil
	case syntax.Shr:
		return l >> (uint64(r) & 63), nil
	case syntax.XorBool:
		return b2i((l != 0) != (r != 0)), nil
	}
	return 0, &arithError{"syntax error: operand expected"}
}

// lvalue returns the variable a word names in arithmetic (x, a[i]).
func lvalue(w *syntax.Word) (string, syntax.ArithmExpr, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", nil, false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		if syntax.ValidName(p.Value) {
			return p.Value, nil, true
		}
	case *syntax.ParamExp:
		if !p.Dollar.IsValid() && p.Param != nil && p.Exp == nil && p.Slice == nil && p.Repl == nil && !p.Length && !p.Excl {
			return p.Param.Value, p.Index, true
		}
	}
	return "", nil, false
}

// parseArithNumber parses an integer constant as bash does: decimal,
// 0x hex, 0 octal, BASE#digits.
func parseArithNumber(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	if b, digits, ok := strings.Cut(s, "#"); ok {
		base, err := strconv.Atoi(b)
		if err != nil || base < 2 || base > 64 {
			return 0, false
		}
		var n int64
		for _, c := range digits {
			var d int
			switch {
			case c >= '0' && c <= '9':
				d = int(c - '0')
			case c >= 'a' && c <= 'z':
				d = int(c-'a') + 10
			case c >= 'A' && c <= 'Z':
				d = int(c - 'A')
				if base <= 36 {
					d += 10
				} else {
					d += 36
				}
			case c == '@':
				d = 62
			case c == '_':
				d = 63
			default:
				return 0, false
			}
			if d >= base {
				return 0, false
			}
			n = n*int64(base) + int64(d)
		}
		return n, true
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		return int64(n), err == nil
	}
	if len(s) > 1 && s[0] == '0' {
		n, err := strconv.ParseUint(s[1:], 8, 64)
		return int64(n), err == nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return int64(n), err == nil
}
