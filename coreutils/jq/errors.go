package jq

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/bashbox/bashbox/internal/lazyre"
	"github.com/itchyny/gojq"
)

// gojq's run-time messages differ from jq 1.6's; the common ones are
// rewritten here. gojq previews values as `type (json)` with up to 30
// characters; jq 1.6 shows at most 11 characters and "...".

var (
	reIterate = lazyre.New(`^cannot iterate over: (.*)$`)
	// setpath's messages end in the same words.
	reObject   = lazyre.New(`(?:^|: )expected an object but got: (\w+)(?: \((.*)\))?$`)
	reArray    = lazyre.New(`(?:^|: )expected an array but got: (\w+)(?: \((.*)\))?$`)
	reMatch    = lazyre.New(`^(?:match|test|capture|scan|split|splits|sub|gsub)\(.*\) cannot be applied to: ((?:null|\w+ \(.*\)))$`)
	reShell    = lazyre.New(`^@sh cannot format an? \w+ including: ((?:null|\w+ \(.*\)))$`)
	reStrptime = lazyre.New(`^strptime\("(.*)"\) cannot be applied to "(.*)": failed to parse`)
	reFormat   = lazyre.New(`^format not defined: @(\w+)$`)
	reArrIndex = lazyre.New(`^expected a number for indexing an array but got: (\w+)(?: \((.*)\))?$`)
	reObjKey   = lazyre.New(`^expected a string for object key but got: (\w+)(?: \((.*)\))?$`)
	reStrIndex = lazyre.New(`^expected a number for indexing a string but got: (\w+)(?: \((.*)\))?$`)
	reBinop    = lazyre.New(`^cannot (add|subtract|multiply|divide|modulo): ((?:null|\w+ \(.*\))) and ((?:null|\w+ \(.*\)))$`)
	reZeroDiv  = lazyre.New(`^cannot (?:divide|modulo) ((?:null|\w+ \(.*\))) by: ((?:null|\w+ \(.*\)))$`)
	reFunc0    = lazyre.New(`^(\w+) cannot be applied to: ((?:null|\w+ \(.*\)))$`)
	reWrap     = lazyre.New(`^tonumber cannot be applied to "(.*)": .*$`)
	rePreview  = lazyre.New(`^(\w+) \((.*)\)$`)
)

// jqPreview re-truncates a gojq preview "type (json)" to jq 1.6's
// "type (json)" with at most 14 characters of JSON.
func jqPreview(p string) string {
	if p == "null" {
		return "null (null)"
	}
	m := rePreview().FindStringSubmatch(p)
	if m == nil {
		return p
	}
	return m[1] + " (" + truncDump(m[2]) + ")"
}

// truncDump cuts a JSON dump as jq 1.6's jv_dump_string_trunc does with a
// 15-byte buffer.
func truncDump(s string) string {
	const max = 14
	if len(s) <= max {
		return s
	}
	return s[:max-3] + "..."
}

var binopVerb = map[string]string{
	"add": "added", "subtract": "subtracted", "multiply": "multiplied", "divide": "divided", "modulo": "divided",
}

// runtimeMessage turns a gojq error into jq 1.6's text; notString is set
// for error(non-string), which jq prints as "(not a string): JSON".
func (j *jq) runtimeMessage(err error) (msg string, notString bool) {
	var ve gojq.ValueError
	if errors.As(err, &ve) && isExitCodeError(err) {
		v := ve.Value()
		if s, ok := v.(string); ok {
			return s, false
		}
		return j.compact(v), true
	}
	var je *jqError
	if errors.As(err, &je) {
		return je.msg, false
	}
	return j.translate(err.Error()), false
}

// translate rewrites one of gojq's run-time messages into jq 1.6's words;
// other text is returned as it is.
func (j *jq) translate(m string) string {
	msg, _ := j.translated(m)
	return msg
}

func (j *jq) translated(m string) (string, bool) {
	if sm := reIterate().FindStringSubmatch(m); sm != nil {
		return "Cannot iterate over " + jqPreview(sm[1]), false
	}
	if sm := reObject().FindStringSubmatch(m); sm != nil {
		return "Cannot index " + sm[1] + " with " + j.indexKey(), false
	}
	if sm := reArray().FindStringSubmatch(m); sm != nil {
		return "Cannot index " + sm[1] + " with number", false
	}
	if sm := reArrIndex().FindStringSubmatch(m); sm != nil {
		if sm[1] == "string" {
			return "Cannot index array with string " + sm[2], false
		}
		return "Cannot index array with " + sm[1], false
	}
	if sm := reObjKey().FindStringSubmatch(m); sm != nil {
		return "Cannot index object with " + sm[1], false
	}
	if sm := reStrIndex().FindStringSubmatch(m); sm != nil {
		return "Cannot index string with " + sm[1], false
	}
	if sm := reZeroDiv().FindStringSubmatch(m); sm != nil {
		return jqPreview(sm[1]) + " and " + jqPreview(sm[2]) + " cannot be divided because the divisor is zero", false
	}
	if sm := reBinop().FindStringSubmatch(m); sm != nil {
		return jqPreview(sm[2]) + " and " + jqPreview(sm[3]) + " cannot be " + binopVerb[sm[1]], false
	}
	if sm := reMatch().FindStringSubmatch(m); sm != nil {
		return jqPreview(sm[1]) + " cannot be matched, as it is not a string", false
	}
	if sm := reShell().FindStringSubmatch(m); sm != nil {
		return jqPreview(sm[1]) + " can not be escaped for shell", false
	}
	if sm := reStrptime().FindStringSubmatch(m); sm != nil {
		return fmt.Sprintf("date \"%s\" does not match format \"%s\"", sm[2], sm[1]), false
	}
	if sm := reFormat().FindStringSubmatch(m); sm != nil {
		return sm[1] + " is not a valid format", false
	}
	if sm := reWrap().FindStringSubmatch(m); sm != nil {
		s := sm[1]
		return fmt.Sprintf("Invalid numeric literal at EOF at line 1, column %d (while parsing '%s')", len(s), s), false
	}
	if sm := reFunc0().FindStringSubmatch(m); sm != nil {
		v := jqPreview(sm[2])
		switch sm[1] {
		case "keys", "keys_unsorted":
			return v + " has no keys", false
		case "length":
			return v + " has no length", false
		case "tonumber":
			return v + " cannot be parsed as a number", false
		case "tostring":
			return v + " cannot be stringified", false
		case "explode":
			return "explode input must be a string", false
		case "implode":
			return "implode input must be an array", false
		case "ascii_downcase", "ascii_upcase":
			return sm[1] + " input must be a string", false
		}
		return v + " cannot be processed by " + sm[1], false
	}
	return m, false
}

func isExitCodeError(err error) bool {
	t := reflect.TypeOf(err)
	return t != nil && t.Kind() == reflect.Pointer && t.Elem().Name() == "exitCodeError"
}

// indexKey names the key of a failed ".key" lookup: gojq does not report
// it, so it is the last literal key of the filter (the innermost of a
// path like .a.b).
func (j *jq) indexKey() string {
	if n := len(j.indexKeys); n > 0 {
		return "string \"" + j.indexKeys[n-1] + "\""
	}
	return "string"
}

// compileMessage renders a gojq parse or compile error as jq 1.6 does:
//
//	jq: error: foo/0 is not defined at <top-level>, line 1:
//	.a | foo
//	jq: 1 compile error
func compileMessage(src string, err error) string {
	var pe *gojq.ParseError
	var msg string
	offset := -1
	if errors.As(err, &pe) {
		tok := "$end"
		if pe.Token != "" && !strings.HasPrefix(err.Error(), "unexpected EOF") {
			tok = tokenName(pe.Token)
			offset = max(pe.Offset-len(pe.Token), 0)
		} else {
			offset = lastTokenStart(src)
		}
		switch {
		case strings.HasPrefix(err.Error(), "unterminated string"):
			msg = "syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END (Unix shell quoting issues?)"
		default:
			msg = "syntax error, unexpected " + tok + " (Unix shell quoting issues?)"
		}
	} else {
		m := err.Error()
		switch {
		case strings.HasPrefix(m, "function not defined: "):
			name := strings.TrimPrefix(m, "function not defined: ")
			msg = name + " is not defined"
			offset = wordOffset(src, name[:strings.LastIndexByte(name, '/')])
		case strings.HasPrefix(m, "variable not defined: "):
			name := strings.TrimPrefix(m, "variable not defined: ")
			msg = name + " is not defined"
			offset = strings.Index(src, name)
		default:
			msg = m
		}
	}
	if offset < 0 {
		offset = 0
	}
	line := 1 + strings.Count(src[:min(offset, len(src))], "\n")
	lineStart := strings.LastIndexByte(src[:min(offset, len(src))], '\n') + 1
	lineEnd := len(src)
	if i := strings.IndexByte(src[lineStart:], '\n'); i >= 0 {
		lineEnd = lineStart + i + 1
	}
	return fmt.Sprintf("jq: error: %s at <top-level>, line %d:\n%s%s\njq: 1 compile error\n",
		msg, line, src[lineStart:lineEnd], strings.Repeat(" ", offset-lineStart))
}

// tokenName is bison's name for a token, as jq's messages show it.
func tokenName(tok string) string {
	if len(tok) == 1 && strings.ContainsAny(tok, "{}[]().,:;|=<>+-*/%$?") {
		return "'" + tok + "'"
	}
	switch tok {
	case "==", "!=", "<=", ">=", "//", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "and", "or", "as", "def",
		"if", "then", "elif", "else", "end", "reduce", "foreach", "try", "catch", "label", "import", "include", "..", "?//":
		return tok
	}
	c := tok[0]
	switch {
	case c == '"':
		return "QQSTRING_START"
	case c >= '0' && c <= '9':
		return "LITERAL"
	case c == '.':
		return "FIELD"
	case c == '@':
		return "FORMAT"
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return "IDENT"
	}
	return "INVALID_CHARACTER"
}

func lastTokenStart(src string) int {
	i := len(strings.TrimRight(src, " \t\r\n"))
	if i == 0 {
		return 0
	}
	j := i - 1
	isWord := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '$'
	}
	if isWord(src[j]) {
		for j > 0 && isWord(src[j-1]) {
			j--
		}
	}
	return j
}

// wordOffset finds name used as a function call (not a field or variable).
func wordOffset(src, name string) int {
	for i := 0; i+len(name) <= len(src); {
		k := strings.Index(src[i:], name)
		if k < 0 {
			return -1
		}
		at := i + k
		before := byte(' ')
		if at > 0 {
			before = src[at-1]
		}
		after := byte(' ')
		if at+len(name) < len(src) {
			after = src[at+len(name)]
		}
		if !isIdent(before) && before != '.' && before != '$' && !isIdent(after) {
			return at
		}
		i = at + 1
	}
	return -1
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
