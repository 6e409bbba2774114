// Package textio holds the helpers shared by the text commands (cat, head,
// tail, wc, sort, uniq, cut, tr, tee, seq, comm, join, paste): buffered
// output with GNU's write-error handling, input opening with "-" for
// standard input, option parsing with --help/--version, GNU quoting styles
// and number parsing.
package textio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Buffer sizes. Reads of large files go in BufSize chunks; streams (pipes,
// where the writer's buffer bounds each chunk) and small files get less,
// and output is buffered in WriteBufSize (larger writes bypass the
// buffer): a loop running a command per file must not allocate and clear
// hundreds of KiB per command.
const (
	BufSize       = 128 << 10
	StreamBufSize = 32 << 10
	WriteBufSize  = 8 << 10
)

// NewWriter buffers a command's standard output.
func NewWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, WriteBufSize) }

// ReadSize is the buffer size for reading r: a regular file's size plus
// one (so that one read also sees the end), StreamBufSize for streams, at
// most BufSize.
func ReadSize(r io.Reader) int {
	switch v := r.(type) { // standard input as Open("-") returns it
	case nopCloser:
		r = v.Reader
	case nopSeekCloser:
		r = v.ReadSeeker
	}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			return int(max(min(fi.Size()+1, BufSize), 512))
		}
	}
	return StreamBufSize
}

// ReadBuffer returns a buffer for reading r: buf itself when it is big
// enough, else a new one of ReadSize(r).
func ReadBuffer(buf []byte, r io.Reader) []byte {
	if len(buf) >= BufSize {
		return buf // big enough for anything: no need to stat r
	}
	if want := ReadSize(r); len(buf) < want {
		return make([]byte, want)
	}
	return buf
}

// NewReader buffers an input stream.
func NewReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, ReadSize(r)) }

// WriteFailed reports a failed write to standard output: quietly 141 on a
// broken pipe (as a process killed by SIGPIPE), else "NAME: write error".
func WriteFailed(c *builtins.Call, err error) int {
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	c.Errorf("write error: %s", builtins.ErrText(err))
	return 1
}

// Finish flushes w and returns status, or the write failure's status.
func Finish(c *builtins.Call, w *bufio.Writer, status int) int {
	if err := w.Flush(); err != nil {
		return WriteFailed(c, err)
	}
	return status
}

// ErrWrite marks an error that came from writing the output, so that a
// command's read loop can tell it from a read error.
type ErrWrite struct{ Err error }

func (e *ErrWrite) Error() string { return e.Err.Error() }
func (e *ErrWrite) Unwrap() error { return e.Err }

// IsWrite reports whether err is an output error.
func IsWrite(err error) bool {
	var we *ErrWrite
	return errors.As(err, &we)
}

type nopCloser struct{ io.Reader }

func (nopCloser) Close() error { return nil }

type nopSeekCloser struct{ io.ReadSeeker }

func (nopSeekCloser) Close() error { return nil }

// Open opens an input operand; "-" is standard input.
func Open(c *builtins.Call, name string) (io.ReadCloser, error) {
	if name == "-" {
		if c.Stdin == nil {
			return nopCloser{strings.NewReader("")}, nil
		}
		if s, ok := c.Stdin.(io.ReadSeeker); ok {
			return nopSeekCloser{s}, nil
		}
		return nopCloser{c.Stdin}, nil
	}
	f, err := c.Open(name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ReadAll reads the whole of an input operand ("-" is standard input)
// within the call's memory budget.
func ReadAll(ctx context.Context, c *builtins.Call, name string) ([]byte, error) {
	r, err := Open(c, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return c.ReadAll(ctx, r)
}

// Stdin returns the call's standard input, never nil.
func Stdin(c *builtins.Call) io.Reader {
	if c.Stdin == nil {
		return strings.NewReader("")
	}
	return c.Stdin
}

// Parse parses args (without the command name) with list plus --help and
// --version. On --help it prints help, on --version the version, and on a
// usage error GNU's message with status failStatus; done is then true and
// code is the exit status.
func Parse(c *builtins.Call, list []builtins.Option, help string, failStatus int) (opts []builtins.Opt, operands []string, code int, done bool) {
	return ParseWith(c, builtins.Options{List: list}, help, failStatus)
}

// ParseWith is Parse with a prepared option table.
func ParseWith(c *builtins.Call, set builtins.Options, help string, failStatus int) (opts []builtins.Opt, operands []string, code int, done bool) {
	return utilcmd.Parse(c, set, help, failStatus)
}

// Write writes p to w, marking a failure as a write error (ErrWrite).
func Write(w *bufio.Writer, p []byte) error {
	if _, err := w.Write(p); err != nil {
		return &ErrWrite{Err: err}
	}
	return nil
}

// AfterNth returns the offset just past the k-th delim of p (len(p) when
// p has fewer).
func AfterNth(p []byte, k uint64, delim byte) int {
	off := 0
	for ; k > 0; k-- {
		i := bytes.IndexByte(p[off:], delim)
		if i < 0 {
			return len(p)
		}
		off += i + 1
	}
	return off
}

// Locale returns the effective LC_CTYPE-like value: LC_ALL, then the
// given category, then LANG.
func Locale(c *builtins.Call, category string) string {
	for _, k := range []string{"LC_ALL", category, "LANG"} {
		if v, ok := c.LookupEnv(k); ok && v != "" {
			return v
		}
	}
	return ""
}

// IsUTF8 reports whether the call's character type locale is UTF-8.
func IsUTF8(c *builtins.Call) bool {
	l := strings.ToLower(Locale(c, "LC_CTYPE"))
	return strings.Contains(l, "utf-8") || strings.Contains(l, "utf8")
}

// CancellableWriter wraps w so that writing fails with the context's
// error once ctx is done: a command printing a huge result from a library
// that knows no context stops with its call.
func CancellableWriter(ctx context.Context, w io.Writer) io.Writer {
	return &cancellableWriter{ctx: ctx, w: w}
}

type cancellableWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *cancellableWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// Cancellable wraps r so that a long copy or read stops, with the
// context's error, once ctx is done.
func Cancellable(ctx context.Context, r io.Reader) io.Reader {
	return &cancellable{ctx: ctx, r: r}
}

type cancellable struct {
	ctx context.Context
	r   io.Reader
}

// Read checks the context on every read: one read can stand for
// milliseconds of work downstream (a compressor's block, under -race
// tens of them), and the check is an atomic load.
func (c *cancellable) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
