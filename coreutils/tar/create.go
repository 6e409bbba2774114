package tar

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/archive"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/overlayfs"
)

// recordSize is GNU tar's default record: 20 blocks of 512 bytes.
const recordSize = 20 * 512

// countWriter counts the bytes of the tar stream, for the final padding.
// While a header is being written it also gives header blocks GNU tar's
// exact layout: archive/tar fills the device number fields of every
// member with zeros, GNU tar leaves them empty but for devices.
type countWriter struct {
	w        io.Writer
	n        int64
	err      error
	inHeader bool
}

func (cw *countWriter) Write(p []byte) (int, error) {
	if cw.inHeader && len(p) == 512 {
		fixHeader(p)
	}
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	if err != nil && cw.err == nil {
		cw.err = err
	}
	return n, err
}

type creator struct {
	*tarCmd
	tw          *tar.Writer
	cw          *countWriter
	vout        *bufio.Writer
	archivePath string // physical path of the archive file, "" for stdout
	prefixes    archive.Prefixes
	writeErr    error

	// Hard links: with several names on the command line, a file met
	// again is stored as a link to its first name.
	manyNames    bool
	seen         map[string]string
	linkPrefixes archive.Prefixes
}

// compressed reports whether the archive is to be gzip-compressed, or
// else the other format it is to be compressed with (-a goes by the
// archive's suffix, as GNU tar does).
func (t *tarCmd) compressed() (bool, *codec.Format) {
	if t.gzip || t.codec != nil {
		return t.gzip, t.codec
	}
	if t.auto {
		for _, s := range []struct {
			suffix string
			format *codec.Format
		}{{".gz", nil}, {".tgz", nil}, {".taz", nil}, {".bz2", codec.Bzip2}, {".tbz", codec.Bzip2}, {".tbz2", codec.Bzip2},
			{".tz2", codec.Bzip2}, {".xz", codec.Xz}, {".txz", codec.Xz}, {".zst", codec.Zstd}, {".tzst", codec.Zstd}} {
			if strings.HasSuffix(t.archive, s.suffix) {
				return s.format == nil, s.format
			}
		}
	}
	return false, nil
}

func (t *tarCmd) create() {
	cr := &creator{tarCmd: t, prefixes: archive.Prefixes{}, linkPrefixes: archive.Prefixes{}, seen: map[string]string{}}
	var out io.Writer
	var file io.Closer
	verbose := t.c.Stdout
	if t.archive == "-" {
		out = t.c.Stdout
		verbose = t.c.Stderr
	} else {
		f, err := t.c.Create(t.archive)
		if err != nil {
			t.fatal("%s: Cannot open: %s", t.archive, builtins.ErrText(err))
			return
		}
		out, file = f, f
		cr.archivePath = meta.Physical(t.c, t.c.Abs(t.archive))
	}
	cr.vout = bufio.NewWriterSize(verbose, 16<<10)
	t.flushVerbose = cr.vout.Flush
	defer cr.vout.Flush()
	bw := bufio.NewWriterSize(out, 64<<10)
	var gz io.WriteCloser
	var stream io.Writer = bw
	if isGzip, format := t.compressed(); isGzip {
		w, _ := gzip.NewWriterLevel(bw, gzip.DefaultCompression)
		w.OS = 3 // Unix, as gzip writes
		gz, stream = w, w
	} else if format != nil {
		w, err := format.NewWriter(bw, 0)
		if err != nil {
			t.fatal("%s", err)
			return
		}
		gz, stream = w, w
	}
	cw := &countWriter{w: stream}
	cr.cw = cw
	cr.tw = tar.NewWriter(cw)

	members, ok := t.expandFilesFrom()
	cr.manyNames = len(t.members) > 1 || len(t.filesFrom) > 0
	if ok {
		for _, m := range members {
			if t.ctx.Err() != nil {
				break
			}
			cr.addTop(m)
			if cr.writeErr != nil {
				break
			}
		}
	}
	if cr.writeErr == nil {
		cr.tw.Close()
		if pad := (recordSize - cw.n%recordSize) % recordSize; pad > 0 {
			cw.Write(make([]byte, pad))
		}
		cr.writeErr = cw.err
	}
	if gz != nil {
		if err := gz.Close(); err != nil && cr.writeErr == nil {
			cr.writeErr = err
		}
	}
	if err := bw.Flush(); err != nil && cr.writeErr == nil {
		cr.writeErr = err
	}
	if file != nil {
		if err := file.Close(); err != nil && cr.writeErr == nil {
			cr.writeErr = err
		}
	}
	if cr.writeErr != nil {
		t.writeFailed(t.archiveName(), cr.writeErr)
	}
}

// writeFailed ends a run whose output to name failed: with status 141 and
// no message on a broken pipe, as a process killed by SIGPIPE ends, else
// with tar's "Cannot write".
func (t *tarCmd) writeFailed(name string, err error) {
	if builtins.IsBrokenPipe(err) {
		t.status = 141
		return
	}
	t.fatal("%s: Cannot write: %s", name, builtins.ErrText(err))
}

func (t *tarCmd) archiveName() string {
	if t.archive == "-" {
		return "-"
	}
	return t.archive
}

// expandFilesFrom replaces the -T markers in the member list by the names
// their files hold.
func (t *tarCmd) expandFilesFrom() ([]member, bool) {
	var out []member
	for _, m := range t.members {
		list, ok := strings.CutPrefix(m.name, "\x00T")
		if !ok {
			out = append(out, m)
			continue
		}
		names, err := t.readList(list, t.nullSep)
		if err != nil {
			t.fatal("%s: Cannot open: %s", list, builtins.ErrText(err))
			return nil, false
		}
		for _, n := range names {
			out = append(out, member{n, m.dir})
		}
	}
	return out, true
}

// addTop archives one command-line name and, for directories, what is
// below it.
func (cr *creator) addTop(m member) {
	name := m.name
	for len(name) > 1 && strings.HasSuffix(name, "/") {
		name = name[:len(name)-1]
	}
	if cr.excluded(name) {
		return
	}
	cr.add(name, cr.path(m.dir, name), true)
}

// excluded reports whether an --exclude pattern matches name.
func (t *tarCmd) excluded(name string) bool {
	if len(t.excludes) == 0 {
		return false
	}
	name = strings.TrimSuffix(name, "/")
	for _, p := range t.excludes {
		if excludeMatch(p, name, t.ignoreCase, t.anchored != nil && *t.anchored) {
			return true
		}
	}
	return false
}

// memberName is the stored name of a file: its name with the unsafe
// prefix removed (reported once per prefix).
func (cr *creator) memberName(name string) string {
	if cr.absolute {
		return name
	}
	rest, prefix := archive.SaferName(name)
	if prefix != "" && cr.prefixes.First(prefix) {
		cr.errorf("Removing leading `%s' from member names", prefix)
	}
	return rest
}

func (cr *creator) add(name, p string, top bool) {
	if err := cr.ctx.Err(); err != nil {
		cr.writeErr = err
		return
	}
	var fi fs.FileInfo
	var err error
	if cr.deref {
		fi, err = cr.c.Stat(p)
	} else {
		fi, err = cr.c.Lstat(p)
	}
	if err != nil {
		cr.fail("%s: Cannot stat: %s", name, builtins.ErrText(err))
		return
	}
	stored := cr.memberName(name)
	hdr := cr.header(fi, stored, p)
	mode := fi.Mode()
	switch {
	case mode.IsDir():
		cr.addDir(name, p, hdr, stored)
		return
	case mode&fs.ModeSymlink != 0:
		target, err := cr.c.FS.ReadlinkIfPossible(cr.c.Abs(p))
		if err != nil {
			cr.fail("%s: Cannot readlink: %s", name, builtins.ErrText(err))
			return
		}
		if cr.hardLink(hdr, name, linkKey(fi, meta.Physical(cr.c, cr.c.Abs(p)))) {
			break
		}
		hdr.Typeflag = tar.TypeSymlink
		hdr.Linkname = target
		cr.verboseLine(hdr, name)
		cr.writeHeader(hdr)
	case mode.IsRegular():
		phys := meta.Physical(cr.c, cr.c.Abs(p))
		if cr.archivePath != "" && phys == cr.archivePath {
			cr.errorf("%s: file is the archive; not dumped", name)
			return
		}
		if cr.hardLink(hdr, name, linkKey(fi, phys)) {
			break
		}
		f, err := cr.c.Open(p)
		if err != nil {
			cr.fail("%s: Cannot open: %s", name, builtins.ErrText(err))
			return
		}
		hdr.Typeflag = tar.TypeReg
		hdr.Size = fi.Size()
		cr.verboseLine(hdr, name)
		if !cr.writeHeader(hdr) {
			f.Close()
			return
		}
		n, err := io.Copy(cr.tw, textio.Cancellable(cr.ctx, io.LimitReader(f, hdr.Size)))
		f.Close()
		if err != nil && !isReadErr(err, cr.tw) {
			cr.writeErr = err
			return
		}
		if n < hdr.Size {
			if err != nil {
				cr.fail("%s: Read error at byte %d, while reading %d bytes: %s", name, n, hdr.Size-n, builtins.ErrText(err))
			} else {
				cr.fail("%s: File shrank by %d bytes; padding with zeros", name, hdr.Size-n)
			}
			if _, err := cr.tw.Write(make([]byte, hdr.Size-n)); err != nil {
				cr.writeErr = err
				return
			}
		}
	case mode&fs.ModeNamedPipe != 0:
		hdr.Typeflag = tar.TypeFifo
		cr.verboseLine(hdr, name)
		cr.writeHeader(hdr)
	case mode&fs.ModeSocket != 0:
		cr.errorf("%s: socket ignored", name)
		return
	default:
		cr.fail("%s: Cannot add file of this type", name)
		return
	}
	if cr.removeFiles && cr.writeErr == nil {
		if err := cr.c.FS.Remove(cr.c.Abs(p)); err != nil {
			cr.fail("%s: Cannot unlink: %s", name, builtins.ErrText(err))
		}
	}
}

// isReadErr tells a failure to read the file from a failure to write the
// archive (which tar.Writer remembers).
func isReadErr(err error, tw *tar.Writer) bool {
	_, werr := tw.Write(nil)
	return werr == nil
}

// linkKey identifies a file for hard-link detection: a file with several
// names by its inode (GNU tar's test), else by its physical path.
func linkKey(fi fs.FileInfo, phys string) string {
	if st, ok := overlayfs.SysStat(fi); ok && st.Nlink > 1 && st.Ino != 0 && !fi.IsDir() {
		return fmt.Sprintf("\x00%d:%d", st.Dev, st.Ino)
	}
	return phys
}

// hardLink writes a file met a second time (the same file reached by two
// names) as a hard link to its first name, as GNU tar does when it is
// given several names; it reports whether it did.
func (cr *creator) hardLink(hdr *tar.Header, name, phys string) bool {
	if !cr.manyNames && !strings.HasPrefix(phys, "\x00") {
		return false
	}
	first, seen := cr.seen[phys]
	if !seen {
		cr.seen[phys] = name
		return false
	}
	target := first
	if !cr.absolute {
		var prefix string
		target, prefix = archive.SaferName(first)
		if prefix != "" && cr.linkPrefixes.First(prefix) {
			cr.errorf("Removing leading `%s' from hard link targets", prefix)
		}
	}
	hdr.Typeflag = tar.TypeLink
	hdr.Linkname = target
	hdr.Size = 0
	cr.verboseLine(hdr, name)
	cr.writeHeader(hdr)
	return true
}

func (cr *creator) addDir(name, p string, hdr *tar.Header, stored string) {
	hdr.Typeflag = tar.TypeDir
	if !strings.HasSuffix(hdr.Name, "/") {
		hdr.Name += "/"
	}
	display := name
	if !strings.HasSuffix(display, "/") {
		display += "/"
	}
	cr.verboseLine(hdr, display)
	if !cr.writeHeader(hdr) {
		return
	}
	if cr.noRecursion {
		return
	}
	entries, err := cr.c.ReadDir(p)
	if err != nil {
		cr.fail("%s: Cannot open: %s", name, builtins.ErrText(err))
		return
	}
	if cr.sortName {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	}
	prefix := name + "/"
	if name == "/" {
		prefix = "/"
	}
	pprefix := p + "/"
	if p == "/" {
		pprefix = "/"
	}
	for _, e := range entries {
		child := prefix + e.Name()
		if cr.excluded(child) {
			continue
		}
		cr.add(child, pprefix+e.Name(), false)
		if cr.writeErr != nil {
			return
		}
	}
	if cr.removeFiles {
		if err := cr.c.FS.Remove(cr.c.Abs(p)); err != nil {
			cr.fail("%s: Cannot rmdir: %s", name, builtins.ErrText(err))
		}
	}
}

// header fills the fields common to every member type.
func (cr *creator) header(fi fs.FileInfo, stored, p string) *tar.Header {
	owner := meta.OwnerOf(cr.c, meta.Physical(cr.c, cr.c.Abs(p)))
	hdr := &tar.Header{
		Name:    stored,
		Mode:    int64(modes.Perm(fi.Mode())),
		Uid:     owner.UID,
		Gid:     owner.GID,
		Uname:   owner.User,
		Gname:   owner.Group,
		ModTime: fi.ModTime().Truncate(time.Second),
	}
	if cr.mtime != nil {
		hdr.ModTime = cr.mtime.Truncate(time.Second)
	}
	if cr.ownerSet {
		hdr.Uname = cr.owner
		if cr.ownerID >= 0 {
			hdr.Uid = cr.ownerID
		}
	}
	if cr.groupSet {
		hdr.Gname = cr.group
		if cr.groupID >= 0 {
			hdr.Gid = cr.groupID
		}
	}
	if cr.numeric {
		hdr.Uname, hdr.Gname = "", ""
	}
	switch cr.format {
	case "ustar", "v7":
		hdr.Format = tar.FormatUSTAR
	case "posix", "pax":
		hdr.Format = tar.FormatPAX
	default:
		hdr.Format = tar.FormatGNU
	}
	return hdr
}

func (cr *creator) writeHeader(hdr *tar.Header) bool {
	cr.cw.inHeader = true
	err := cr.tw.WriteHeader(hdr)
	cr.cw.inHeader = false
	if err != nil {
		if _, werr := cr.tw.Write(nil); werr == nil || hdr.Format != tar.FormatGNU {
			// The header cannot be encoded in this format.
			cr.fail("%s: %s", hdr.Name, err.Error())
			return false
		}
		cr.writeErr = err
		return false
	}
	return true
}

// verboseLine prints the -v line for a member being added.
func (cr *creator) verboseLine(hdr *tar.Header, name string) {
	switch {
	case cr.verbose == 0:
	case cr.verbose == 1:
		cr.vout.WriteString(archive.Escape(name))
		cr.vout.WriteByte('\n')
	default:
		h := *hdr
		h.Name = name
		cr.vout.WriteString(cr.longLine(&h))
	}
}

// excludeMatch applies one --exclude pattern as GNU tar does by default:
// wildcards that match '/', unanchored (the pattern may match any trailing
// run of components), and a match on a directory covers what is below it.
func excludeMatch(pattern, name string, fold, anchored bool) bool {
	if matchLeadingDir(pattern, name, fold) {
		return true
	}
	if anchored {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' && i+1 < len(name) && name[i+1] != '/' {
			if matchLeadingDir(pattern, name[i+1:], fold) {
				return true
			}
		}
	}
	return false
}

func matchLeadingDir(pattern, name string, fold bool) bool {
	if wildMatch(pattern, name, fold) {
		return true
	}
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' && wildMatch(pattern, name[:i], fold) {
			return true
		}
	}
	return false
}

// fixHeader clears the device fields of a GNU header block that is not a
// device, and recomputes its checksum.
func fixHeader(b []byte) {
	if string(b[257:265]) != "ustar  \x00" {
		return
	}
	if b[156] == tar.TypeChar || b[156] == tar.TypeBlock {
		return
	}
	if !checksumOK(b) {
		return
	}
	for i := 329; i < 345; i++ {
		b[i] = 0
	}
	if (b[156] == 'K' || b[156] == 'L') && string(b[:14]) == "././@LongLink\x00" {
		// GNU's long-name records: mode 0644, owned by root.
		copy(b[100:108], "0000644\x00")
		copy(b[265:297], "root\x00")
		copy(b[297:329], "root\x00")
	}
	var sum int64
	for i := range 512 {
		if i >= 148 && i < 156 {
			sum += ' '
		} else {
			sum += int64(b[i])
		}
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
}

func checksumOK(b []byte) bool {
	var sum int64
	for i := range 512 {
		if i >= 148 && i < 156 {
			sum += ' '
		} else {
			sum += int64(b[i])
		}
	}
	field := strings.TrimRight(strings.TrimLeft(string(b[148:156]), " "), " \x00")
	v, err := strconv.ParseInt(field, 8, 64)
	return err == nil && v == sum
}
