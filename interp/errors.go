package interp

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// nativeSyntaxError words a parse error as bash does: the unexpected token
// and the offending line, or the end of file.
func nativeSyntaxError(prefix, src string, err error, lineBase int) string {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v\n", strings.TrimSuffix(prefix, ": "), err)
	}
	line := pe.Pos.Line()
	head := fmt.Sprintf("%sline %d: ", prefix, int(line)+lineBase)
	if q, ok := strings.CutPrefix(pe.Text, "reached EOF without closing quote `"); ok {
		q = strings.TrimSuffix(q, "`")
		return fmt.Sprintf("%sunexpected EOF while looking for matching `%s'\n", head, q)
	}
	lines := strings.Split(src, "\n")
	text := ""
	if int(line) >= 1 && int(line) <= len(lines) {
		text = lines[line-1]
	}
	col := int(pe.Pos.Col()) - 1
	if pe.Incomplete || strings.Contains(pe.Text, "reached EOF") || col >= len(text) || col < 0 {
		// bash reports the end of file on the line after the last
		eof := strings.Count(src, "\n") + 1
		if strings.HasSuffix(src, "\n") {
			eof--
		}
		return fmt.Sprintf("%sline %d: syntax error: unexpected end of file\n", prefix, eof+1+lineBase)
	}
	tok := text[col:]
	if strings.Contains(pe.Text, "must be followed by") {
		// the parser points at the keyword; bash names the token after it
		rest := strings.TrimLeft(strings.TrimLeft(tok, "abcdefghijklmnopqrstuvwxyz![{("), " \t")
		if rest != "" {
			tok = rest
		}
	}
	if strings.HasPrefix(tok, "((") {
		tok = "(" // bash reads one parenthesis at a time here
	}
	if i := strings.IndexAny(tok, " \t;&|<>"); i > 0 {
		tok = tok[:i]
	} else if i == 0 {
		tok = tok[:1]
		if len(text) > col+1 && (text[col+1] == tok[0] && strings.Contains(";&|", tok)) {
			tok = text[col : col+2]
		}
	}
	return fmt.Sprintf("%ssyntax error near unexpected token `%s'\n%s`%s'\n", head, tok, head, text)
}
