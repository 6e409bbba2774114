package tar

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/archive"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// typeOldReg is the type flag of a regular file in pre-POSIX archives
// (archive/tar's deprecated TypeRegA), still met in old archives; a name
// ending in "/" makes it a directory.
const typeOldReg = '\x00'

// layerReader remembers the error of the decompressor under the tar
// reader, to report it the way GNU tar reports its gzip child's failure.
type layerReader struct {
	r    io.Reader
	err  error
	n    int64
	gzip bool
	// format is the other decompressor, if any.
	format *codec.Format
}

func (l *layerReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += int64(n)
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return n, err
}

type reader struct {
	*tarCmd
	tr       *tar.Reader
	out      *bufio.Writer // -O output
	vout     *bufio.Writer // verbose output
	prefixes archive.Prefixes
	links    archive.Prefixes
	matched  []bool
	x        *extractor
	werr     error
}

// openArchive opens the archive for reading, with decompression.
func (t *tarCmd) openArchive() (io.Reader, *layerReader, func(), bool) {
	var src io.Reader
	closeFn := func() {}
	if t.archive == "-" {
		src = t.c.Stdin
	} else {
		f, err := t.c.Open(t.archive)
		if err != nil {
			t.fatal("%s: Cannot open: %s", t.archive, builtins.ErrText(err))
			return nil, nil, nil, false
		}
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			t.fatal("%s: Read error at byte 0, while reading 10240 bytes: Is a directory", t.archive)
			return nil, nil, nil, false
		}
		src, closeFn = f, func() { f.Close() }
	}
	br := bufio.NewReaderSize(src, 64<<10)
	magic, _ := br.Peek(6)
	kind := ""
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		kind = "gzip"
	case bytes.HasPrefix(magic, []byte("BZh")):
		kind = "bzip2"
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		kind = "xz"
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		kind = "zstd"
	}
	layer := &layerReader{r: br}
	gunzip := func() (io.Reader, *layerReader, func(), bool) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			closeFn()
			t.gzipFailed(err)
			return nil, nil, nil, false
		}
		layer.r, layer.gzip = gz, true
		return layer, layer, closeFn, true
	}
	switch {
	case t.gzip:
		return gunzip()
	case kind == "" && t.codec == nil:
		return layer, layer, closeFn, true
	case t.codec == nil && (t.archive == "-" || t.archive == "/dev/stdin"):
		letter := map[string]string{"gzip": "z", "bzip2": "j", "xz": "J", "zstd": "-zstd"}[kind]
		closeFn()
		t.fatal("Archive is compressed. Use -%s option", letter)
		return nil, nil, nil, false
	case kind == "gzip":
		return gunzip()
	case t.codec != nil || codec.Detect(magic) != nil:
		format := t.codec
		if format == nil {
			format = codec.Detect(magic)
		}
		zr, err := format.NewReader(br)
		if err != nil {
			closeFn()
			t.decompressFailed(format, err)
			return nil, nil, nil, false
		}
		layer.r, layer.format = zr, format
		return layer, layer, func() { zr.Close(); closeFn() }, true
	}
	closeFn()
	t.fatal("%s: %s compression is not supported by bashbox's tar", t.archive, kind)
	return nil, nil, nil, false
}

// gzipFailed reports a decompression failure as GNU tar reports its gzip
// child's.
func (t *tarCmd) gzipFailed(err error) {
	if t.flushVerbose != nil {
		t.flushVerbose()
	}
	msg := "not in gzip format"
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		msg = "unexpected end of file"
	case errors.Is(err, gzip.ErrChecksum):
		msg = "invalid compressed data--crc error"
	case !errors.Is(err, gzip.ErrHeader):
		msg = "invalid compressed data--format violated"
	}
	fmt.Fprintf(t.c.Stderr, "\ngzip: stdin: %s\n", msg)
	t.fatal("Child returned status 1")
}

// decompressFailed reports a bzip2, xz or zstd failure as GNU tar reports
// its child's.
func (t *tarCmd) decompressFailed(format *codec.Format, err error) {
	if t.flushVerbose != nil {
		t.flushVerbose()
	}
	var msg string
	status := 1
	switch format {
	case codec.Bzip2:
		msg, status = "bzip2: Data integrity error when decompressing.", 2
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "bzip2: Compressed file ends unexpectedly;"
		}
	case codec.Xz:
		msg = "xz: (stdin): Compressed data is corrupt"
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			msg = "xz: (stdin): Unexpected end of input"
		case errors.Is(err, codec.ErrMemLimit):
			msg = "xz: (stdin): Memory usage limit reached"
		}
	default:
		msg = "zstd: /*stdin*\\: " + err.Error()
	}
	fmt.Fprintf(t.c.Stderr, "%s\n", msg)
	t.fatal("Child returned status %d", status)
}

func (t *tarCmd) read() {
	r := &reader{tarCmd: t, prefixes: archive.Prefixes{}, links: archive.Prefixes{}}
	members, ok := t.expandFilesFrom()
	if !ok {
		return
	}
	t.members = members
	r.matched = make([]bool, len(members))
	verbose := t.c.Stdout
	if t.toStdout {
		verbose = t.c.Stderr
	}
	r.vout = bufio.NewWriterSize(verbose, 16<<10)
	t.flushVerbose = r.vout.Flush
	if t.toStdout {
		r.out = bufio.NewWriterSize(t.c.Stdout, 64<<10)
	}
	if t.mode == 'x' && !t.toStdout {
		// The extraction directories must exist.
		dirs := []string{t.lastDir}
		for _, m := range members {
			dirs = append(dirs, m.dir)
		}
		seen := map[string]bool{}
		for _, d := range dirs {
			if d == "" || seen[d] {
				continue
			}
			seen[d] = true
			fi, err := t.c.Stat(d)
			if err == nil && !fi.IsDir() {
				err = &fs.PathError{Op: "chdir", Path: d, Err: errNotDir}
			}
			if err != nil {
				t.fatal("%s: Cannot open: %s", d, builtins.ErrText(err))
				return
			}
		}
		r.x = newExtractor(t)
	}
	in, layer, closeFn, ok := t.openArchive()
	if !ok {
		return
	}
	defer closeFn()
	r.tr = tar.NewReader(in)
	r.loop(layer)
	if r.x != nil {
		r.x.finish()
	}
	if werr := r.flush(); werr != nil && r.werr == nil {
		r.werr = werr
	}
	if r.werr != nil {
		t.writeFailed("-", r.werr)
		return
	}
	r.reportUnmatched()
}

func (r *reader) flush() error {
	err := r.vout.Flush()
	if r.out != nil {
		if e := r.out.Flush(); e != nil {
			err = e
		}
	}
	return err
}

func (r *reader) loop(layer *layerReader) {
	first := true
	for i := 0; ; i++ {
		if r.ctx.Err() != nil {
			r.fatal("%s", r.ctx.Err().Error())
			return
		}
		hdr, err := r.tr.Next()
		if err != nil {
			if layer.err != nil {
				r.readFailed(layer)
				return
			}
			switch {
			case err == io.EOF:
				if first && layer.n == 0 {
					r.fail("This does not look like a tar archive")
				}
			case first:
				r.fail("This does not look like a tar archive")
			case errors.Is(err, io.ErrUnexpectedEOF):
				r.fatal("Unexpected EOF in archive")
			default:
				r.fail("Skipping to next header")
			}
			return
		}
		first = false
		switch hdr.Typeflag {
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
			continue
		}
		r.member(hdr)
		if layer.err != nil {
			r.readFailed(layer)
			return
		}
		if _, err := r.vout.Write(nil); err != nil && r.werr == nil {
			r.werr = err
		}
		if r.werr != nil {
			return
		}
	}
}

func (r *reader) readFailed(layer *layerReader) {
	if layer.gzip {
		r.gzipFailed(layer.err)
		return
	}
	if layer.format != nil {
		r.decompressFailed(layer.format, layer.err)
		return
	}
	r.fatal("%s: Read error: %s", r.archiveName(), builtins.ErrText(layer.err))
}

// selected finds the command-line operand a member matches: -1 when
// there are operands and none matches, -2 when there are no operands.
func (r *reader) selected(name string) int {
	if len(r.members) == 0 {
		return -2
	}
	name = strings.TrimRight(name, "/")
	for i, m := range r.members {
		op := strings.TrimRight(m.name, "/")
		if op == "" {
			op = m.name
		}
		var ok bool
		if r.wildcards {
			ok = wildMatch(op, name, r.ignoreCase) || leadingDirMatch(op, name, r.ignoreCase)
		} else {
			ok = name == op || strings.HasPrefix(name, op+"/") ||
				r.ignoreCase && (strings.EqualFold(name, op) || len(name) > len(op) && strings.EqualFold(name[:len(op)+1], op+"/"))
		}
		if ok {
			r.matched[i] = true
			return i
		}
	}
	return -1
}

func leadingDirMatch(pattern, name string, fold bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' && wildMatch(pattern, name[:i], fold) {
			return true
		}
	}
	return false
}

func wildMatch(pattern, name string, fold bool) bool {
	var flags glob.Flags
	if fold {
		flags |= glob.CaseFold
	}
	return glob.Match(pattern, name, flags)
}

func (r *reader) reportUnmatched() {
	warned := false
	for i, m := range r.members {
		if r.matched[i] {
			continue
		}
		if !r.wildcards && !warned && strings.ContainsAny(m.name, "*?[") {
			r.errorf("Pattern matching characters used in file names")
			r.errorf("Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning")
			warned = true
		}
		r.fail("%s: Not found in archive", archive.Escape(m.name))
	}
}

func (r *reader) member(hdr *tar.Header) {
	name := hdr.Name
	safe := name
	if !r.absolute {
		var prefix string
		safe, prefix = archive.SaferName(name)
		if prefix != "" && r.prefixes.First(prefix) {
			r.errorf("Removing leading `%s' from member names", prefix)
		}
	}
	link := hdr.Linkname
	if hdr.Typeflag == tar.TypeLink && !r.absolute {
		var prefix string
		link, prefix = archive.SaferName(link)
		if prefix != "" && r.links.First(prefix) {
			r.errorf("Removing leading `%s' from hard link targets", prefix)
		}
	}
	sel := r.selected(safe)
	if sel == -1 || r.excluded(safe) {
		return
	}
	if r.mode == 't' {
		if r.verbose > 0 {
			r.vout.WriteString(r.longLine(hdr))
		} else {
			r.vout.WriteString(archive.Escape(name))
			r.vout.WriteByte('\n')
		}
		return
	}
	if !r.absolute && archive.ContainsDotDot(name) {
		r.fail("%s: Member name contains '..'", archive.Escape(name))
		return
	}
	dest := safe
	if r.strip > 0 {
		var ok bool
		if dest, ok = archive.StripComponents(dest, r.strip); !ok {
			return
		}
		if hdr.Typeflag == tar.TypeLink {
			if link, ok = archive.StripComponents(link, r.strip); !ok {
				return
			}
		}
	}
	if r.verbose > 1 {
		r.vout.WriteString(r.longLine(hdr))
	} else if r.verbose == 1 {
		r.vout.WriteString(archive.Escape(name))
		r.vout.WriteByte('\n')
	}
	if r.toStdout {
		// The names go to standard error, unbuffered, as GNU tar's do.
		r.vout.Flush()
		switch hdr.Typeflag {
		case tar.TypeReg, typeOldReg, tar.TypeCont, tar.TypeGNUSparse:
			if _, err := io.Copy(r.out, textio.Cancellable(r.ctx, r.tr)); err != nil {
				if _, werr := r.out.Write(nil); werr != nil {
					r.werr = werr
				}
			}
		}
		return
	}
	dir := r.lastDir
	if sel >= 0 {
		dir = r.members[sel].dir
	}
	r.x.extract(hdr, dir, dest, link, textio.Cancellable(r.ctx, r.tr))
}

// typeLetters are the type letters of a verbose listing; any other type
// is a file ('-').
var typeLetters = map[byte]byte{
	tar.TypeDir: 'd', tar.TypeSymlink: 'l', tar.TypeLink: 'h', tar.TypeChar: 'c', tar.TypeBlock: 'b',
	tar.TypeFifo: 'p', tar.TypeCont: 'C', tar.TypeGNUSparse: 'S', 'V': 'V',
}

// longLine is the verbose listing line of a member, as GNU tar prints it.
func (t *tarCmd) longLine(hdr *tar.Header) string {
	typ, ok := typeLetters[hdr.Typeflag]
	if !ok {
		typ = '-'
		if strings.HasSuffix(hdr.Name, "/") && hdr.Typeflag == typeOldReg {
			typ = 'd'
		}
	}
	perms := string(typ) + modes.ModeString(modes.FromPerm(uint32(hdr.Mode)))[1:]
	user, group := hdr.Uname, hdr.Gname
	if user == "" || t.numeric {
		user = strconv.Itoa(hdr.Uid)
	}
	if group == "" || t.numeric {
		group = strconv.Itoa(hdr.Gid)
	}
	var size string
	switch hdr.Typeflag {
	case tar.TypeChar, tar.TypeBlock:
		size = fmt.Sprintf("%d,%d", hdr.Devmajor, hdr.Devminor)
	default:
		size = strconv.FormatInt(hdr.Size, 10)
	}
	pad := len(user) + 1 + len(group) + len(size) + 1
	if pad > t.ugswidth {
		t.ugswidth = pad
	}
	layout := "2006-01-02 15:04"
	if t.fullTime {
		layout = "2006-01-02 15:04:05"
	}
	date := hdr.ModTime.In(t.loc).Format(layout)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s %*s %-*s %s", perms, user, group, t.ugswidth-pad+len(size), size, len(layout), date, archive.Escape(hdr.Name))
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		b.WriteString(" -> ")
		b.WriteString(archive.Escape(hdr.Linkname))
	case tar.TypeLink:
		b.WriteString(" link to ")
		b.WriteString(archive.Escape(hdr.Linkname))
	}
	b.WriteByte('\n')
	return b.String()
}
