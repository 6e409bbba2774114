package textfmt

import (
	"context"
	"io"
	"io/fs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// Inputs reads the operands one after the other as a single stream, the
// way GNU tools that use next_file() do: a file that cannot be opened or
// read is reported ("NAME: FILE: error") and skipped, and Status becomes 1.
type Inputs struct {
	c      *builtins.Call
	names  []string
	idx    int
	cur    io.Reader
	closer func()
	// Status is 1 once an input failed.
	Status int
	// Opened counts the inputs opened so far.
	Opened int
	// OpenErrors counts the inputs that could not be opened.
	OpenErrors int
	// DashIsFile makes "-" an ordinary file name (util-linux tools);
	// standard input is still read when there are no operands.
	DashIsFile bool
	implicit   bool
	// OpenError formats the report of a file that cannot be opened;
	// the default is "NAME: FILE: text".
	OpenError func(name string, err error)
}

// NewInputs returns a reader over names ("-" is standard input; none
// means standard input).
func NewInputs(c *builtins.Call, names []string) *Inputs {
	if len(names) == 0 {
		return &Inputs{c: c, names: []string{"-"}, implicit: true}
	}
	return &Inputs{c: c, names: names}
}

func (in *Inputs) Read(p []byte) (int, error) {
	for {
		if in.cur == nil {
			if in.idx >= len(in.names) {
				return 0, io.EOF
			}
			name := in.names[in.idx]
			var r io.ReadCloser
			var err error
			if in.DashIsFile && name == "-" && !in.implicit {
				r, err = in.c.Open(name)
			} else {
				r, err = textio.Open(in.c, name)
			}
			if err != nil {
				in.report(name, err, true)
				in.idx++
				continue
			}
			in.cur, in.closer = r, func() { r.Close() }
			in.Opened++
		}
		n, err := in.cur.Read(p)
		if err != nil {
			if err != io.EOF {
				in.report(in.names[in.idx], err, false)
			}
			in.closer()
			in.cur = nil
			in.idx++
			if n > 0 {
				return n, nil
			}
			continue
		}
		if n > 0 {
			return n, nil
		}
	}
}

func (in *Inputs) report(name string, err error, open bool) {
	in.Status = 1
	if open {
		in.OpenErrors++
	}
	if open && in.OpenError != nil {
		in.OpenError(name, err)
		return
	}
	in.c.FileError(name, err, 1)
}

// Close closes the current file, if any.
func (in *Inputs) Close() {
	if in.cur != nil {
		in.closer()
		in.cur = nil
	}
}

// Finish closes the inputs and ends the command: err, the error that
// stopped reading them, is reported with status 1; otherwise the output is
// ended with the inputs' status.
func (in *Inputs) Finish(ctx context.Context, out *Output, err error) int {
	in.Close()
	if err != nil {
		out.Flush()
		in.c.Errorf("%s", err.Error())
		return 1
	}
	return out.End(ctx, in.c, in.Status)
}

// SeekableStdin returns standard input as a seeker when it is a regular
// file (a "< file" redirection), as opposed to a pipe.
func SeekableStdin(c *builtins.Call) (io.ReadSeeker, bool) {
	f, ok := c.Stdin.(interface {
		io.ReadSeeker
		Stat() (fs.FileInfo, error)
	})
	if !ok {
		return nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	if _, err := f.Seek(0, io.SeekCurrent); err != nil {
		return nil, false
	}
	return f, true
}
