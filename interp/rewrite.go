package interp

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Names of the internal commands the rewriter inserts. They are dispatched
// by the exec handler and are not in the registry, so scripts cannot list
// them in /bin.
const (
	cmdLoopEnter = "__bashbox_loop_enter"
	cmdLoopIter  = "__bashbox_loop_iter"
	cmdProcIn    = "__bashbox_procsubst_in"
	cmdProcOut   = "__bashbox_procsubst_out"
	cmdLookup    = "__bashbox_lookup"
	cmdPrintf    = "__bashbox_printf"
	cmdUmask     = "__bashbox_umask"
	cmdTest      = "__bashbox_test"
	cmdPipeStage = "__bashbox_pipestage"
	cmdPipeDone  = "__bashbox_pipestatus"
	cmdListVars  = "__bashbox_listvars"
)

// The process ids a script sees: the host's are never shown.
const (
	sandboxPID  = "2"
	sandboxPPID = "1"
)

// rewriter closes interpreter hazards and adds budget checkpoints by
// editing the parsed program before it runs:
//   - $$ and $PPID become fixed sandbox values (the interpreter would show
//     the host's process ids);
//   - process substitution becomes a command substitution that leaves the
//     output in an in-memory file, since the interpreter's own version makes
//     FIFOs on the host;
//   - loops get iteration checkpoints, so the loop budget can stop them.
type rewriter struct {
	nextLoop int
	done     map[syntax.Command]bool // loops already given checkpoints
}

func (rw *rewriter) rewrite(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			rw.parts(n.Parts)
		case *syntax.DblQuoted:
			rw.parts(n.Parts)
		case *syntax.Stmt:
			rw.fdRedirects(n)
			rw.declListing(n)
			rw.loop(n)
			rw.pipeline(n)
		}
		return true
	})
}

func (rw *rewriter) parts(parts []syntax.WordPart) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Exp != nil && p.Exp.Word != nil {
				switch p.Exp.Op {
				case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
					quotedPatternLiteral(p.Exp.Word)
				}
			}
			if p.Param == nil {
				continue
			}
			var val string
			switch p.Param.Value {
			case "$":
				val = sandboxPID
			case "PPID":
				val = sandboxPPID
			default:
				continue
			}
			if simpleParam(p) {
				parts[i] = &syntax.Lit{ValuePos: p.Pos(), ValueEnd: p.End(), Value: val}
			} else {
				p.Param = &syntax.Lit{ValuePos: p.Param.Pos(), ValueEnd: p.Param.End(), Value: hiddenPIDVar(p.Param.Value)}
			}
		case *syntax.ProcSubst:
			name := cmdProcIn
			if p.Op == syntax.CmdOut {
				name = cmdProcOut
			}
			// <(cmd) becomes $( { cmd; } | __bashbox_procsubst_in ), which
			// prints the path of an in-memory file holding cmd's output.
			// >(cmd) is refused with a message by __bashbox_procsubst_out.
			inner := &syntax.Stmt{Cmd: &syntax.Block{Stmts: p.Stmts}}
			call := &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(name)}}}
			stmts := []*syntax.Stmt{call}
			if p.Op != syntax.CmdOut {
				stmts = []*syntax.Stmt{{Cmd: &syntax.BinaryCmd{Op: syntax.Pipe, X: inner, Y: call}}}
			}
			parts[i] = &syntax.CmdSubst{Left: p.OpPos, Right: p.Rparen, Stmts: stmts}
		}
	}
}

// declListing turns a declaration that lists variables (export -p,
// readonly, declare -x ...: flags and no names) into a call of
// cmdListVars, which the call handler answers (see listvars.go).
func (rw *rewriter) declListing(st *syntax.Stmt) {
	decl, ok := st.Cmd.(*syntax.DeclClause)
	if !ok {
		return
	}
	switch decl.Variant.Value {
	case "declare", "typeset", "export", "readonly":
	default:
		return
	}
	args := []*syntax.Word{lit(cmdListVars), lit(decl.Variant.Value)}
	var flags []string
	for _, a := range decl.Args {
		if !a.Naked || a.Name != nil || a.Value == nil || a.Value.Lit() == "" {
			return
		}
		flags = append(flags, a.Value.Lit())
		args = append(args, a.Value)
	}
	if _, ok := listingFlags(flags); !ok {
		return
	}
	st.Cmd = &syntax.CallExpr{Args: args}
}

// quotedPatternLiteral makes the quoted parts of a pattern-removal word
// (${x#"a*"}) literal: the interpreter expands that word without quote
// context, so a quoted * would match as a glob. Quoted text that is all
// literal becomes the same text with every special character escaped by a
// backslash, which the pattern matcher takes literally. Quoted text with
// expansions inside is left as it is.
func quotedPatternLiteral(w *syntax.Word) {
	for i, part := range w.Parts {
		text, ok := quotedLiteral(part)
		if !ok {
			continue
		}
		var esc strings.Builder
		for _, r := range text {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80 || strings.ContainsRune("_-./:,=%", r)) {
				esc.WriteByte('\\')
			}
			esc.WriteRune(r)
		}
		w.Parts[i] = &syntax.Lit{ValuePos: part.Pos(), ValueEnd: part.End(), Value: esc.String()}
	}
}

// quotedLiteral returns the text of a quoted word part that holds no
// expansion ('...' or "..." of literal text); ok is false for any other.
func quotedLiteral(part syntax.WordPart) (text string, ok bool) {
	switch q := part.(type) {
	case *syntax.SglQuoted:
		return q.Value, !q.Dollar
	case *syntax.DblQuoted:
		var b strings.Builder
		for _, inner := range q.Parts {
			lit, isLit := inner.(*syntax.Lit)
			if !isLit {
				return "", false
			}
			b.WriteString(dqUnescape(lit.Value))
		}
		return b.String(), len(q.Parts) > 0
	}
	return "", false
}

// dqUnescape removes the backslashes double quotes give meaning to.
func dqUnescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func simpleParam(p *syntax.ParamExp) bool {
	return !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Names == 0 && p.Exp == nil
}

func hiddenPIDVar(name string) string {
	if name == "$" {
		return "__bashbox_pid"
	}
	return "__bashbox_ppid"
}

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// loop gives a loop statement its budget checkpoints:
//
//	{ CHECK enter ID; while CHECK iter ID; COND; do ...; done; }
//	{ CHECK enter ID; for x in ...; do CHECK iter ID; ...; done; }
//
// where each CHECK is a checkpoint (see there): it passes the previous
// status through, so $?, the condition and set -e behave as before.
func (rw *rewriter) loop(st *syntax.Stmt) {
	if rw.done[st.Cmd] {
		return
	}
	var id int
	switch c := st.Cmd.(type) {
	case *syntax.WhileClause:
		rw.nextLoop++
		id = rw.nextLoop
		c.Cond = append([]*syntax.Stmt{checkpoint(cmdLoopIter, id)}, c.Cond...)
	case *syntax.ForClause:
		rw.nextLoop++
		id = rw.nextLoop
		c.Do = append([]*syntax.Stmt{checkpoint(cmdLoopIter, id)}, c.Do...)
	default:
		return
	}
	if rw.done == nil {
		rw.done = map[syntax.Command]bool{}
	}
	rw.done[st.Cmd] = true
	loop := &syntax.Stmt{Cmd: st.Cmd, Position: st.Position}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Stmts: []*syntax.Stmt{checkpoint(cmdLoopEnter, id), loop}}
}

// checkpoint is `NAME ID && ((1))`. The command passes the previous
// status through ($? at the start of a loop body is what ran before); as
// the left side of && a nonzero status from it does not trip set -e, and
// ((1)) costs no command call.
func checkpoint(name string, id int) *syntax.Stmt {
	call := &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(name), lit(strconv.Itoa(id))}}}
	ok := &syntax.Stmt{Cmd: &syntax.ArithmCmd{X: lit("1")}}
	return &syntax.Stmt{Cmd: &syntax.BinaryCmd{Op: syntax.AndStmt, X: call, Y: ok}}
}

// pipeline makes a pipeline behave as in bash: every stage, the last one
// included, runs in a subshell (the interpreter runs the last stage in the
// current shell), and PIPESTATUS holds each stage's status:
//
//	a | b   becomes
//	{ { a; __bashbox_pipestage ID 0 "$?"; } | ( b; __bashbox_pipestage ID 1 "$?" );
//	  PIPESTATUS=($(__bashbox_pipestatus ID "$?")); }
//
// The status command exits with the pipeline's own status, so $? and
// set -e see the pipeline as before.
func (rw *rewriter) pipeline(st *syntax.Stmt) {
	bin, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bin.Op != syntax.Pipe && bin.Op != syntax.PipeAll) || rw.done[bin] {
		return
	}
	if rw.done == nil {
		rw.done = map[syntax.Command]bool{}
	}
	rw.nextLoop++
	id := rw.nextLoop
	var stages []*syntax.BinaryCmd
	for b := bin; ; {
		rw.done[b] = true
		stages = append(stages, b)
		x, ok := b.X.Cmd.(*syntax.BinaryCmd)
		if !ok || (x.Op != syntax.Pipe && x.Op != syntax.PipeAll) || len(b.X.Redirs) > 0 || b.X.Negated || b.X.Background {
			break
		}
		b = x
	}
	// stages[len-1].X is the first stage; each stages[i].Y follows.
	n := len(stages)
	idx := 0
	wrap := func(stage *syntax.Stmt, last bool) *syntax.Stmt {
		setter := &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(cmdPipeStage), lit(strconv.Itoa(id)), lit(strconv.Itoa(idx)), lastStatus()}}}
		idx++
		var cmd syntax.Command = &syntax.Block{Stmts: []*syntax.Stmt{stage, setter}}
		if last {
			cmd = &syntax.Subshell{Stmts: []*syntax.Stmt{stage, setter}}
		}
		return &syntax.Stmt{Cmd: cmd, Position: stage.Position}
	}
	stages[n-1].X = wrap(stages[n-1].X, false)
	for i := n - 1; i >= 0; i-- {
		stages[i].Y = wrap(stages[i].Y, i == 0)
	}
	get := &syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(cmdPipeDone), lit(strconv.Itoa(id)), lastStatus()}}}}}
	assign := &syntax.Stmt{Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{{
		Name:  &syntax.Lit{Value: "PIPESTATUS"},
		Array: &syntax.ArrayExpr{Elems: []*syntax.ArrayElem{{Value: &syntax.Word{Parts: []syntax.WordPart{get}}}}},
	}}}}
	inner := &syntax.Stmt{Cmd: bin, Position: st.Position}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Stmts: []*syntax.Stmt{inner, assign}}
}

// lastStatus is the word "$?".
func lastStatus() *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
		&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "?"}},
	}}}}
}
