package interp

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// test and [ as bash's test.c parses them: POSIX's rules by argument
// count up to four, then a recursive descent over -o, -a, !, ( ). The
// operators share [[ ]]'s implementation; integers must be decimal.

// testUnary returns the unary operator op names (a switch: [ runs once
// per loop iteration, and a map would be built at every start).
func testUnary(op string) (syntax.UnTestOperator, bool) {
	switch op {
	case "-a", "-e":
		return syntax.TsExists, true
	case "-f":
		return syntax.TsRegFile, true
	case "-d":
		return syntax.TsDirect, true
	case "-c":
		return syntax.TsCharSp, true
	case "-b":
		return syntax.TsBlckSp, true
	case "-p":
		return syntax.TsNmPipe, true
	case "-S":
		return syntax.TsSocket, true
	case "-L", "-h":
		return syntax.TsSmbLink, true
	case "-k":
		return syntax.TsSticky, true
	case "-g":
		return syntax.TsGIDSet, true
	case "-u":
		return syntax.TsUIDSet, true
	case "-G":
		return syntax.TsGrpOwn, true
	case "-O":
		return syntax.TsUsrOwn, true
	case "-N":
		return syntax.TsModif, true
	case "-r":
		return syntax.TsRead, true
	case "-w":
		return syntax.TsWrite, true
	case "-x":
		return syntax.TsExec, true
	case "-s":
		return syntax.TsNoEmpty, true
	case "-t":
		return syntax.TsFdTerm, true
	case "-z":
		return syntax.TsEmpStr, true
	case "-n":
		return syntax.TsNempStr, true
	case "-o":
		return syntax.TsOptSet, true
	case "-v":
		return syntax.TsVarSet, true
	case "-R":
		return syntax.TsRefVar, true
	}
	return 0, false
}

// isTestBinary says whether op is one of test's binary operators (a
// switch: [ runs once per loop iteration).
func isTestBinary(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// testError is a syntax error of test's arguments: status 2.
type testError string

type tester struct {
	f    *frame
	argv []string
	pos  int
}

func (f *frame) biTest(args []string) int {
	name := args[0]
	argv := args[1:]
	if name == "[" {
		if len(argv) == 0 || argv[len(argv)-1] != "]" {
			f.errorf("[: missing `]'")
			return 2
		}
		argv = argv[:len(argv)-1]
	}
	t := &tester{f: f, argv: argv}
	v, err := t.run()
	if err != "" {
		f.errorf("%s: %s", name, err)
		return 2
	}
	return boolStatus(v)
}

func (t *tester) run() (v bool, err testError) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(testError)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	n := len(t.argv)
	if n == 0 {
		return false, ""
	}
	v = t.posix()
	if t.pos != n {
		if t.pos < n && strings.HasPrefix(t.argv[t.pos], "-") {
			panic(testError("syntax error: `" + t.argv[t.pos] + "' unexpected"))
		}
		panic(testError("too many arguments"))
	}
	return v, ""
}

func (t *tester) posix() bool {
	n := len(t.argv)
	switch n {
	case 1:
		t.pos = n
		return t.argv[0] != ""
	case 2:
		v := t.two()
		t.pos = n
		return v
	case 3:
		return t.three()
	case 4:
		if t.argv[0] == "!" {
			t.pos++
			return !t.three()
		}
		if t.argv[0] == "(" && t.argv[3] == ")" {
			t.pos++
			v := t.two()
			t.pos = n
			return v
		}
	}
	return t.expr()
}

func (t *tester) two() bool {
	a := t.argv[t.pos]
	if a == "!" {
		return t.argv[t.pos+1] == ""
	}
	if _, ok := testUnary(a); ok {
		return t.unary()
	}
	panic(testError(a + ": unary operator expected"))
}

func (t *tester) three() bool {
	a, op, b := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	switch {
	case isTestBinary(op):
		v := t.binary()
		t.pos = len(t.argv)
		return v
	case op == "-a":
		t.pos = len(t.argv)
		return a != "" && b != ""
	case op == "-o":
		t.pos = len(t.argv)
		return a != "" || b != ""
	case a == "!":
		t.pos++
		v := !t.two()
		t.pos = len(t.argv)
		return v
	case a == "(" && b == ")":
		t.pos = len(t.argv)
		return op != ""
	}
	panic(testError(op + ": binary operator expected"))
}

func (t *tester) advance(need bool) {
	t.pos++
	if need && t.pos >= len(t.argv) {
		panic(testError("argument expected"))
	}
}

func (t *tester) expr() bool {
	if t.pos >= len(t.argv) {
		panic(testError("argument expected"))
	}
	return t.or()
}

func (t *tester) or() bool {
	v := t.and()
	for t.pos < len(t.argv) && t.argv[t.pos] == "-o" {
		t.advance(false)
		w := t.or()
		v = v || w
	}
	return v
}

func (t *tester) and() bool {
	v := t.term()
	for t.pos < len(t.argv) && t.argv[t.pos] == "-a" {
		t.advance(false)
		w := t.and()
		v = v && w
	}
	return v
}

func (t *tester) term() bool {
	n := len(t.argv)
	if t.pos >= n {
		panic(testError("argument expected"))
	}
	if t.argv[t.pos] == "!" {
		neg := false
		for t.pos < n && t.argv[t.pos] == "!" {
			t.advance(true)
			neg = !neg
		}
		return t.term() != neg
	}
	if t.argv[t.pos] == "(" {
		t.advance(true)
		v := t.expr()
		if t.pos >= n {
			panic(testError("`)' expected"))
		}
		if t.argv[t.pos] != ")" {
			panic(testError("`)' expected, found " + t.argv[t.pos]))
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= n && isTestBinary(t.argv[t.pos+1]) {
		return t.binary()
	}
	if _, ok := testUnary(t.argv[t.pos]); ok && t.pos+2 <= n {
		return t.unary()
	}
	v := t.argv[t.pos] != ""
	t.pos++
	return v
}

func (t *tester) unary() bool {
	op, arg := t.argv[t.pos], t.argv[t.pos+1]
	t.pos += 2
	if op == "-t" {
		return false // no descriptor is a terminal
	}
	u, _ := testUnary(op)
	v, _ := t.f.unaryTest(u, arg)
	return v
}

func (t *tester) binary() bool {
	l, op, r := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	t.pos += 3
	switch op {
	case "=", "==":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case ">":
		return l > r
	case "-nt", "-ot", "-ef":
		v, _ := t.f.binaryTest(map[string]syntax.BinTestOperator{"-nt": syntax.TsNewer, "-ot": syntax.TsOlder, "-ef": syntax.TsDevIno}[op], l, r)
		return v
	}
	a, b := testInt(l), testInt(r)
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	}
	return a >= b
}

// testInt reads a decimal integer with optional blanks around it, as
// bash's legal_number does.
func testInt(s string) int64 {
	if n, ok := plainInt(s); ok {
		return n
	}
	n, err := strconv.ParseInt(strings.Trim(s, " \t\n"), 10, 64)
	if err != nil || strings.TrimSpace(s) == "" {
		panic(testError(s + ": integer expression expected"))
	}
	return n
}

// plainInt reads an optionally signed run of at most 18 decimal digits,
// the common operand, without the trimming and overflow checks testInt
// falls back to.
func plainInt(s string) (int64, bool) {
	i := 0
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		i = 1
	}
	if i == len(s) || len(s)-i > 18 {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}
