package interp

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"

	shinterp "mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

// The interpreter only knows file descriptors 0, 1 and 2. Descriptors from
// 3 up are kept here, per call, and reached through /dev/fd/N paths the
// rewriter substitutes:
//
//	exec 3>file       __bashbox_fd open 3 > file      (the shell opens file)
//	cmd >&3           cmd > /dev/fd/3
//	cmd <&3           cmd < /dev/fd/3
//	exec 3>&-         __bashbox_fd close 3
//	LOOP 3<file       { __bashbox_fd open 3 < file; LOOP; __bashbox_fd close 3; }
const cmdFD = "__bashbox_fd"

type fdTable struct {
	mu  sync.Mutex
	fds map[int]io.ReadWriteCloser
}

func (t *fdTable) set(n int, f io.ReadWriteCloser) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fds == nil {
		t.fds = map[int]io.ReadWriteCloser{}
	}
	if old := t.fds[n]; old != nil {
		old.Close()
	}
	t.fds[n] = f
}

func (t *fdTable) get(n int) (io.ReadWriteCloser, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, ok := t.fds[n]
	return f, ok
}

func (t *fdTable) close(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.fds[n]; f != nil {
		f.Close()
	}
	delete(t.fds, n)
}

// fdFile is an open descriptor handed to one redirection: closing it does
// not close the descriptor.
type fdFile struct{ f io.ReadWriteCloser }

func (d fdFile) Read(p []byte) (int, error)  { return d.f.Read(p) }
func (d fdFile) Write(p []byte) (int, error) { return d.f.Write(p) }
func (d fdFile) Close() error                { return nil }

// runFD implements __bashbox_fd: "open N MODE PATH" (MODE w, a or r),
// "dup N M" and "close N".
func (sh *Shell) runFD(hc shinterp.HandlerContext, args []string) int {
	if len(args) < 2 {
		return 2
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return 2
	}
	switch {
	case args[0] == "open" && len(args) == 4:
		flag := os.O_RDONLY
		switch args[2] {
		case "w":
			flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		case "a":
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := sh.FS.OpenFile(guestPath(hc, args[3]), flag, 0o666&^fs.FileMode(sh.umaskValue()))
		if err != nil {
			fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", args[3], builtins.ErrText(err))
			return 1
		}
		sh.fds.set(n, f)
	case args[0] == "dup" && len(args) == 3:
		switch args[2] {
		case "0":
			sh.fds.set(n, readerOnly{stdinOf(hc)})
		case "1":
			sh.fds.set(n, writerOnly{hc.Stdout})
		case "2":
			sh.fds.set(n, writerOnly{hc.Stderr})
		default:
			m, _ := strconv.Atoi(args[2])
			f, ok := sh.fds.get(m)
			if !ok {
				fmt.Fprintf(hc.Stderr, "bash: %s: Bad file descriptor\n", args[2])
				return 1
			}
			sh.fds.set(n, fdFile{f})
		}
	case args[0] == "close":
		sh.fds.close(n)
	default:
		return 2
	}
	return 0
}

type writerOnly struct{ w io.Writer }

func (w writerOnly) Read([]byte) (int, error)    { return 0, io.EOF }
func (w writerOnly) Write(p []byte) (int, error) { return w.w.Write(p) }
func (w writerOnly) Close() error                { return nil }

type readerOnly struct{ r io.Reader }

func (r readerOnly) Read(p []byte) (int, error) { return r.r.Read(p) }
func (r readerOnly) Write([]byte) (int, error)  { return 0, os.ErrClosed }
func (r readerOnly) Close() error               { return nil }

func highFD(l *syntax.Lit) (int, bool) {
	if l == nil {
		return 0, false
	}
	n, err := strconv.Atoi(l.Value)
	return n, err == nil && n >= 3
}

func wordFD(w *syntax.Word) (int, bool) {
	if w == nil || len(w.Parts) != 1 {
		return 0, false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return 0, false
	}
	return highFD(l)
}

// fdRedirects rewrites one statement's redirections of descriptors 3 and
// up, as the comment on cmdFD describes.
func (rw *rewriter) fdRedirects(st *syntax.Stmt) {
	if len(st.Redirs) == 0 {
		return
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	// read <&N reads with -u N, a byte at a time, so that the rest of the
	// descriptor stays for the next read.
	if isCall && len(call.Args) > 0 && isLit(call.Args[0], "read") {
		var rest []*syntax.Redirect
		for _, rd := range st.Redirs {
			if n, ok := wordFD(rd.Word); ok && rd.Op == syntax.DplIn && rd.N == nil {
				call.Args = append([]*syntax.Word{call.Args[0], lit("-u"), lit(strconv.Itoa(n))}, call.Args[1:]...)
				continue
			}
			rest = append(rest, rd)
		}
		st.Redirs = rest
	}
	// >| is > past noclobber: the interpreter lacks it.
	for _, rd := range st.Redirs {
		if rd.Op == syntax.RdrClob && (rd.N == nil || rd.N.Value == "1" || rd.N.Value == "2") {
			rd.Op = syntax.RdrOut
			rd.Word = &syntax.Word{Parts: append([]syntax.WordPart{&syntax.Lit{Value: clobberMark}}, rd.Word.Parts...)}
		}
	}
	// Duplications of a high descriptor become paths.
	for _, rd := range st.Redirs {
		if n, ok := wordFD(rd.Word); ok && (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) {
			if rd.Op == syntax.DplOut {
				rd.Op = syntax.AppOut
			} else {
				rd.Op = syntax.RdrIn
			}
			rd.Word = lit("/dev/fd/" + strconv.Itoa(n))
		}
	}
	isExec := isCall && len(call.Args) == 1 && len(call.Assigns) == 0 && isLit(call.Args[0], "exec")
	var opens, closes []*syntax.Stmt
	var kept []*syntax.Redirect
	for _, rd := range st.Redirs {
		n, ok := highFD(rd.N)
		if !ok {
			kept = append(kept, rd)
			continue
		}
		fd := strconv.Itoa(n)
		switch {
		case (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && isLit(rd.Word, "-"):
			opens = append(opens, fdCall("close", fd))
		case rd.Op == syntax.RdrOut || rd.Op == syntax.RdrClob:
			opens = append(opens, fdCall("open", fd, lit("w"), rd.Word))
			closes = append(closes, fdCall("close", fd))
		case rd.Op == syntax.AppOut:
			opens = append(opens, fdCall("open", fd, lit("a"), rd.Word))
			closes = append(closes, fdCall("close", fd))
		case rd.Op == syntax.RdrIn:
			opens = append(opens, fdCall("open", fd, lit("r"), rd.Word))
			closes = append(closes, fdCall("close", fd))
		case rd.Op == syntax.DplOut || rd.Op == syntax.DplIn:
			opens = append(opens, fdCall("dup", fd, rd.Word))
			closes = append(closes, fdCall("close", fd))
		default:
			kept = append(kept, rd)
		}
	}
	if len(opens) == 0 {
		st.Redirs = kept
		return
	}
	if isExec {
		// exec N>file: the descriptors stay open for the rest of the script.
		st.Redirs = kept
		st.Cmd = &syntax.Block{Stmts: opens}
		return
	}
	inner := &syntax.Stmt{Cmd: st.Cmd, Redirs: kept, Negated: false}
	st.Redirs = nil
	stmts := append(append(opens, inner), closes...)
	st.Cmd = &syntax.Block{Stmts: stmts}
}

func isLit(w *syntax.Word, s string) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == s
}

func fdCall(op, fd string, words ...*syntax.Word) *syntax.Stmt {
	args := append([]*syntax.Word{lit(cmdFD), lit(op), lit(fd)}, words...)
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: args}}
}
