package sed

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/bashbox/bashbox/builtins"
)

// output is one destination of sed's output: standard output (or the
// temporary file of an in-place edit), a w file, /dev/stdout or
// /dev/stderr. Like GNU sed it remembers when the last line it wrote
// lacked its newline (the last input line had none), and writes that
// newline before anything else goes to the same output.
type output struct {
	name      string
	w         *bufio.Writer
	f         io.Closer
	missing   bool
	autoFlush bool
	err       error
}

func (o *output) write(b []byte) {
	if _, err := o.w.Write(b); err != nil && o.err == nil {
		o.err = err
	}
}

func (o *output) writeByte(c byte) {
	if err := o.w.WriteByte(c); err != nil && o.err == nil {
		o.err = err
	}
}

// missingNewline ends the last line written when it lacked its
// delimiter.
func (o *output) missingNewline(delim byte) {
	if o.missing {
		o.writeByte(delim)
		o.missing = false
	}
}

// line writes b followed by the delimiter, or without it when nl is false
// (remembering that it is missing).
func (o *output) line(b []byte, nl bool, delim byte) {
	o.missingNewline(delim)
	o.write(b)
	if nl {
		o.writeByte(delim)
	} else {
		o.missing = true
	}
	if o.autoFlush {
		o.flush()
	}
}

// textLine writes the text of i or c: its final newline becomes the
// delimiter (NUL with -z).
func (o *output) textLine(b []byte, delim byte) {
	if len(b) == 0 {
		return
	}
	o.missingNewline(delim)
	if n := len(b); n > 0 && b[n-1] == '\n' {
		o.write(b[:n-1])
		o.writeByte(delim)
	} else {
		o.write(b)
	}
	if o.autoFlush {
		o.flush()
	}
}

func (o *output) flush() {
	if err := o.w.Flush(); err != nil && o.err == nil {
		o.err = err
	}
}

// readFile is the file of an R command: each R reads its next line.
type readFile struct {
	name string
	r    *bufio.Reader
	f    io.Closer
}

// openWriteFile opens a w file at compile time, as GNU does.
func openWriteFile(c *builtins.Call, o *output) error {
	f, err := c.OpenFile(o.name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return &fatalError{msg: fmt.Sprintf("couldn't open file %s: %s", o.name, builtins.ErrText(err)), status: exitPanic}
	}
	o.f = f
	o.w = bufio.NewWriterSize(f, 32<<10)
	return nil
}
