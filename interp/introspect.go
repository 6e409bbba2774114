package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// callEntry is one level of the shell's call stack: a function call or a
// sourced file. FUNCNAME, BASH_SOURCE, BASH_LINENO and caller read it.
type callEntry struct {
	name   string // the function's name, or "source"
	source string // the file the running code came from
	line   int    // the caller's line where it was called
}

// fileScript says whether the call runs a script file: bash then keeps a
// "main" entry at the bottom of the stack.
func (f *frame) fileScript() bool {
	return f.call.source != "" && f.call.source != "-c"
}

// curSource is BASH_SOURCE[0]: the file the running code came from, ""
// at the top of a -c script.
func (f *frame) curSource() string {
	if len(f.stack) > 0 {
		return f.stack[len(f.stack)-1].source
	}
	if f.fileScript() {
		return f.call.source
	}
	return ""
}

// pushCall enters a function or sourced file; the returned func leaves
// it. The stack keeps the innermost call last (fork copies it).
func (f *frame) pushCall(name, source string, lineBase int) func() {
	n, oldBase, line := len(f.stack), f.lineBase, f.lineno
	f.stack = append(f.stack, callEntry{name: name, source: source, line: line})
	f.lineBase = lineBase
	// back in the caller, LINENO is the call's line again
	return func() { f.stack, f.lineBase, f.lineno = f.stack[:n], oldBase, line }
}

// callAt is the i-th entry of the stack from the innermost.
func (f *frame) callAt(i int) callEntry { return f.stack[len(f.stack)-1-i] }

// introArray computes FUNCNAME, BASH_SOURCE and BASH_LINENO. FUNCNAME
// exists only while a function runs.
func (f *frame) introArray(name string) (*variable, bool) {
	if name == "FUNCNAME" && len(f.funcNames) == 0 {
		return nil, false
	}
	v := &variable{attrs: attrIndexed, set: true, idx: &sparse{}}
	n := int64(0)
	add := func(s string) { v.idx.set(n, s); n++ }
	for i := len(f.stack) - 1; i >= 0; i-- {
		e := f.stack[i]
		switch name {
		case "FUNCNAME":
			add(e.name)
		case "BASH_SOURCE":
			add(e.source)
		case "BASH_LINENO":
			add(itoa(e.line))
		}
	}
	if f.fileScript() {
		switch name {
		case "FUNCNAME":
			add("main")
		case "BASH_SOURCE":
			add(f.call.source)
		case "BASH_LINENO":
			add("0")
		}
	}
	return v, true
}

// biCaller prints the context of a call: "LINE FILE" without an
// argument, "LINE FUNC FILE" for frame N.
func (f *frame) biCaller(args []string) int {
	src := f.stackView()
	if len(args) > 2 {
		f.errorf("caller: too many arguments")
		f.fds.writeString(2, "caller: usage: caller [expr]\n")
		return 2
	}
	if len(args) == 1 {
		if len(src) == 0 {
			return 1
		}
		file := "NULL"
		if len(src) > 1 {
			file = src[1].source
		}
		f.fds.printf(1, "%d %s\n", src[0].line, file)
		return 0
	}
	n, err := parseDecimal(strings.TrimSpace(args[1]))
	if err != nil || n < 0 {
		f.errorf("caller: %s: invalid number", args[1])
		f.fds.writeString(2, "caller: usage: caller [expr]\n")
		return 2
	}
	if int(n)+1 >= len(src) {
		return 1
	}
	f.fds.printf(1, "%d %s %s\n", src[n].line, src[n+1].name, src[n+1].source)
	return 0
}

// stackView is the call stack with bash's bottom "main" entry for
// script files.
func (f *frame) stackView() []callEntry {
	v := make([]callEntry, 0, len(f.stack)+1)
	for i := len(f.stack) - 1; i >= 0; i-- {
		v = append(v, f.stack[i])
	}
	if f.fileScript() {
		v = append(v, callEntry{name: "main", source: f.call.source})
	}
	return v
}

// bashCommand is $BASH_COMMAND: the simple command running or last run,
// printed as bash prints commands.
func (f *frame) bashCommand() string {
	c := f.curCmd
	if c == nil {
		return f.curText
	}
	var b strings.Builder
	p := syntax.NewPrinter(syntax.SingleLine(true))
	switch x := c.Cmd.(type) {
	case *syntax.CallExpr:
		sep := ""
		for _, a := range x.Assigns {
			b.WriteString(sep)
			p.Print(&b, a)
			sep = " "
		}
		for _, w := range x.Args {
			b.WriteString(sep)
			p.Print(&b, w)
			sep = " "
		}
		for _, r := range c.Redirs {
			b.WriteString(sep)
			if r.N != nil {
				b.WriteString(r.N.Value)
			}
			b.WriteString(r.Op.String())
			if r.Op != syntax.DplOut && r.Op != syntax.DplIn {
				b.WriteByte(' ')
			}
			p.Print(&b, r.Word)
			sep = " "
		}
	default:
		p.Print(&b, c.Cmd)
	}
	return b.String()
}
