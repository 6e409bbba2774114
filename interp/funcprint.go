package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// funcPrinter prints a function as bash 5.2 does (declare -f, type, the
// environment of exported functions): its layout rules, with each word
// as it was written. It follows bash's printer closely: indentation,
// "skip the next indent" after a connector, a semicolon after the bodies
// of if, for and while, case items ended by ";;" on their own line.
type funcPrinter struct {
	b      strings.Builder
	src    string // the source the function was read from
	indent int
	amount int // 4; 0 for the one-line form of the environment
	skip   int
	inFunc int
	hdocs  []hdoc // here-documents printed after the command line
}

// hdoc is a here-document's body and delimiter, printed after the
// command line.
type hdoc string

// funcText prints a function as declare -f does.
func funcText(name string, body *syntax.Stmt) string {
	return funcTextSrc(name, body, "", true)
}

// funcTextSrc prints a function; src is the source its words are cut
// from (else they are printed from the tree). multiline is declare -f's
// form; without it, the form of an exported function's value.
func funcTextSrc(name string, body *syntax.Stmt, src string, multiline bool) string {
	p := &funcPrinter{src: src, amount: 4}
	if name != "" {
		if shellKeywords.Get()[name] {
			p.put("function ")
		}
		p.put(name + " ")
	}
	p.put("() ")
	if multiline {
		p.put("\n")
		p.indent += p.amount
	} else {
		p.indent, p.amount = 1, 0
	}
	p.inFunc++
	if multiline {
		p.put("{ \n")
	} else {
		p.put("{ ")
	}
	var redirs []*syntax.Redirect
	if blk, ok := body.Cmd.(*syntax.Block); ok && !body.Negated && !body.Background {
		redirs = body.Redirs
		p.list(blk.Stmts)
	} else {
		p.stmt(body)
	}
	p.indent, p.amount = 0, 4
	p.inFunc--
	if len(redirs) > 0 {
		p.newline("} ")
		p.redirs(redirs)
	} else {
		p.newline("}")
	}
	return p.b.String()
}

func (p *funcPrinter) put(s string) { p.b.WriteString(s) }

func (p *funcPrinter) doIndent() {
	for i := 0; i < p.indent; i++ {
		p.b.WriteByte(' ')
	}
}

// newline is bash's: a newline, the indentation, then s.
func (p *funcPrinter) newline(s string) {
	p.put("\n")
	p.doIndent()
	p.put(s)
}

// semicolon adds ";" unless the text ends a line or a background job.
func (p *funcPrinter) semicolon() {
	s := p.b.String()
	if n := len(s); n > 0 && (s[n-1] == '&' || s[n-1] == '\n') {
		return
	}
	p.put(";")
}

// startCommand indents a command unless a connector said not to.
func (p *funcPrinter) startCommand() {
	if p.skip > 0 {
		p.skip--
		return
	}
	p.doIndent()
}

// list prints statements as bash's chain of connections.
func (p *funcPrinter) list(stmts []*syntax.Stmt) {
	if len(stmts) == 0 {
		return
	}
	if len(stmts) > 1 {
		p.startCommand()
		p.skip++
	}
	for i, st := range stmts {
		p.stmtNoBg(st)
		last := i == len(stmts)-1
		if st.Background {
			p.put(" &")
			if !last {
				p.put(" ")
				p.skip++
			}
			continue
		}
		if last {
			p.flushHdocs()
			break
		}
		if p.flushHdocs() {
			if p.inFunc > 0 {
				p.put("\n")
			} else {
				p.put(" ")
				p.skip++
			}
			continue
		}
		p.put(";")
		if p.inFunc > 0 {
			p.put("\n")
		} else {
			p.put(" ")
			p.skip++
		}
	}
}

// flushHdocs prints the pending here-documents: their headers, then
// their bodies on the lines after.
func (p *funcPrinter) flushHdocs() bool {
	if len(p.hdocs) == 0 {
		return false
	}
	p.put("\n")
	for _, h := range p.hdocs {
		p.put(string(h) + "\n")
	}
	p.hdocs = nil
	return true
}

func (p *funcPrinter) stmt(st *syntax.Stmt) {
	p.stmtNoBg(st)
	if st.Background {
		p.put(" &")
	}
}

func (p *funcPrinter) stmtNoBg(st *syntax.Stmt) {
	p.startCommand()
	if st.Negated {
		p.put("! ")
	}
	p.command(st.Cmd, st.Redirs)
}

func (p *funcPrinter) command(cmd syntax.Command, redirs []*syntax.Redirect) {
	simple := false
	switch c := cmd.(type) {
	case nil:
		simple = true
		p.redirs(redirs)
	case *syntax.CallExpr:
		simple = true
		var words []string
		for _, as := range c.Assigns {
			words = append(words, p.assign(as))
		}
		for _, w := range c.Args {
			words = append(words, p.word(w))
		}
		p.put(strings.Join(words, " "))
		if len(redirs) > 0 && len(words) > 0 {
			p.put(" ")
		}
		p.redirs(redirs)
	case *syntax.DeclClause, *syntax.LetClause:
		simple = true
		p.put(p.nodeText(c, func() string { return printed(c) }))
		if len(redirs) > 0 {
			p.put(" ")
		}
		p.redirs(redirs)
	case *syntax.BinaryCmd:
		p.binary(c)
	case *syntax.Block:
		p.group(c.Stmts)
	case *syntax.Subshell:
		p.put("( ")
		p.skip++
		p.list(c.Stmts)
		p.put(" )")
	case *syntax.IfClause:
		p.ifClause(c)
	case *syntax.WhileClause:
		kw := "while"
		if c.Until {
			kw = "until"
		}
		p.head(kw, c.Cond, "do")
		p.body(c.Do)
		p.newline("done")
	case *syntax.ForClause:
		p.forClause(c)
	case *syntax.CaseClause:
		p.put("case " + p.word(c.Word) + " in ")
		p.indent += p.amount
		for _, it := range c.Items {
			p.newline("")
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = p.word(w)
			}
			p.put(strings.Join(pats, " | ") + ")\n")
			p.indent += p.amount
			p.list(it.Stmts)
			p.indent -= p.amount
			switch it.Op {
			case syntax.Fallthrough:
				p.newline(";&")
			case syntax.Resume:
				p.newline(";;&")
			default:
				p.newline(";;")
			}
		}
		p.indent -= p.amount
		p.newline("esac")
	case *syntax.ArithmCmd:
		p.put("((" + p.arithText(c.X, c.Left, c.Right, 2) + "))")
	case *syntax.TestClause:
		p.put("[[ " + p.testText(c.X) + " ]]")
	case *syntax.FuncDecl:
		p.put("function " + c.Name.Value + " () \n")
		p.doIndent()
		p.put("{ \n")
		p.inFunc++
		p.indent += p.amount
		var fr []*syntax.Redirect
		if blk, ok := c.Body.Cmd.(*syntax.Block); ok {
			fr = c.Body.Redirs
			p.list(blk.Stmts)
		} else {
			p.stmt(c.Body)
		}
		p.indent -= p.amount
		p.inFunc--
		if len(fr) > 0 {
			p.newline("} ")
			p.redirs(fr)
		} else {
			p.newline("}")
		}
	case *syntax.TimeClause:
		p.put("time ")
		if c.PosixFormat {
			p.put("-p ")
		}
		if c.Stmt != nil {
			p.skip++
			p.stmt(c.Stmt)
		}
	case *syntax.CoprocClause:
		p.put("coproc ")
		if c.Name != nil {
			p.put(p.word(c.Name) + " ")
		}
		p.skip++
		p.stmt(c.Stmt)
	default:
		p.put(printed(cmd))
	}
	if !simple && len(redirs) > 0 {
		p.put(" ")
		p.redirs(redirs)
	}
}

func (p *funcPrinter) binary(c *syntax.BinaryCmd) {
	p.skip++
	p.stmt(c.X)
	switch c.Op {
	case syntax.AndStmt:
		p.put(" && ")
	case syntax.OrStmt:
		p.put(" || ")
	case syntax.Pipe:
		p.put(" | ")
	case syntax.PipeAll:
		p.put(" |& ")
	}
	p.skip++
	p.stmt(c.Y)
}

func (p *funcPrinter) group(stmts []*syntax.Stmt) {
	p.put("{ ")
	if p.inFunc == 0 {
		p.skip++
	} else {
		p.put("\n")
		p.indent += p.amount
	}
	p.list(stmts)
	if p.inFunc > 0 {
		p.put("\n")
		p.indent -= p.amount
		p.doIndent()
	} else {
		p.semicolon()
		p.put(" ")
	}
	p.put("}")
}

// body prints the body of if, for and while: one level deeper, with a
// semicolon after it.
func (p *funcPrinter) body(stmts []*syntax.Stmt) {
	p.indent += p.amount
	p.list(stmts)
	p.semicolon()
	p.indent -= p.amount
}

// head prints "if COND; then" and "while COND; do", the condition on the
// keyword's line.
func (p *funcPrinter) head(kw string, cond []*syntax.Stmt, then string) {
	p.put(kw + " ")
	p.skip++
	p.list(cond)
	p.semicolon()
	p.put(" " + then + "\n")
}

func (p *funcPrinter) ifClause(c *syntax.IfClause) {
	p.head("if", c.Cond, "then")
	p.body(c.Then)
	if e := c.Else; e != nil {
		p.newline("else\n")
		if len(e.Cond) == 0 { // else
			p.body(e.Then)
		} else { // elif: bash keeps it as an if inside the else
			p.indent += p.amount
			p.doIndent()
			p.ifClause(e)
			p.semicolon()
			p.indent -= p.amount
		}
	}
	p.newline("fi")
}

func (p *funcPrinter) forClause(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if c.Select {
			p.put("select ")
		} else {
			p.put("for ")
		}
		p.put(l.Name.Value + " in ")
		if !l.InPos.IsValid() {
			p.put(`"$@"`)
		} else {
			ws := make([]string, len(l.Items))
			for i, w := range l.Items {
				ws[i] = p.word(w)
			}
			p.put(strings.Join(ws, " "))
		}
		p.put(";")
	case *syntax.CStyleLoop:
		p.put("for ((")
		parts := []syntax.ArithmExpr{l.Init, l.Cond, l.Post}
		for i, x := range parts {
			if i > 0 {
				p.put("; ")
			}
			if x != nil {
				p.put(strings.TrimSpace(p.arithText(x, syntax.Pos{}, syntax.Pos{}, 0)))
			}
		}
		p.put("))")
	}
	p.newline("do\n")
	p.body(c.Do)
	p.newline("done")
}

// redirs prints redirections as bash does: "> file", "2>&1", "1>&2".
func (p *funcPrinter) redirs(rs []*syntax.Redirect) {
	for i, r := range rs {
		if i > 0 {
			p.put(" ")
		}
		fd := ""
		if r.N != nil {
			fd = r.N.Value // a number or {var}
		}
		target := ""
		if r.Word != nil {
			target = p.word(r.Word)
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
			if fd == "1" {
				fd = ""
			}
			p.put(fd + r.Op.String() + " " + target)
		case syntax.RdrIn, syntax.RdrInOut:
			if fd == "0" {
				fd = ""
			}
			p.put(fd + r.Op.String() + " " + target)
		case syntax.DplOut, syntax.DplIn:
			if fd == "" {
				fd = "1"
				if r.Op == syntax.DplIn {
					fd = "0"
				}
			}
			p.put(fd + r.Op.String() + target)
		case syntax.RdrAll, syntax.AppAll:
			p.put(r.Op.String() + " " + target)
		case syntax.Hdoc, syntax.DashHdoc:
			p.put(fd + r.Op.String() + target)
			p.hdocs = append(p.hdocs, p.hdocBody(r, target))
		case syntax.WordHdoc:
			p.put(fd + "<<< " + target)
		default:
			p.put(printed(r))
		}
	}
}

// assign is an assignment word as written, its value as word prints it.
func (p *funcPrinter) assign(as *syntax.Assign) string {
	if as.Value == nil || as.Array != nil {
		return p.nodeText(as, func() string { return printed(as) })
	}
	head := p.nodeText(as, func() string { return printed(as) })
	if n := int(as.Value.Pos().Offset()) - int(as.Pos().Offset()); p.src != "" && n >= 0 && n <= len(head) {
		head = head[:n]
	} else {
		head = strings.TrimSuffix(printed(as), wordText(as.Value))
	}
	return head + p.word(as.Value)
}

// hdocBody is a here-document's body as bash keeps it (<<- without its
// leading tabs), and its delimiter.
func (p *funcPrinter) hdocBody(r *syntax.Redirect, target string) hdoc {
	delim := strings.NewReplacer(`'`, "", `"`, "", `\\`, "").Replace(target)
	body := ""
	if r.Hdoc != nil {
		body = p.nodeText(r.Hdoc, func() string { return printed(r.Hdoc) })
	}
	lines := strings.SplitAfter(body, "\n")
	var b strings.Builder
	for _, l := range lines {
		if r.Op == syntax.DashHdoc {
			l = strings.TrimLeft(l, "\t")
		}
		if strings.TrimSuffix(l, "\n") == delim {
			break
		}
		b.WriteString(l)
	}
	return hdoc(b.String() + delim)
}

// word is a word as written, but with $'...' turned into the quoted text
// it stands for, as bash keeps it.
func (p *funcPrinter) word(w *syntax.Word) string {
	ansi := false
	for _, part := range w.Parts {
		if q, ok := part.(*syntax.SglQuoted); ok && q.Dollar {
			ansi = true
		}
	}
	if !ansi {
		return p.nodeText(w, func() string { return wordText(w) })
	}
	var b strings.Builder
	for _, part := range w.Parts {
		if q, ok := part.(*syntax.SglQuoted); ok && q.Dollar {
			s, _, _ := unescape(q.Value, true)
			b.WriteString("'" + strings.ReplaceAll(s, "'", `'\''`) + "'")
			continue
		}
		b.WriteString(p.nodeText(part, func() string { return printed(part) }))
	}
	return b.String()
}

// nodeText cuts a node's text from the source, or prints it.
func (p *funcPrinter) nodeText(n syntax.Node, print func() string) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if p.src != "" && n.Pos().IsValid() && start <= end && end <= len(p.src) {
		return p.src[start:end]
	}
	return print()
}

// arithText is an arithmetic expression as written between positions
// from and to (skip: the length of the token at from).
func (p *funcPrinter) arithText(x syntax.ArithmExpr, from, to syntax.Pos, skip int) string {
	if p.src != "" && from.IsValid() && to.IsValid() {
		start, end := int(from.Offset())+skip, int(to.Offset())
		if start <= end && end <= len(p.src) {
			return p.src[start:end]
		}
	}
	if x == nil {
		return ""
	}
	return p.nodeText(x, func() string { return subscriptText(x) })
}

func (p *funcPrinter) testText(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.Word:
		return p.word(x)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			return p.testText(x.X) + " && " + p.testText(x.Y)
		case syntax.OrTest:
			return p.testText(x.X) + " || " + p.testText(x.Y)
		}
		return p.testText(x.X) + " " + x.Op.String() + " " + p.testText(x.Y)
	case *syntax.UnaryTest:
		return x.Op.String() + " " + p.testText(x.X)
	case *syntax.ParenTest:
		return "( " + p.testText(x.X) + " )"
	}
	return printed(x)
}

func printed(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// exportedFuncs lists the exported functions as bash passes them to
// children: BASH_FUNC_name%%=() { ... }.
func (f *frame) exportedFuncs() []string {
	var out []string
	for name, m := range f.funcMeta {
		if m.attrs&attrExport == 0 {
			continue
		}
		if body, ok := f.funcs[name]; ok {
			out = append(out, "BASH_FUNC_"+name+"%%="+funcTextSrc("", body, m.src, false))
		}
	}
	return out
}
