package interp

import (
	"context"
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// bash reads the text of $(( )), (( )) and $[ ] only when it evaluates
// it: "echo $((1 2))" is a run-time error of that command ("syntax error
// in expression"), after which the script goes on. The parser here reads
// arithmetic with the script and rejects such text outright. So when a
// parse error falls inside an arithmetic construct, the construct's text
// is handed to the evaluator as one quoted string ("$((\"1 2\"))"), which
// the parser accepts and arithmetic reads, and fails on, at run time, with
// bash's message.

// maxArithRetries bounds the constructs deferred in one parse.
const maxArithRetries = 32

// parseSource parses a script, deferring rejected arithmetic to run time.
// It returns the text the tree's positions index into: src, or src with
// deferred constructs quoted. When the script still does not parse, it
// returns the first error for the original text.
func parseSource(ctx context.Context, src string) (*syntax.File, string, error) {
	file, err := parseText(ctx, src)
	if err == nil || ctx.Err() != nil {
		return file, src, err
	}
	first, text := err, src
	for range maxArithRetries {
		off, ok := errOffset(err)
		if !ok {
			break
		}
		next, ok := deferArith(text, off)
		if !ok {
			// "let" alone: the let builtin says what is missing.
			if !strings.HasPrefix(text[off:], "let") || len(text) > off+3 && isNameByte(text[off+3]) {
				break
			}
			next = text[:off] + `\` + text[off:]
		}
		text = next
		f2, err2 := parseText(ctx, text)
		if err2 == nil {
			return f2, text, nil
		}
		if ctx.Err() != nil {
			return nil, src, err2
		}
		err = err2
	}
	return nil, src, first
}

// parsers are reused across calls: a parser's buffers are a good part of
// what running a short script allocates. The syntax package documents a
// parser as reusable once a Parse returns, and the trees it returned do
// not share its memory. A parser keeps its last input and tree until it
// is next used, so one that read a big script is dropped rather than
// kept in the pool.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

const maxPooledParse = 64 << 10

func parseText(ctx context.Context, src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	file, err := p.Parse(ctxReader{ctx, strings.NewReader(src)}, "")
	if len(src) <= maxPooledParse {
		parsers.Put(p)
	}
	return file, err
}

func errOffset(err error) (int, bool) {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return int(pe.Pos.Offset()), true
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return int(le.Pos.Offset()), true
	}
	return 0, false
}

// deferArith quotes the text of the innermost arithmetic construct around
// offset off. Text with quotes, backslashes or newlines is left alone: it
// would read differently once quoted.
func deferArith(src string, off int) (string, bool) {
	if off >= len(src) {
		off = len(src) - 1
	}
	for i := off; i >= 0; i-- {
		var n int
		var bracket bool
		switch {
		case strings.HasPrefix(src[i:], "$(("):
			n = 3
		case strings.HasPrefix(src[i:], "$["):
			n, bracket = 2, true
		case strings.HasPrefix(src[i:], "((") && (i == 0 || src[i-1] != '$' && src[i-1] != '('):
			n = 2
		default:
			continue
		}
		end, closeLen, ok := arithClose(src, i+n, bracket)
		if !ok || end+closeLen < off {
			continue
		}
		inner := src[i+n : end]
		if strings.ContainsAny(inner, "\"'`\\\n") {
			return "", false
		}
		return src[:i+n] + `"` + inner + `"` + src[end:], true
	}
	return "", false
}

// arithClose finds the "))" (or "]") closing a construct whose text
// starts at from; ok is false when the parentheses say it is no
// arithmetic ("((cmd); cmd)" is a subshell in a subshell).
func arithClose(src string, from int, bracket bool) (end, closeLen int, ok bool) {
	depth := 0
	for j := from; j < len(src); j++ {
		switch c := src[j]; {
		case bracket && c == '[':
			depth++
		case bracket && c == ']':
			if depth == 0 {
				return j, 1, true
			}
			depth--
		case !bracket && c == '(':
			depth++
		case !bracket && c == ')':
			if depth > 0 {
				depth--
				continue
			}
			if j+1 < len(src) && src[j+1] == ')' {
				return j, 2, true
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
