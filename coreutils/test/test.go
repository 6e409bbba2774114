// Package test implements the test and [ programs (/bin/test, /bin/[):
// evaluate a conditional expression. Plain `test` and `[` in a script are
// the shell's builtins; this is what a path, env, xargs or find -exec
// reach, so its messages are GNU's (`[: missing ‘]’`, `invalid integer
// ‘x’`). The grammar is POSIX's rules by argument count for up to four
// arguments, then ! -a -o ( ) with unary and binary primaries.
package test

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/overlayfs"
)

// syntaxError ends the evaluation with status 2.
type syntaxError struct{ msg string }

type tester struct {
	c    *builtins.Call
	argv []string
	pos  int
}

// Run evaluates the expression and returns 0 (true), 1 (false) or 2 (an
// error).
func Run(ctx context.Context, c *builtins.Call) (status int) {
	args := c.Args[1:]
	if path.Base(c.Name()) == "[" {
		if len(args) == 1 {
			switch args[0] {
			case "--help":
				help(c)
				return 0
			case "--version":
				return c.Version()
			}
		}
		if len(args) == 0 || args[len(args)-1] != "]" {
			c.Errorf("missing ‘]’")
			return 2
		}
		args = args[:len(args)-1]
	}
	t := &tester{c: c, argv: args}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			c.Errorf("%s", se.msg)
			status = 2
		}
	}()
	if t.posix() {
		return 0
	}
	return 1
}

func help(c *builtins.Call) {
	fmt.Fprint(c.Stdout, `Usage: test EXPRESSION
  or:  test
  or:  [ EXPRESSION ]
  or:  [ ]
  or:  [ OPTION
Exit with the status determined by EXPRESSION.

      --help        display this help and exit
      --version     output version information and exit

An omitted EXPRESSION defaults to false.  Otherwise, EXPRESSION is true or
false and sets exit status.  It is one of:

  ( EXPRESSION )               EXPRESSION is true
  ! EXPRESSION                 EXPRESSION is false
  EXPRESSION1 -a EXPRESSION2   both EXPRESSION1 and EXPRESSION2 are true
  EXPRESSION1 -o EXPRESSION2   either EXPRESSION1 or EXPRESSION2 is true

  -n STRING            the length of STRING is nonzero
  STRING               equivalent to -n STRING
  -z STRING            the length of STRING is zero
  STRING1 = STRING2    the strings are equal
  STRING1 != STRING2   the strings are not equal
  STRING1 < STRING2    STRING1 sorts before STRING2
  STRING1 > STRING2    STRING1 sorts after STRING2

  INTEGER1 -eq INTEGER2   INTEGER1 is equal to INTEGER2
  INTEGER1 -ge INTEGER2   INTEGER1 is greater than or equal to INTEGER2
  INTEGER1 -gt INTEGER2   INTEGER1 is greater than INTEGER2
  INTEGER1 -le INTEGER2   INTEGER1 is less than or equal to INTEGER2
  INTEGER1 -lt INTEGER2   INTEGER1 is less than INTEGER2
  INTEGER1 -ne INTEGER2   INTEGER1 is not equal to INTEGER2

  FILE1 -ef FILE2   FILE1 and FILE2 are the same file
  FILE1 -nt FILE2   FILE1 is newer (modification date) than FILE2
  FILE1 -ot FILE2   FILE1 is older than FILE2

  -b FILE     FILE exists and is block special
  -c FILE     FILE exists and is character special
  -d FILE     FILE exists and is a directory
  -e FILE     FILE exists
  -f FILE     FILE exists and is a regular file
  -g FILE     FILE exists and is set-group-ID
  -G FILE     FILE exists and is owned by the effective group ID
  -h FILE     FILE exists and is a symbolic link (same as -L)
  -k FILE     FILE exists and has its sticky bit set
  -L FILE     FILE exists and is a symbolic link (same as -h)
  -N FILE     FILE exists and has been modified since it was last read
  -O FILE     FILE exists and is owned by the effective user ID
  -p FILE     FILE exists and is a named pipe
  -r FILE     FILE exists and the user has read access
  -s FILE     FILE exists and has a size greater than zero
  -S FILE     FILE exists and is a socket
  -t FD       file descriptor FD is opened on a terminal
  -u FILE     FILE exists and its set-user-ID bit is set
  -w FILE     FILE exists and the user has write access
  -x FILE     FILE exists and the user has execute (or search) access
`)
}

func (t *tester) fail(format string, args ...any) {
	panic(syntaxError{fmt.Sprintf(format, args...)})
}

// beyond is GNU's error for an expression cut short: it names the last
// argument.
func (t *tester) beyond() { t.fail("missing argument after ‘%s’", t.argv[len(t.argv)-1]) }

func (t *tester) advance(need bool) {
	t.pos++
	if need && t.pos >= len(t.argv) {
		t.beyond()
	}
}

func (t *tester) arg(i int) string {
	if i < len(t.argv) {
		return t.argv[i]
	}
	return ""
}

func (t *tester) posix() bool {
	var v bool
	switch len(t.argv) {
	case 0:
		return false
	case 1:
		return t.argv[0] != ""
	case 2:
		v = t.two()
		t.pos = len(t.argv)
	case 3:
		v = t.three()
	case 4:
		switch {
		case t.argv[0] == "!":
			t.advance(true)
			v = !t.three()
		case t.argv[0] == "(" && t.argv[3] == ")":
			t.advance(true)
			v = t.two()
			t.pos = len(t.argv)
		default:
			v = t.expr()
		}
	default:
		v = t.expr()
	}
	if t.pos != len(t.argv) {
		t.fail("extra argument ‘%s’", t.arg(t.pos))
	}
	return v
}

func (t *tester) two() bool {
	a := t.argv[t.pos]
	switch {
	case a == "!":
		return t.argv[t.pos+1] == ""
	case len(a) == 2 && a[0] == '-' && isUnop(a):
		return t.unary()
	case len(a) == 2 && a[0] == '-':
		t.fail("‘%s’: unary operator expected", a)
	}
	t.beyond()
	return false
}

func (t *tester) three() bool {
	p := t.pos
	a0, a1, a2 := t.argv[p], t.argv[p+1], t.argv[p+2]
	var v bool
	switch {
	case isBinop(a1):
		v = t.binary()
	case a1 == "-a":
		v = a0 != "" && a2 != ""
	case a1 == "-o":
		v = a0 != "" || a2 != ""
	case a0 == "!":
		t.advance(true)
		v = !t.two()
	case a0 == "(" && a2 == ")":
		v = a1 != ""
	default:
		t.fail("‘%s’: binary operator expected", a1)
	}
	t.pos = len(t.argv)
	return v
}

func (t *tester) expr() bool {
	if t.pos >= len(t.argv) {
		t.beyond()
	}
	return t.or()
}

func (t *tester) or() bool {
	v := t.and()
	if t.pos < len(t.argv) && t.argv[t.pos] == "-o" {
		t.advance(false)
		v2 := t.or()
		return v || v2
	}
	return v
}

func (t *tester) and() bool {
	v := t.term()
	if t.pos < len(t.argv) && t.argv[t.pos] == "-a" {
		t.advance(false)
		v2 := t.and()
		return v && v2
	}
	return v
}

func (t *tester) term() bool {
	if t.pos >= len(t.argv) {
		t.beyond()
	}
	a := t.argv[t.pos]
	if a == "!" {
		neg := false
		for t.pos < len(t.argv) && t.argv[t.pos] == "!" {
			t.advance(true)
			neg = !neg
		}
		if neg {
			return !t.term()
		}
		return t.term()
	}
	if a == "(" {
		t.advance(true)
		v := t.expr()
		if t.pos >= len(t.argv) {
			t.fail("‘)’ expected")
		}
		if t.argv[t.pos] != ")" {
			t.fail("‘)’ expected, found ‘%s’", t.argv[t.pos])
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= len(t.argv) && isBinop(t.argv[t.pos+1]) {
		return t.binary()
	}
	if len(a) == 2 && a[0] == '-' {
		if !isUnop(a) {
			t.fail("‘%s’: unary operator expected", a)
		}
		return t.unary()
	}
	t.advance(false)
	return a != ""
}

func isUnop(op string) bool {
	return len(op) == 2 && op[0] == '-' && strings.IndexByte("bcdefghknprstuwxzGLNOS", op[1]) >= 0
}

func isBinop(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// unary evaluates the unary primary at pos and moves past its operand.
func (t *tester) unary() bool {
	op := t.argv[t.pos]
	if op == "-t" {
		t.advance(false)
		if t.pos < len(t.argv) {
			if _, ok := legalNumber(t.argv[t.pos]); ok {
				t.advance(false)
			}
			return false
		}
		return false
	}
	t.advance(true)
	arg := t.argv[t.pos]
	t.advance(false)
	c := t.c
	switch op[1] {
	case 'n':
		return arg != ""
	case 'z':
		return arg == ""
	case 'h', 'L':
		fi, err := c.Lstat(arg)
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	if arg == "" {
		return false
	}
	fi, err := c.Stat(arg)
	if err != nil {
		return false
	}
	m := fi.Mode()
	switch op[1] {
	case 'a', 'e':
		return true
	case 'f':
		return m.IsRegular()
	case 'd':
		return m.IsDir()
	case 'b':
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	case 'c':
		return m&fs.ModeCharDevice != 0
	case 'p':
		return m&fs.ModeNamedPipe != 0
	case 'S':
		return m&fs.ModeSocket != 0
	case 's':
		return fi.Size() > 0
	case 'g':
		return m&fs.ModeSetgid != 0
	case 'u':
		return m&fs.ModeSetuid != 0
	case 'k':
		return m&fs.ModeSticky != 0
	case 'r':
		return m&0o400 != 0
	case 'w':
		return m&0o200 != 0
	case 'x':
		return m&0o100 != 0
	case 'O', 'G':
		return true
	case 'N':
		at, ok := accessTime(fi)
		return ok && fi.ModTime().After(at)
	}
	return false
}

// binary evaluates ARG1 OP ARG2 at pos.
func (t *tester) binary() bool {
	a, op, b := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	t.pos += 3
	switch op {
	case "=", "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case ">":
		return a > b
	case "-nt", "-ot":
		if op == "-ot" {
			a, b = b, a
		}
		fa, ea := t.c.Stat(a)
		fb, eb := t.c.Stat(b)
		switch {
		case ea != nil:
			return false
		case eb != nil:
			return true
		}
		return fa.ModTime().After(fb.ModTime())
	case "-ef":
		return sameFile(t.c, a, b)
	}
	x, ok := legalNumber(a)
	if !ok {
		t.fail("invalid integer ‘%s’", a)
	}
	y, ok := legalNumber(b)
	if !ok {
		t.fail("invalid integer ‘%s’", b)
	}
	switch op {
	case "-eq":
		return x == y
	case "-ne":
		return x != y
	case "-lt":
		return x < y
	case "-le":
		return x <= y
	case "-gt":
		return x > y
	case "-ge":
		return x >= y
	}
	return false
}

// legalNumber parses a decimal integer as bash does: surrounding white
// space allowed, an optional sign, no overflow.
func legalNumber(s string) (int64, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return 0, false
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	if body == "" || strings.IndexFunc(body, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	return v, err == nil
}

// sameFile reports whether two names lead to the same file: the same
// device and inode when the filesystem tells them, else the same
// physical path.
func sameFile(c *builtins.Call, a, b string) bool {
	fa, err := c.Stat(a)
	if err != nil {
		return false
	}
	fb, err := c.Stat(b)
	if err != nil {
		return false
	}
	if ia, ok := overlayfs.Identity(fa); ok {
		ib, ok := overlayfs.Identity(fb)
		return ok && ia == ib
	}
	pa, err := procutil.Realpath(c, a)
	if err != nil {
		return false
	}
	pb, err := procutil.Realpath(c, b)
	return err == nil && pa == pb
}

func accessTime(fi fs.FileInfo) (time.Time, bool) {
	st, ok := overlayfs.SysStat(fi)
	if !ok {
		return time.Time{}, false
	}
	return st.Atime, true
}
