package find

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// expression node kinds
const (
	opPred = iota
	opNot
	opAnd
	opOr
	opComma
)

type node struct {
	op   int
	l, r *node
	fn   func(*entry) bool
	name string
}

func (f *finder) eval(n *node, e *entry) bool {
	if f.quit {
		return false
	}
	switch n.op {
	case opPred:
		return n.fn(e)
	case opNot:
		return !f.eval(n.l, e)
	case opAnd:
		return f.eval(n.l, e) && f.eval(n.r, e)
	case opOr:
		return f.eval(n.l, e) || f.eval(n.r, e)
	}
	f.eval(n.l, e)
	return f.eval(n.r, e)
}

// token kinds of the expression
const (
	tPred = iota
	tNot
	tAnd
	tOr
	tComma
	tOpen
	tClose
)

type token struct {
	kind int
	name string
	node *node
}

// predicate classes
const (
	clsTest     = iota
	clsAction   // suppresses the default -print
	clsGlobal   // global option: a true test, warned about when late
	clsPosition // positional option: not part of the expression
)

// parseError is a fatal command line error; its message is printed as
// "find: MSG".
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func perr(format string, args ...any) error {
	return &parseError{fmt.Sprintf(format, args...)}
}

// looksLikeExpression decides where the starting points end, as GNU
// find does.
func looksLikeExpression(arg string, leading bool) bool {
	if arg == "" {
		return false
	}
	switch arg[0] {
	case '-':
		return len(arg) > 1
	case ')', ',':
		return len(arg) == 1 && !leading
	case '!', '(':
		return len(arg) == 1
	}
	return false
}

// parseArgs reads the options, starting points and expression. It
// returns done with a status when find must stop (errors, --help).
func (f *finder) parseArgs(args []string) (int, bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-P":
			f.follow = followNever
		case a == "-L":
			f.follow = followAll
		case a == "-H":
			f.follow = followArgs
		case a == "--":
			i++
			goto starts
		case a == "-D":
			if i+1 >= len(args) {
				f.c.Errorf("Missing argument after the -D option.")
				return 1, true
			}
			i++
			if args[i] == "help" {
				fmt.Fprint(f.c.Stdout, "Valid arguments for -D:\nexec       Show diagnostic information relating to -exec, -execdir, -ok and -okdir\nopt        Show diagnostic information relating to optimisation\nrates      Indicate how often each predicate succeeded\nsearch     Navigate the directory tree verbosely\nstat       Trace calls to stat(2) and lstat(2)\ntime       Show diagnostic information relating to time-of-day and timestamp comparisons\ntree       Display the expression tree\n\nall        Set all of the debug flags (but help)\nhelp       Explain the various -D options\n")
				return 0, true
			}
			for _, opt := range strings.Split(args[i], ",") {
				switch opt {
				case "exec", "opt", "rates", "search", "stat", "time", "tree", "all":
				default:
					f.c.Errorf("Ignoring unrecognised debug flag %s", f.quote(opt))
				}
			}
		case strings.HasPrefix(a, "-O") && len(a) > 2:
			if _, err := strconv.Atoi(a[2:]); err != nil {
				f.c.Errorf("Please specify a decimal number immediately after -O")
				return 1, true
			}
		default:
			goto starts
		}
	}
starts:
	for ; i < len(args) && !looksLikeExpression(args[i], true); i++ {
		f.starts = append(f.starts, args[i])
	}
	if err := f.parseExpr(args[i:]); err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			f.c.Errorf("%s", pe.msg)
		}
		var he *helpExit
		if errors.As(err, &he) {
			return he.status, true
		}
		return 1, true
	}
	if f.hasFiles0 && len(f.starts) > 0 {
		f.c.Errorf("extra operand %s", f.quote(f.starts[0]))
		f.c.Errorf("file operands cannot be combined with -files0-from")
		return 1, true
	}
	if !f.hasFiles0 && len(f.starts) == 0 {
		f.starts = []string{"."}
	}
	return 0, false
}

// helpExit ends find after --help or --version.
type helpExit struct{ status int }

func (h *helpExit) Error() string { return "help" }

// parseExpr builds the expression tree.
func (f *finder) parseExpr(args []string) error {
	var toks []token
	hasAction := false
	lastPred := ""
	for i := 0; i < len(args); {
		a := args[i]
		var tok token
		switch a {
		case "!", "-not":
			tok = token{kind: tNot, name: a}
		case "-a", "-and":
			tok = token{kind: tAnd, name: a}
		case "-o", "-or":
			tok = token{kind: tOr, name: a}
		case ",":
			tok = token{kind: tComma, name: a}
		case "(":
			tok = token{kind: tOpen, name: a}
		case ")":
			tok = token{kind: tClose, name: a}
		}
		if tok.name != "" {
			if f.firstNonOp == "" {
				f.firstNonOp = a
			}
			i++
			toks = appendToken(toks, tok)
			continue
		}
		if !looksLikeExpression(a, false) {
			f.c.Errorf("paths must precede expression: `%s'", a)
			if lastPred != "" {
				if _, err := f.c.Lstat(a); err == nil {
					f.c.Errorf("possible unquoted pattern after predicate `%s'?", lastPred)
				}
			}
			return errFatal{}
		}
		n, used, cls, err := f.parsePredicate(a, args[i+1:])
		if err != nil {
			return err
		}
		lastPred = a
		i += 1 + used
		switch cls {
		case clsAction:
			hasAction = true
		case clsGlobal:
			if f.warnings && f.firstNonOp != "" {
				f.warnf("warning: you have specified the global option %s after the argument %s, but global options are not positional, i.e., %s affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.", a, f.firstNonOp, a)
			}
			if a == "-d" && f.warnings {
				f.warnf("warning: the -d option is deprecated; please use -depth instead, because the latter is a POSIX-compliant feature.")
			}
		case clsTest:
			if f.firstNonOp == "" {
				f.firstNonOp = a
			}
		}
		if cls == clsAction && f.firstNonOp == "" {
			f.firstNonOp = a
		}
		if n != nil {
			toks = appendToken(toks, token{kind: tPred, name: a, node: n})
		}
	}
	if f.sawDelete && f.sawPrune && !f.sawDepth {
		return perr("The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.")
	}
	if f.sawDelete {
		f.depthFirst = true
	}
	p := &exprParser{toks: toks}
	var root *node
	if len(toks) > 0 {
		var err error
		root, err = p.parseComma()
		if err != nil {
			return err
		}
		if p.pos < len(toks) {
			if toks[p.pos].kind == tClose {
				return perr("you have too many ')'")
			}
			return perr("unexpected extra predicate '%s'", toks[p.pos].name)
		}
	}
	if !hasAction {
		print := &node{op: opPred, name: "-print", fn: f.printFn(f.out, '\n')}
		if root == nil {
			root = print
		} else {
			root = &node{op: opAnd, l: root, r: print}
		}
	}
	f.expr = root
	return nil
}

// appendToken adds tok, inserting the implicit -a between two operands.
func appendToken(toks []token, tok token) []token {
	if len(toks) > 0 {
		prev := toks[len(toks)-1].kind
		if (prev == tPred || prev == tClose) && (tok.kind == tPred || tok.kind == tOpen || tok.kind == tNot) {
			toks = append(toks, token{kind: tAnd, name: "-a"})
		}
	}
	return append(toks, tok)
}

type exprParser struct {
	toks []token
	pos  int
}

func (p *exprParser) peek() *token {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

func (p *exprParser) parseComma() (*node, error) {
	l, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t != nil && t.kind == tComma; t = p.peek() {
		p.pos++
		if err := p.needOperand(t.name); err != nil {
			return nil, err
		}
		r, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		l = &node{op: opComma, l: l, r: r}
	}
	return l, nil
}

func (p *exprParser) parseOr() (*node, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t != nil && t.kind == tOr; t = p.peek() {
		p.pos++
		if err := p.needOperand(t.name); err != nil {
			return nil, err
		}
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		l = &node{op: opOr, l: l, r: r}
	}
	return l, nil
}

func (p *exprParser) parseAnd() (*node, error) {
	l, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t != nil && t.kind == tAnd; t = p.peek() {
		p.pos++
		if err := p.needOperand(t.name); err != nil {
			return nil, err
		}
		r, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		l = &node{op: opAnd, l: l, r: r}
	}
	return l, nil
}

// needOperand checks that something follows an operator.
func (p *exprParser) needOperand(op string) error {
	t := p.peek()
	if t == nil || t.kind == tClose {
		return perr("expected an expression after '%s'", op)
	}
	return nil
}

func (p *exprParser) parseNot() (*node, error) {
	t := p.peek()
	if t != nil && t.kind == tNot {
		p.pos++
		if err := p.needOperand(t.name); err != nil {
			return nil, err
		}
		inner, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &node{op: opNot, l: inner}, nil
	}
	return p.parsePrimary()
}

func (p *exprParser) parsePrimary() (*node, error) {
	t := p.peek()
	if t == nil {
		return nil, perr("invalid expression")
	}
	switch t.kind {
	case tPred:
		p.pos++
		return t.node, nil
	case tOpen:
		p.pos++
		next := p.peek()
		if next == nil {
			return nil, perr("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('")
		}
		if next.kind == tClose {
			return nil, perr("invalid expression; empty parentheses are not allowed.")
		}
		inner, err := p.parseComma()
		if err != nil {
			return nil, err
		}
		if c := p.peek(); c == nil || c.kind != tClose {
			return nil, perr("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.pos++
		return inner, nil
	case tAnd, tOr, tComma:
		return nil, perr("invalid expression; you have used a binary operator '%s' with nothing before it.", t.name)
	case tClose:
		return nil, perr("you have too many ')'")
	}
	return nil, perr("invalid expression")
}

func pred(name string, fn func(*entry) bool) *node {
	return &node{op: opPred, name: name, fn: fn}
}

func alwaysTrue(*entry) bool { return true }

// parsePredicate parses one primary and its arguments. It returns the
// node (nil for positional options), how many arguments it used and its
// class.
func (f *finder) parsePredicate(name string, args []string) (*node, int, int, error) {
	arg := func() (string, error) {
		if len(args) == 0 {
			return "", perr("missing argument to `%s'", name)
		}
		return args[0], nil
	}
	switch name {
	// positional options
	case "-daystart":
		if f.dayStart.Equal(f.now) {
			t := f.localTime(f.now)
			y, m, d := t.Date()
			f.dayStart = time.Date(y, m, d, 0, 0, 0, 0, f.loc).AddDate(0, 0, 1)
		}
		return nil, 0, clsPosition, nil
	case "-regextype":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		ok := false
		for _, t := range regexTypes {
			if t == a {
				ok = true
			}
		}
		if !ok {
			var list []string
			for _, t := range regexTypes {
				list = append(list, f.quote(t))
			}
			return nil, 0, 0, perr("Unknown regular expression type %s; valid types are %s.", f.quote(a), strings.Join(list, ", "))
		}
		f.regexType = a
		return nil, 1, clsPosition, nil
	case "-warn":
		f.warnings = true
		return nil, 0, clsPosition, nil
	case "-nowarn":
		f.warnings = false
		return nil, 0, clsPosition, nil

	// global options
	case "-depth", "-d":
		f.depthFirst, f.sawDepth = true, true
		return pred(name, alwaysTrue), 0, clsGlobal, nil
	case "-maxdepth", "-mindepth":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		n, ok := parseDepth(a)
		if !ok {
			return nil, 0, 0, perr("Expected a positive decimal integer argument to %s, but got %s", name, f.quote(a))
		}
		if name == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return pred(name, alwaysTrue), 1, clsGlobal, nil
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race":
		return pred(name, alwaysTrue), 0, clsGlobal, nil
	case "-follow":
		f.follow = followAll
		return pred(name, alwaysTrue), 0, clsTest, nil
	case "-files0-from":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		f.files0, f.hasFiles0 = a, true
		return pred(name, alwaysTrue), 1, clsGlobal, nil
	case "-help", "--help":
		f.help()
		return nil, 0, 0, &helpExit{0}
	case "-version", "--version":
		f.c.Version()
		return nil, 0, 0, &helpExit{0}

	// operands that test
	case "-true":
		return pred(name, alwaysTrue), 0, clsTest, nil
	case "-false":
		return pred(name, func(*entry) bool { return false }), 0, clsTest, nil
	case "-name", "-iname":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		if strings.Contains(a, "/") && f.warnings && a != "/" {
			f.warnf("warning: %s matches against basenames only, but the given pattern contains a directory separator (%s), thus the expression will evaluate to false all the time.  Did you mean %s?", f.quote(name), f.quote("/"), f.quote("-wholename"))
		}
		g := compileGlob(a, name == "-iname")
		return pred(name, func(e *entry) bool { return g.match(nameOf(e.path)) }), 1, clsTest, nil
	case "-path", "-ipath", "-wholename", "-iwholename":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		g := compileGlob(a, name[1] == 'i')
		return pred(name, func(e *entry) bool { return g.match(e.path) }), 1, clsTest, nil
	case "-lname", "-ilname":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		g := compileGlob(a, name == "-ilname")
		return pred(name, func(e *entry) bool {
			if e.info.Mode()&modeSymlink == 0 {
				return false
			}
			t, err := f.readlink(e)
			return err == nil && g.match(t)
		}), 1, clsTest, nil
	case "-regex", "-iregex":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		re, err := compileRegex(f.ctx, a, f.regexType, name == "-iregex")
		if err != nil {
			return nil, 0, 0, perr("failed to compile regular expression '%s': %s", a, err.Error())
		}
		re.onLimit = func(path string) {
			f.errorf("%s: regular expression match exceeded its backtracking limit; -regex is false from here on", f.quote(path))
		}
		return pred(name, func(e *entry) bool { return re.match(e.path) }), 1, clsTest, nil
	case "-type", "-xtype":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		var set [256]bool
		if a == "" {
			return nil, 0, 0, perr("Arguments to %s should contain at least one letter", name)
		}
		for i := 0; i < len(a); i++ {
			c := a[i]
			if i%2 == 1 {
				if c != ',' {
					return nil, 0, 0, perr("Must separate multiple arguments to %s using: ','", name)
				}
				if i == len(a)-1 {
					return nil, 0, 0, perr("Last file type in list argument to %s is missing, i.e., list is ending on: ','", name)
				}
				continue
			}
			switch c {
			case 'b', 'c', 'd', 'p', 'f', 'l', 's':
			case 'D':
				return nil, 0, 0, perr("%s D is not supported because Solaris doors are not supported on the platform find was compiled on.", name)
			default:
				return nil, 0, 0, perr("Unknown argument to %s: %c", name, c)
			}
			if set[c] {
				return nil, 0, 0, perr("Duplicate file type '%c' in the argument list to %s.", c, name)
			}
			set[c] = true
		}
		if name == "-type" {
			return pred(name, func(e *entry) bool { return set[typeChar(e.info.Mode())] }), 1, clsTest, nil
		}
		return pred(name, func(e *entry) bool { return f.xtype(e, &set) }), 1, clsTest, nil
	case "-empty":
		return pred(name, func(e *entry) bool {
			m := e.info.Mode()
			switch {
			case m.IsDir():
				list, err := f.c.FS.ReadDir(e.absPath())
				if err != nil {
					f.fileError(e.path, err)
					return false
				}
				return len(list) == 0
			case m.IsRegular():
				return e.info.Size() == 0
			}
			return false
		}), 0, clsTest, nil
	case "-size":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		fn, err := parseSize(a)
		if err != nil {
			return nil, 0, 0, err
		}
		return pred(name, fn), 1, clsTest, nil
	case "-perm":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		fn, err := f.parsePerm(a)
		if err != nil {
			return nil, 0, 0, err
		}
		return pred(name, fn), 1, clsTest, nil
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		fn, ok := f.parseTime(name, a)
		if !ok {
			return nil, 0, 0, perr("invalid argument `%s' to `%s'", a, name)
		}
		return pred(name, fn), 1, clsTest, nil
	case "-newer", "-anewer", "-cnewer":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		ref, err := f.refStat(a)
		if err != nil {
			return nil, 0, 0, err
		}
		t := ref.ModTime()
		get := timeGetter(name[1])
		return pred(name, func(e *entry) bool { return get(e).After(t) }), 1, clsTest, nil
	case "-used":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		cmp, v, ok := parseNumArg(a, true)
		if !ok {
			return nil, 0, 0, perr("invalid argument `%s' to `%s'", a, name)
		}
		return pred(name, func(e *entry) bool {
			days := e.atime().Sub(e.ctime()).Seconds() / 86400
			switch cmp {
			case cmpGT:
				return days > v
			case cmpLT:
				return days < v
			}
			return days >= v-1 && days < v
		}), 1, clsTest, nil
	case "-links", "-inum", "-uid", "-gid":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		cmp, v, ok := parseNumArg(a, false)
		if !ok {
			return nil, 0, 0, perr("invalid argument `%s' to `%s'", a, name)
		}
		var get func(*entry) float64
		switch name {
		case "-links":
			get = func(e *entry) float64 { return float64(f.nlink(e)) }
		case "-inum":
			get = func(e *entry) float64 {
				if n := e.inode(); n != 0 {
					return float64(n)
				}
				return -1
			}
		case "-uid":
			get = func(e *entry) float64 { return float64(f.owner(e).UID) }
		default:
			get = func(e *entry) float64 { return float64(f.owner(e).GID) }
		}
		return pred(name, func(e *entry) bool { return compareNum(cmp, get(e), v) }), 1, clsTest, nil
	case "-user", "-group":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		id, ok := f.lookupID(a, name == "-group")
		if !ok {
			if name == "-user" {
				return nil, 0, 0, perr("%s is not the name of a known user", f.quote(a))
			}
			return nil, 0, 0, perr("%s is not the name of an existing group", f.quote(a))
		}
		group := name == "-group"
		return pred(name, func(e *entry) bool {
			o := f.owner(e)
			if group {
				return o.GID == id
			}
			return o.UID == id
		}), 1, clsTest, nil
	case "-nouser":
		return pred(name, func(e *entry) bool { return f.owner(e).User == "" }), 0, clsTest, nil
	case "-nogroup":
		return pred(name, func(e *entry) bool { return f.owner(e).Group == "" }), 0, clsTest, nil
	case "-readable":
		return pred(name, func(e *entry) bool { return e.info.Mode()&0o400 != 0 }), 0, clsTest, nil
	case "-writable":
		return pred(name, func(e *entry) bool { return e.info.Mode()&0o200 != 0 }), 0, clsTest, nil
	case "-executable":
		return pred(name, func(e *entry) bool { return e.info.Mode()&0o100 != 0 }), 0, clsTest, nil
	case "-samefile":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		fn, err := f.parseSamefile(a)
		if err != nil {
			return nil, 0, 0, err
		}
		return pred(name, fn), 1, clsTest, nil
	case "-fstype":
		a, err := arg()
		if err != nil {
			return nil, 0, 0, err
		}
		return pred(name, func(e *entry) bool { return fsType(e) == a }), 1, clsTest, nil
	case "-prune":
		f.sawPrune = true
		return pred(name, func(e *entry) bool {
			if !f.depthFirst {
				e.prune = true
			}
			return true
		}), 0, clsTest, nil
	case "-quit":
		return pred(name, func(*entry) bool {
			f.quit = true
			return true
		}), 0, clsTest, nil
	}
	if strings.HasPrefix(name, "-newer") && len(name) == 8 {
		return f.parseNewerXY(name, args)
	}
	return f.parseAction(name, args)
}
