package sed

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// The input side of the executor: reading records across the input
// files, the last-line test, and -i's in-place files.

// readPattern reads the next line into the pattern space (appending it
// after a delimiter when appendMode, for N). It reports false at the end
// of the input.
func (e *executor) readPattern(appendMode bool) bool {
	e.dumpAppend(false)
	base := 0
	if appendMode {
		base = len(e.ps.b)
		e.ps.b = append(e.ps.b, e.delim)
	} else {
		e.ps.b = e.ps.b[:0]
	}
	for {
		if e.cur == nil {
			if !e.openNext() {
				e.ps.b = e.ps.b[:base]
				return false
			}
			continue
		}
		start := len(e.ps.b)
		b, nl, err := e.readRecord(e.cur.r, e.ps.b, e.delim)
		e.ps.b = b
		if len(b) > start || nl {
			e.ps.chomped = nl
			break
		}
		if err != nil && err != io.EOF {
			e.fatal(exitPanic, "read error on %s: %s", e.cur.name, builtins.ErrText(err))
		}
		e.closeCurrent()
	}
	e.lineNo++
	e.replaced = false
	return true
}

// readRecord appends the next record of r to dst, without its delimiter.
// A record without end stops sed on the memory budget or cancellation.
func (e *executor) readRecord(r *bufio.Reader, dst []byte, delim byte) ([]byte, bool, error) {
	dst, err := textio.AppendRecord(e.ctx, e.c, r, dst, delim)
	switch {
	case err == nil:
		return dst[:len(dst)-1], true, nil
	case err != io.EOF && e.ctx.Err() != nil:
		e.checkCancel()
	}
	return dst, false, err
}

// isLast reports whether the current line is the last one ($): the
// current file has no more data and, unless files are separate, no later
// file has any.
func (e *executor) isLast() bool {
	if e.cur != nil {
		if e.cur.r.Buffered() > 0 {
			return false
		}
		if _, err := e.cur.r.Peek(1); err == nil || err != io.EOF {
			return false
		}
	}
	if e.separate {
		return true
	}
	for {
		e.closeCurrent()
		if !e.openNext() {
			return true
		}
		if _, err := e.cur.r.Peek(1); err == nil || err != io.EOF {
			return false
		}
	}
}

func (e *executor) openNext() bool {
	for e.fileIdx < len(e.files) {
		name := e.files[e.fileIdx]
		e.fileIdx++
		in := &inFile{name: name}
		if name == "-" && !e.inPlace {
			stdin := e.c.Stdin
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			in.r = textio.NewReader(stdin)
		} else {
			f, err := e.c.Open(name)
			if err != nil {
				e.c.Errorf("can't read %s: %s", name, builtins.ErrText(err))
				e.badInput = true
				continue
			}
			in.f = f
			in.r = textio.NewReader(f)
			if e.inPlace {
				e.startInPlace(in, f)
			}
		}
		e.cur = in
		e.curName = name
		if e.separate {
			e.lineNo = 0
			e.resetRanges()
			e.rewindReadFiles()
			// GNU sed also empties the hold space (keeping whether its
			// last line had a newline) when it starts a separate file.
			e.hs.b = e.hs.b[:0]
		}
		return true
	}
	return false
}

// rewindReadFiles starts the files of R commands over, as GNU sed does
// for each file when files are separate.
func (e *executor) rewindReadFiles() {
	for _, rf := range e.rfiles {
		if rf.f == nil {
			continue
		}
		if sk, ok := rf.f.(io.Seeker); ok {
			if _, err := sk.Seek(0, io.SeekStart); err == nil {
				rf.r.Reset(rf.f.(io.Reader))
			}
		}
	}
}

// startInPlace prepares the temporary output file of an in-place edit.
func (e *executor) startInPlace(in *inFile, f io.Closer) {
	name := in.name
	fi, err := e.c.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		e.fatal(exitPanic, "couldn't edit %s: not a regular file", name)
	}
	in.mode = fi.Mode().Perm()
	in.target = name
	if e.follow {
		in.target = e.resolveLinks(name)
	}
	dir := path.Dir(in.target)
	var tf io.WriteCloser
	for try := 0; ; try++ {
		in.tmpName = dir + "/sed" + randomSuffix()
		t, err := e.c.OpenFile(in.tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			tf = t
			break
		}
		if try < 100 && errors.Is(err, fs.ErrExist) {
			continue
		}
		f.Close()
		e.fatal(exitPanic, "couldn't open temporary file %s: %s", in.tmpName, builtins.ErrText(err))
	}
	in.out = &output{name: in.tmpName, w: textio.NewWriter(tf), f: tf}
	e.out = in.out
}

func (e *executor) resolveLinks(name string) string {
	for i := 0; i < 40; i++ {
		fi, err := e.c.Lstat(name)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return name
		}
		t, err := e.c.FS.ReadlinkIfPossible(e.c.Abs(name))
		if err != nil {
			return name
		}
		if !path.IsAbs(t) {
			t = path.Join(path.Dir(name), t)
		}
		name = t
	}
	return name
}

// closeCurrent closes the current input; for an in-place edit it moves
// the temporary file over the original (after making the backup).
func (e *executor) closeCurrent() {
	in := e.cur
	if in == nil {
		return
	}
	e.cur = nil
	if in.f != nil {
		in.f.Close()
	}
	if in.out == nil {
		return
	}
	e.out = e.stdout
	in.out.flush()
	cerr := in.out.f.Close()
	if in.out.err != nil || cerr != nil {
		err := in.out.err
		if err == nil {
			err = cerr
		}
		e.c.FS.Remove(e.c.Abs(in.tmpName))
		e.fatal(exitPanic, "couldn't write items to %s: %s", in.tmpName, builtins.ErrText(err))
	}
	e.c.FS.Chmod(e.c.Abs(in.tmpName), in.mode)
	if e.suffix != "*" {
		backup := strings.ReplaceAll(e.suffix, "*", in.target)
		if err := e.c.FS.Rename(e.c.Abs(in.target), e.c.Abs(backup)); err != nil {
			e.c.FS.Remove(e.c.Abs(in.tmpName))
			e.fatal(exitPanic, "cannot rename %s: %s", in.target, builtins.ErrText(err))
		}
	}
	if err := e.c.FS.Rename(e.c.Abs(in.tmpName), e.c.Abs(in.target)); err != nil {
		e.c.FS.Remove(e.c.Abs(in.tmpName))
		e.fatal(exitPanic, "cannot rename %s: %s", in.tmpName, builtins.ErrText(err))
	}
}

// abandon removes the temporary file of an unfinished in-place edit.
func (e *executor) abandon() {
	in := e.cur
	if in == nil || in.out == nil {
		return
	}
	e.cur = nil
	if in.f != nil {
		in.f.Close()
	}
	in.out.f.Close()
	e.c.FS.Remove(e.c.Abs(in.tmpName))
	e.out = e.stdout
}

func randomSuffix() string {
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b[:])
}
