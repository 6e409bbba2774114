package gzipcmd

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"time"
)

// counter counts bytes passing through a reader or writer.
type counter struct {
	r io.Reader
	w io.Writer
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// copyErr is a failed copy, telling reading from writing.
type copyErr struct {
	err   error
	write bool
}

// copyStream copies r to w in chunks, checking for cancellation.
func (g *gz) copyStream(w io.Writer, r io.Reader) (int64, *copyErr) {
	buf := make([]byte, 64<<10)
	var total int64
	for {
		if g.ctx.Err() != nil { // an atomic load per 64 KiB compressed
			return total, &copyErr{err: g.ctx.Err()}
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return total, &copyErr{err: werr, write: true}
			}
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, &copyErr{err: err}
		}
	}
}

// headerLength is the size of a member's header plus its 8-byte trailer,
// gzip's header_bytes.
func headerLength(h *gzip.Header) int64 {
	n := int64(10 + 8)
	if h.Extra != nil {
		n += 2 + int64(len(h.Extra))
	}
	if h.Name != "" {
		n += int64(len(h.Name)) + 1
	}
	if h.Comment != "" {
		n += int64(len(h.Comment)) + 1
	}
	return n
}

// compressStream writes r gzip-compressed to w and returns the sizes.
func (g *gz) compressStream(r io.Reader, w io.Writer, name string, mtime time.Time) (in, out, hdr int64, ok bool) {
	cw := &counter{w: w}
	zw, _ := gzip.NewWriterLevel(cw, g.level)
	zw.OS = 3
	if name != "" {
		zw.Name = name
	}
	if !mtime.IsZero() && mtime.Unix() > 0 && mtime.Unix() <= 0xffffffff {
		zw.ModTime = mtime
	}
	n, cerr := g.copyStream(zw, r)
	if cerr == nil {
		if err := zw.Close(); err != nil {
			cerr = &copyErr{err: err, write: true}
		}
	}
	if cerr != nil {
		g.copyFailed(cerr, "stdin")
		return n, cw.n, 0, false
	}
	return n, cw.n, headerLength(&zw.Header), true
}

func (g *gz) copyFailed(cerr *copyErr, name string) {
	if cerr.write {
		if g.werr == nil {
			g.werr = cerr.err
		}
		return
	}
	g.errorf("%s: %s", name, errText(cerr.err))
}

func errText(err error) string { return dataErrText(err) }

// compressFile compresses a file operand to w (standard output).
func (g *gz) compressFile(r io.Reader, w io.Writer, in inputInfo) bool {
	name, mtime := path.Base(in.name), in.mtime
	if g.noName == 1 {
		name, mtime = "", time.Time{}
	}
	nin, nout, hdr, ok := g.compressStream(r, w, name, mtime)
	if ok && g.verbose > 0 {
		fmt.Fprintf(g.c.Stderr, "%s", formatRatio(ratio(nin-(nout-hdr), nin)))
	}
	return ok
}

func (g *gz) compressToFile(r io.Reader, in inputInfo, ofname string) {
	f, ok := g.createOutput(ofname)
	if !ok {
		return
	}
	name, mtime := path.Base(in.name), in.mtime
	if g.noName == 1 {
		name, mtime = "", time.Time{}
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	cw := &counter{w: bw}
	zw, _ := gzip.NewWriterLevel(cw, g.level)
	zw.OS = 3
	zw.Name = name
	if !mtime.IsZero() && mtime.Unix() > 0 && mtime.Unix() <= 0xffffffff {
		zw.ModTime = mtime
	}
	nin, cerr := g.copyStream(zw, r)
	if cerr == nil {
		if err := zw.Close(); err != nil {
			cerr = &copyErr{err: err, write: true}
		}
	}
	if cerr == nil {
		if err := bw.Flush(); err != nil {
			cerr = &copyErr{err: err, write: true}
		}
	}
	if err := f.Close(); err != nil && cerr == nil {
		cerr = &copyErr{err: err, write: true}
	}
	if cerr != nil {
		g.c.FS.Remove(g.c.Abs(ofname))
		if cerr.write {
			g.errorf("%s: %s", ofname, errText(cerr.err))
		} else {
			g.errorf("%s: %s", in.name, errText(cerr.err))
		}
		return
	}
	g.finishOutput(in, ofname, in.mtime)
	g.verboseDone(ratio(nin-(cw.n-headerLength(&zw.Header)), nin), ofname)
}

// openGzip reads the first member's header. When the data is not gzip
// and -c -f are in force, it copies the input unchanged to w and
// returns nil with ok set.
func (g *gz) openGzip(br *bufio.Reader, name string, w io.Writer) (*gzip.Reader, bool) {
	magic, _ := br.Peek(2)
	if len(magic) == 0 {
		g.dataError(name, io.ErrUnexpectedEOF)
		return nil, false
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		if g.force && g.toStdout && !g.list && !g.test {
			if _, cerr := g.copyStream(w, br); cerr != nil {
				g.copyFailed(cerr, name)
				return nil, false
			}
			return nil, true
		}
		if len(magic) < 2 && !g.force {
			g.dataError(name, io.ErrUnexpectedEOF)
			return nil, false
		}
		g.dataError(name, errNotGzip)
		return nil, false
	}
	z, err := gzip.NewReader(br)
	if err != nil {
		g.dataError(name, err)
		return nil, false
	}
	z.Multistream(false)
	return z, true
}

// decompressMembers copies every member of the stream to w. It returns
// the uncompressed size and whether the stream was sound (a trailing
// garbage warning still counts as sound).
func (g *gz) decompressMembers(z *gzip.Reader, br *bufio.Reader, w io.Writer, name string) (int64, bool) {
	var total int64
	for {
		n, cerr := g.copyStream(w, z)
		total += n
		if cerr != nil {
			if cerr.write {
				g.copyFailed(cerr, name)
			} else {
				g.dataError(name, cerr.err)
			}
			return total, false
		}
		next, _ := br.Peek(2)
		if len(next) == 0 {
			return total, true
		}
		if len(next) == 2 && next[0] == 0x1f && next[1] == 0x8b {
			if err := z.Reset(br); err != nil {
				g.dataError(name, err)
				return total, false
			}
			z.Multistream(false)
			continue
		}
		// Trailing bytes: zeros are ignored silently, anything else is
		// reported and ignored.
		rest, _ := io.ReadAll(br)
		if len(bytes.Trim(rest, "\x00")) != 0 {
			if !g.quiet {
				g.flushOut()
				fmt.Fprintf(g.c.Stderr, "\ngzip: %s: decompression OK, trailing garbage ignored\n", name)
			}
			g.setStatus(exitWarning)
		}
		return total, true
	}
}

// decompressStream decompresses an input to w (standard output or, for
// -t, nowhere).
func (g *gz) decompressStream(src io.Reader, w io.Writer, in inputInfo, _ *gzip.Header) bool {
	cnt := &counter{r: src}
	br := bufio.NewReaderSize(cnt, 64<<10)
	z, ok := g.openGzip(br, in.name, w)
	if z == nil {
		return ok
	}
	hdr := headerLength(&z.Header)
	out, ok := g.decompressMembers(z, br, w, in.name)
	if ok && g.verbose > 0 && !g.test && in.name != "stdin" {
		fmt.Fprintf(g.c.Stderr, "%s", formatRatio(ratio(out-(cnt.n-hdr), out)))
	}
	return ok
}

func (g *gz) decompressToFile(src io.Reader, in inputInfo, ofname string) {
	cnt := &counter{r: src}
	br := bufio.NewReaderSize(cnt, 64<<10)
	z, _ := g.openGzip(br, in.name, nil)
	if z == nil {
		return
	}
	mtime := in.mtime
	if g.noName == 0 {
		if z.Name != "" {
			if base := path.Base(z.Name); base != "." && base != "/" && base != ".." {
				ofname = path.Join(path.Dir(in.name), base)
			}
		}
		if !z.ModTime.IsZero() && z.ModTime.Unix() != 0 {
			mtime = z.ModTime
		}
	}
	f, ok := g.createOutput(ofname)
	if !ok {
		return
	}
	hdr := headerLength(&z.Header)
	bw := bufio.NewWriterSize(f, 64<<10)
	out, ok := g.decompressMembers(z, br, bw, in.name)
	if ok {
		if err := bw.Flush(); err != nil {
			g.errorf("%s: %s", ofname, errText(err))
			ok = false
		}
	}
	if err := f.Close(); err != nil && ok {
		g.errorf("%s: %s", ofname, errText(err))
		ok = false
	}
	if !ok {
		g.c.FS.Remove(g.c.Abs(ofname))
		return
	}
	g.finishOutput(in, ofname, mtime)
	g.verboseDone(ratio(out-(cnt.n-hdr), out), ofname)
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// listFile lists one file operand (gzip -l).
func (g *gz) listFile(f io.ReadSeeker, r *bufio.Reader, in inputInfo, ofname string) {
	z, ok := g.openGzip(r, in.name, nil)
	if z == nil || !ok {
		return
	}
	var trailer [8]byte
	if _, err := f.Seek(-8, io.SeekEnd); err != nil {
		g.dataError(in.name, io.ErrUnexpectedEOF)
		return
	}
	if _, err := io.ReadFull(f, trailer[:]); err != nil {
		g.dataError(in.name, io.ErrUnexpectedEOF)
		return
	}
	g.listLine(z, in, ofname, in.size, trailer)
}

// listStream lists standard input: its sizes come from reading it whole.
func (g *gz) listStream(src io.Reader, in inputInfo, ofname string) {
	cnt := &counter{r: src}
	br := bufio.NewReaderSize(cnt, 64<<10)
	z, ok := g.openGzip(br, in.name, nil)
	if z == nil || !ok {
		return
	}
	var last []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := br.Read(buf)
		if n > 0 {
			last = append(last, buf[:n]...)
			if len(last) > 8 {
				last = last[len(last)-8:]
			}
		}
		if err != nil {
			break
		}
	}
	if cnt.n < 18 || len(last) < 8 {
		g.dataError(in.name, io.ErrUnexpectedEOF)
		return
	}
	var trailer [8]byte
	copy(trailer[:], last)
	g.listLine(z, in, ofname, cnt.n, trailer)
}

func (g *gz) listLine(z *gzip.Reader, in inputInfo, ofname string, size int64, trailer [8]byte) {
	if g.noName == 0 && z.Name != "" {
		ofname = path.Base(z.Name)
	}
	if !g.listed {
		g.listed = true
		if g.verbose > 0 {
			g.out.WriteString("method  crc     date  time  ")
		}
		if !g.quiet {
			fmt.Fprintf(g.out, "%*s %*s  ratio uncompressed_name\n", 19, "compressed", 19, "uncompressed")
		}
	}
	crc := binary.LittleEndian.Uint32(trailer[:4])
	isize := int64(binary.LittleEndian.Uint32(trailer[4:]))
	hdr := headerLength(&z.Header)
	if g.verbose > 0 {
		// The stored time is shown only with -N, as gunzip restores it.
		stamp := in.mtime
		if g.noName == 0 && !z.ModTime.IsZero() && z.ModTime.Unix() != 0 {
			stamp = z.ModTime
		}
		if stamp.IsZero() {
			stamp = time.Unix(0, 0)
		}
		t := stamp.In(g.loc)
		fmt.Fprintf(g.out, "%5s %08x %s%3d %02d:%02d ", "defla", crc, months[t.Month()-1], t.Day(), t.Hour(), t.Minute())
	}
	fmt.Fprintf(g.out, "%*d %*d %s %s\n", 19, size, 19, isize, formatRatio(ratio(isize-(size-hdr), isize)), ofname)
	g.totalIn += size
	g.totOut += isize
	g.lastHeaderLength = hdr
}

func (g *gz) listTotals() {
	if g.totalIn <= 0 || g.totOut <= 0 {
		return
	}
	if g.verbose > 0 {
		g.out.WriteString("                            ")
	}
	fmt.Fprintf(g.out, "%*d %*d %s (totals)\n", 19, g.totalIn, 19, g.totOut,
		formatRatio(ratio(g.totOut-(g.totalIn-g.lastHeaderLength), g.totOut)))
}
