package sqlite3

import (
	"errors"
	"fmt"
	"strings"

	sqlite "github.com/ncruces/go-sqlite3"
)

// execute runs every statement of sql in turn and prints their rows, as
// the shell's shell_exec: it stops at the first error and returns its
// result code and the shell's message ("in prepare, ...", "stepping, ...").
func (s *shell) execute(sql string) (int, string) {
	if err := s.openDB(); err != nil {
		return openFailed, ""
	}
	sql = strings.TrimLeft(sql, " \t\n\r\f\v")
	for sql != "" {
		if s.ctx.Err() != nil {
			return 9, "interrupted"
		}
		stmt, tail, err := s.db.Prepare(sql)
		if err != nil {
			return code(err), "in prepare, " + errMessage(err) + errorContext(sql, err)
		}
		if stmt == nil {
			sql = strings.TrimLeft(tail, " \t\n\r\f\v")
			continue
		}
		err = s.printRows(stmt)
		stmt.Close()
		if err != nil {
			return code(err), "stepping, " + errMessage(err)
		}
		sql = strings.TrimLeft(tail, " \t\n\r\f\v")
	}
	return 0, ""
}

// openFailed is execute's status when the database could not be opened:
// the shell has said so and stops.
const openFailed = -2

// code is an error's primary result code.
func code(err error) int {
	var e sqlite.ErrorCode
	if errors.As(err, &e) {
		return int(e)
	}
	return 1
}

// errText is SQLite's message for err (sqlite3_errmsg).
func errText(err error) string {
	var se *sqlite.Error
	var ec sqlite.ErrorCode
	var xc sqlite.ExtendedErrorCode
	switch {
	case errors.As(err, &se):
		text := se.Error()
		prefix := se.Code().Error()
		if msg, ok := strings.CutPrefix(text, prefix+": "); ok {
			if sys := se.Unwrap(); sys != nil {
				msg = strings.TrimSuffix(msg, ": "+sys.Error())
			}
			if msg != "" {
				return msg
			}
		}
		return strings.TrimPrefix(prefix, "sqlite3: ")
	case errors.As(err, &xc):
		return strings.TrimPrefix(xc.Code().Error(), "sqlite3: ")
	case errors.As(err, &ec):
		return strings.TrimPrefix(ec.Error(), "sqlite3: ")
	}
	return err.Error()
}

// errMessage is the message with the result code after it when the code
// is not plain SQLITE_ERROR, as the shell's save_err_msg writes it.
func errMessage(err error) string {
	msg := errText(err)
	if c := code(err); c > 1 {
		msg = fmt.Sprintf("%s (%d)", msg, c)
	}
	return msg
}

// errorContext shows where in sql a syntax error is, as the shell does:
// the statement (at most 78 bytes, the error within the first 50) and a
// marker under the error.
func errorContext(sql string, err error) string {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.SQL() == "" {
		return ""
	}
	off := len(sql) - len(se.SQL())
	for off > 50 {
		off--
		sql = sql[1:]
		for len(sql) > 0 && sql[0]&0xc0 == 0x80 {
			sql = sql[1:]
			off--
		}
	}
	n := len(sql)
	if n > 78 {
		n = 78
		for n > 0 && sql[n]&0xc0 == 0x80 {
			n--
		}
	}
	code := []byte(sql[:n])
	for i, c := range code {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			code[i] = ' '
		}
	}
	if off < 25 {
		return fmt.Sprintf("\n  %s\n  %*s^--- error here", code, off, "")
	}
	return fmt.Sprintf("\n  %s\n  %*serror here ---^", code, off-14, "")
}

// commentEnd is the index of the '/' that ends the comment opened at
// sql[i]; ok is false when it does not end.
func commentEnd(sql string, i int) (end int, ok bool) {
	n := strings.Index(sql[i+2:], "*/")
	if n < 0 {
		return i, false
	}
	return i + 2 + n + 1, true
}

// quoteEnd is the index of the byte closing the string or quoted name
// opened at sql[i] (”, "", “ or []); ok is false when it is not closed.
func quoteEnd(sql string, i int) (end int, ok bool) {
	closer := sql[i]
	if closer == '[' {
		closer = ']'
	}
	n := strings.IndexByte(sql[i+1:], closer)
	if n < 0 {
		return i, false
	}
	return i + 1 + n, true
}

// endsWithSemicolon reports whether the last thing in sql, past white
// space and comments, is a semicolon (the shell's quick scan).
func endsWithSemicolon(sql string) bool {
	last := byte(0)
	ok := true
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			if i, ok = commentEnd(sql, i); !ok {
				return false
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			if i, ok = quoteEnd(sql, i); !ok {
				return false
			}
			last = sql[i]
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		default:
			last = c
		}
	}
	return last == ';'
}

// Tokens and states of sqlite3_complete, which SQLite's library does not
// export through the Go binding.
const (
	tkSemi = iota
	tkWS
	tkOther
	tkExplain
	tkCreate
	tkTemp
	tkTrigger
	tkEnd
)

var completeTrans = [8][8]uint8{
	{1, 0, 2, 3, 4, 2, 2, 2},
	{1, 1, 2, 3, 4, 2, 2, 2},
	{1, 2, 2, 2, 2, 2, 2, 2},
	{1, 3, 3, 2, 4, 2, 2, 2},
	{1, 4, 2, 2, 2, 4, 5, 2},
	{6, 5, 5, 5, 5, 5, 5, 5},
	{6, 6, 5, 5, 5, 5, 5, 7},
	{1, 7, 5, 5, 5, 5, 5, 5},
}

func idChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}

// complete is sqlite3_complete: whether sql ends a statement (a trigger's
// body included).
func complete(sql string) bool {
	state := uint8(0)
	ok := true
	for i := 0; i < len(sql); i++ {
		var tok int
		c := sql[i]
		switch {
		case c == ';':
			tok = tkSemi
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			tok = tkWS
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			if i, ok = commentEnd(sql, i); !ok {
				return false
			}
			tok = tkWS
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			nl := strings.IndexByte(sql[i:], '\n')
			if nl < 0 {
				return state == 1
			}
			i += nl
			tok = tkWS
		case c == '[' || c == '`' || c == '"' || c == '\'':
			if i, ok = quoteEnd(sql, i); !ok {
				return false
			}
			tok = tkOther
		case idChar(c):
			j := i
			for j < len(sql) && idChar(sql[j]) {
				j++
			}
			switch strings.ToLower(sql[i:j]) {
			case "create":
				tok = tkCreate
			case "trigger":
				tok = tkTrigger
			case "temp", "temporary":
				tok = tkTemp
			case "end":
				tok = tkEnd
			case "explain":
				tok = tkExplain
			default:
				tok = tkOther
			}
			i = j - 1
		default:
			tok = tkOther
		}
		state = completeTrans[state][tok]
	}
	return state == 1
}
