package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashFuncText prints a function as bash's declare -f and type do: the
// "NAME () " line, a group at four-space indents, each command of a list
// on its own line ending in ";" (but the last of a group), elif as a
// nested if. ok is false for constructs it does not know (the caller
// falls back to a plain printer).
func bashFuncText(name string, body *syntax.Stmt, src string) (string, bool) {
	p := &funcPrinter{ok: true, src: src}
	stmts := []*syntax.Stmt{body}
	if blk, isBlock := body.Cmd.(*syntax.Block); isBlock && len(body.Redirs) == 0 {
		stmts = blk.Stmts
	}
	text := name + " () \n{ \n" + p.list(stmts, 1, false) + "\n}"
	return text, p.ok
}

// funcPrinter prints from the source the function was read from when it
// has it (bash shows words and expressions as written).
type funcPrinter struct {
	ok  bool
	src string
}

// text is n as written, if the source is known.
func (p *funcPrinter) text(n syntax.Node) (string, bool) {
	if n == nil || p.src == "" {
		return "", false
	}
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start >= end || end > len(p.src) {
		return "", false
	}
	return p.src[start:end], true
}

func indentOf(n int) string { return strings.Repeat("    ", n) }

// list prints statements one per line at indent; term ends the last
// one with ";" too (bodies of if, while, for).
func (p *funcPrinter) list(stmts []*syntax.Stmt, indent int, term bool) string {
	var b strings.Builder
	for i, st := range stmts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(indentOf(indent))
		b.WriteString(p.stmt(st, indent))
		switch {
		case st.Background:
			b.WriteString(" &")
		case i < len(stmts)-1 || term:
			b.WriteByte(';')
		}
	}
	return b.String()
}

// inline prints a condition list on one line.
func (p *funcPrinter) inline(stmts []*syntax.Stmt, indent int) string {
	parts := make([]string, len(stmts))
	for i, st := range stmts {
		parts[i] = p.stmt(st, indent)
		if st.Background {
			parts[i] += " &"
		}
	}
	return strings.Join(parts, "; ")
}

func (p *funcPrinter) node(n syntax.Node) string {
	if t, ok := p.text(n); ok && !strings.Contains(t, "\n") {
		return t
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		p.ok = false
	}
	s := strings.TrimRight(b.String(), "\n")
	if strings.Contains(s, "\n") {
		p.ok = false
	}
	return s
}

func (p *funcPrinter) stmt(st *syntax.Stmt, indent int) string {
	s := p.cmd(st.Cmd, indent)
	if st.Negated {
		s = "! " + s
	}
	for _, r := range st.Redirs {
		s += " " + p.redir(r)
	}
	return s
}

func (p *funcPrinter) redir(r *syntax.Redirect) string {
	if r.Hdoc != nil || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
		p.ok = false
		return ""
	}
	n := ""
	if r.N != nil {
		n = r.N.Value
	}
	w := p.node(r.Word)
	switch r.Op {
	case syntax.DplOut, syntax.DplIn:
		if n == "" {
			n = map[bool]string{true: "1", false: "0"}[r.Op == syntax.DplOut]
		}
		return n + r.Op.String() + w
	}
	return n + r.Op.String() + " " + w
}

func (p *funcPrinter) cmd(c syntax.Command, indent int) string {
	ind := indentOf(indent)
	switch c := c.(type) {
	case *syntax.CallExpr:
		var parts []string
		for _, as := range c.Assigns {
			parts = append(parts, p.node(as))
		}
		for _, w := range c.Args {
			parts = append(parts, p.node(w))
		}
		return strings.Join(parts, " ")
	case *syntax.BinaryCmd:
		return p.stmt(c.X, indent) + " " + c.Op.String() + " " + p.stmt(c.Y, indent)
	case *syntax.Block:
		return "{ \n" + p.list(c.Stmts, indent+1, false) + "\n" + ind + "}"
	case *syntax.Subshell:
		parts := make([]string, len(c.Stmts))
		for i, st := range c.Stmts {
			parts[i] = p.stmt(st, indent)
		}
		return "( " + strings.Join(parts, ";\n"+ind) + " )"
	case *syntax.IfClause:
		s := "if " + p.inline(c.Cond, indent) + "; then\n" + p.list(c.Then, indent+1, true) + "\n" + ind
		if e := c.Else; e != nil {
			if len(e.Cond) > 0 {
				s += "else\n" + indentOf(indent+1) + p.cmd(e, indent+1) + ";\n" + ind
			} else {
				s += "else\n" + p.list(e.Then, indent+1, true) + "\n" + ind
			}
		}
		return s + "fi"
	case *syntax.WhileClause:
		kw := "while "
		if c.Until {
			kw = "until "
		}
		return kw + p.inline(c.Cond, indent) + "; do\n" + p.list(c.Do, indent+1, true) + "\n" + ind + "done"
	case *syntax.ForClause:
		var head string
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			head = "for " + l.Name.Value
			if l.InPos.IsValid() {
				head += " in"
				for _, w := range l.Items {
					head += " " + p.node(w)
				}
			} else {
				head += " in \"$@\""
			}
			head += ";"
		case *syntax.CStyleLoop:
			head = "for ((" + p.arith(l.Init) + "; " + p.arith(l.Cond) + "; " + p.arith(l.Post) + "))"
		default:
			p.ok = false
		}
		if c.Select {
			head = "select" + strings.TrimPrefix(head, "for")
		}
		return head + "\n" + ind + "do\n" + p.list(c.Do, indent+1, true) + "\n" + ind + "done"
	case *syntax.CaseClause:
		s := "case " + p.node(c.Word) + " in \n"
		for _, it := range c.Items {
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = p.node(w)
			}
			s += indentOf(indent+1) + strings.Join(pats, " | ") + ")\n"
			if len(it.Stmts) > 0 {
				s += p.list(it.Stmts, indent+2, false) + "\n"
			}
			s += indentOf(indent+1) + it.Op.String() + "\n"
		}
		return s + ind + "esac"
	case *syntax.ArithmCmd:
		return "(( " + strings.TrimSpace(p.arith(c.X)) + " ))"
	case *syntax.TimeClause:
		if c.Stmt == nil {
			return "time"
		}
		return "time " + p.stmt(c.Stmt, indent)
	case *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
		return p.node(c)
	}
	p.ok = false
	return ""
}

// arith prints an arithmetic expression on one line (bash keeps the
// source text; spaces go around binary operators but assignments).
func (p *funcPrinter) arith(x syntax.ArithmExpr) string {
	if t, ok := p.text(x); ok && !strings.Contains(t, "\n") {
		return t
	}
	switch x := x.(type) {
	case nil:
		return ""
	case *syntax.Word:
		return p.node(x)
	case *syntax.BinaryArithm:
		op := x.Op.String()
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
			syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
			return p.arith(x.X) + op + p.arith(x.Y)
		case syntax.Comma:
			return p.arith(x.X) + ", " + p.arith(x.Y)
		}
		return p.arith(x.X) + " " + op + " " + p.arith(x.Y)
	case *syntax.UnaryArithm:
		if x.Post {
			return p.arith(x.X) + x.Op.String()
		}
		return x.Op.String() + p.arith(x.X)
	case *syntax.ParenArithm:
		return "(" + p.arith(x.X) + ")"
	}
	p.ok = false
	return ""
}
