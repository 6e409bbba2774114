// Package zip implements Info-ZIP zip 3.0 over the sandbox filesystem:
// creating and updating archives (-r, -j, -x, -i, -0..-9, -y, -m, -u, -f,
// -d, -D, -T, -@, "-" for standard input or output), with Info-ZIP's
// option syntax and messages.
//
// Compression uses Go's compress/flate: a member is deflated when that
// makes it smaller and stored otherwise, as Info-ZIP decides, but the
// compressed sizes (and so the "deflated N%" figures) can differ from
// Info-ZIP's by a point or two.
package zip

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// Info-ZIP exit codes.
const (
	zOK      = 0
	zErrForm = 3
	zErrMem  = 4
	zErrNone = 12 // nothing to do
	zErrParm = 16
	zErrOpen = 18
	zErrRead = 11
	zErrWrit = 14
)

type zipCmd struct {
	ctx context.Context
	c   *builtins.Call

	recurse, quiet, junk, symlinks, move, update, freshen, del bool
	comment                                                    bool
	noDirs, test, namesStdin, noExtra                          bool
	level                                                      int
	excludes, includes                                         []string

	zipfile string
	files   []string

	msg io.Writer // where messages go (stdout, or stderr when the archive is)
	loc *time.Location

	archive  string // physical path of the archive, to skip it
	umask    fs.FileMode
	warnings int
}

// entry is one member of the archive being built.
type entry struct {
	hdr  *zip.FileHeader
	old  *zip.File // kept from the existing archive
	data []byte    // compressed (or stored) data of a new member
	crc  uint32
	size uint64
}

// Run is the zip command.
func Run(ctx context.Context, c *builtins.Call) int {
	z := &zipCmd{ctx: ctx, c: c, level: 6, msg: c.Stdout, umask: c.Umask}
	z.loc = timefmt.Location(c.LookupEnv)
	if st, done := z.parse(c.Args[1:]); done {
		return st
	}
	return z.run()
}

func (z *zipCmd) fatal(code int, format string, args ...any) int {
	fmt.Fprintf(z.msg, "\nzip error: %s\n", fmt.Sprintf(format, args...))
	return code
}

func (z *zipCmd) warn(format string, args ...any) {
	fmt.Fprintf(z.msg, "\tzip warning: %s\n", fmt.Sprintf(format, args...))
	z.warnings++
}

// parse reads Info-ZIP's command line: options anywhere, the first
// operand is the archive, -x and -i take every following operand up to
// the next option.
func (z *zipCmd) parse(args []string) (int, bool) {
	if len(args) == 0 {
		// Without arguments and a terminal, zip compresses stdin to stdout.
		z.zipfile, z.files = "-", []string{"-"}
		z.msg = z.c.Stderr
		return 0, false
	}
	var list *[]string
	endOpts := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !endOpts && a == "--" {
			endOpts = true
			list = nil
			continue
		}
		if endOpts || a == "-" || !strings.HasPrefix(a, "-") {
			switch {
			case list != nil && a != "-":
				*list = append(*list, a)
			case z.zipfile == "":
				z.zipfile = a
			default:
				z.files = append(z.files, a)
			}
			continue
		}
		list = nil
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch name {
			case "recurse-paths":
				z.recurse = true
			case "quiet":
				z.quiet = true
			case "junk-paths":
				z.junk = true
			case "symlinks":
				z.symlinks = true
			case "move":
				z.move = true
			case "update":
				z.update = true
			case "freshen":
				z.freshen = true
			case "delete":
				z.del = true
			case "no-dir-entries":
				z.noDirs = true
			case "test":
				z.test = true
			case "names-stdin":
				z.namesStdin = true
			case "no-extra":
				z.noExtra = true
			case "store-only":
				z.level = 0
			case "compression-method":
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i]
				}
				if strings.EqualFold(val, "store") {
					z.level = 0
				}
			case "exclude":
				list = &z.excludes
			case "include":
				list = &z.includes
			case "help":
				io.WriteString(z.c.Stdout, help)
				return 0, true
			case "version":
				return z.c.Version(), true
			default:
				// Info-ZIP prints this on standard output; bashbox puts
				// it on standard error, as every command here reports an
				// unknown long option.
				fmt.Fprintf(z.c.Stderr, "\nzip error: Invalid command arguments (long option '%s' not supported)\n", name)
				return zErrParm, true
			}
			continue
		}
		opts := a[1:]
		for j := 0; j < len(opts); j++ {
			switch ch := opts[j]; ch {
			case 'r', 'R':
				z.recurse = true
			case 'q':
				z.quiet = true
			case 'j':
				z.junk = true
			case 'y':
				z.symlinks = true
			case 'm':
				z.move = true
			case 'u':
				z.update = true
			case 'f':
				z.freshen = true
			case 'd':
				z.del = true
			case 'D':
				z.noDirs = true
			case 'T':
				z.test = true
			case '@':
				z.namesStdin = true
			case 'X':
				z.noExtra = true
			case 'v':
				if len(args) == 1 {
					return z.c.Version(), true
				}
			case 'z':
				z.comment = true
			case 'o', 'l', 'k', 'L', 'A', 'J', 'F', 'S', 'w':
				// Accepted; they do not change the sandbox's archives.
				if ch == 'L' {
					io.WriteString(z.c.Stdout, "zip (bashbox) "+builtins.ReleaseVersion+": follows Info-ZIP zip 3.0's behaviour.\n")
					return 0, true
				}
			case 'h', '?':
				io.WriteString(z.c.Stdout, help)
				return 0, true
			case 'x':
				list = &z.excludes
			case 'i':
				list = &z.includes
			case 'b', 't', 'n', 'Z', 'P':
				// Options with a value, attached or in the next word.
				val := opts[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				if ch == 'Z' && strings.EqualFold(val, "store") {
					z.level = 0
				}
				if ch == 'P' {
					return z.fatal(zErrParm, "Invalid command arguments (encryption is not supported by bashbox's zip)"), true
				}
				j = len(opts)
			case 'e':
				return z.fatal(zErrParm, "Invalid command arguments (encryption is not supported by bashbox's zip)"), true
			default:
				if ch >= '0' && ch <= '9' {
					z.level = int(ch - '0')
					continue
				}
				return z.fatal(zErrParm, "Invalid command arguments (short option '%c' not supported)", ch), true
			}
		}
	}
	if z.zipfile == "" {
		if len(z.excludes) > 0 || len(z.includes) > 0 {
			return z.fatal(zErrParm, "Invalid command arguments (nothing to select from)"), true
		}
		z.zipfile = "-"
		z.files = []string{"-"}
	}
	if z.zipfile == "-" {
		z.msg = z.c.Stderr
	} else if path.Ext(path.Base(z.zipfile)) == "" {
		z.zipfile += ".zip"
	}
	return 0, false
}

// match applies Info-ZIP's wildcards, where * also matches '/'.
func match(pattern, name string) bool {
	return glob.Match(pattern, name, 0)
}

func (z *zipCmd) selected(name string) bool {
	for _, p := range z.excludes {
		if match(p, name) || match(p, strings.TrimSuffix(name, "/")) {
			return false
		}
	}
	if len(z.includes) == 0 {
		return true
	}
	for _, p := range z.includes {
		if match(p, name) || match(p, strings.TrimSuffix(name, "/")) {
			return true
		}
	}
	return false
}

// source is a file to add.
type source struct {
	path string // where it is
	name string // its name in the archive
	fi   fs.FileInfo
}

func (z *zipCmd) run() int {
	// The existing archive, if any.
	var old []*zip.File
	var oldComment string
	exists := false
	if z.zipfile != "-" {
		if data, err := z.readAll(z.zipfile); err == nil {
			exists = true
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return z.fatal(zErrForm, "Zip file structure invalid (%s)", z.zipfile)
			}
			old, oldComment = zr.File, zr.Comment
		} else if !builtins.IsNotExist(err) {
			return z.fatal(zErrOpen, "could not open %s: %s", z.zipfile, builtins.ErrText(err))
		}
		z.archive = meta.Physical(z.c, z.c.Abs(z.zipfile))
	}
	if z.namesStdin {
		sc := bufio.NewScanner(z.c.Stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if l := strings.TrimRight(sc.Text(), "\r"); l != "" {
				z.files = append(z.files, l)
			}
		}
	}
	if z.del {
		return z.deleteEntries(old, oldComment, exists)
	}
	if len(z.files) == 0 {
		if z.comment && exists {
			return z.commentOnly(old, oldComment)
		}
		if z.test && exists {
			return z.testArchive()
		}
		return z.fatal(zErrNone, "Nothing to do! (%s)", z.zipfile)
	}

	// Collect the files first, as Info-ZIP does.
	var srcs []source
	for _, f := range z.files {
		if f == "-" {
			srcs = append(srcs, source{path: "-", name: "-"})
			continue
		}
		z.collect(f, &srcs)
		if z.ctx.Err() != nil {
			return zErrMem
		}
	}

	entries := make([]*entry, 0, len(old)+len(srcs))
	index := map[string]int{}
	for _, f := range old {
		index[f.Name] = len(entries)
		fh := f.FileHeader
		entries = append(entries, &entry{hdr: &fh, old: f})
	}
	changed := false
	var moved []source
	for _, s := range srcs {
		if z.ctx.Err() != nil {
			return zErrMem
		}
		i, had := index[s.name]
		if z.freshen && !had {
			continue
		}
		if (z.update || z.freshen) && had && s.fi != nil {
			if !s.fi.ModTime().Truncate(2 * time.Second).After(entries[i].hdr.Modified.Truncate(2 * time.Second)) {
				continue
			}
		}
		e, ok := z.makeEntry(s)
		if !ok {
			continue
		}
		verb := "  adding"
		if had {
			verb = "updating"
			entries[i] = e
		} else {
			index[s.name] = len(entries)
			entries = append(entries, e)
		}
		if !z.quiet {
			fmt.Fprintf(z.msg, "%s: %s (%s)\n", verb, s.name, z.method(e))
		}
		changed = true
		if z.move && s.path != "-" {
			moved = append(moved, s)
		}
	}
	if !changed {
		if z.update || z.freshen {
			return zErrNone
		}
		return z.fatal(zErrNone, "Nothing to do! (%s)", z.zipfile)
	}
	if z.comment {
		oldComment = z.readComment(oldComment)
	}
	if st := z.write(entries, oldComment); st != zOK {
		return st
	}
	// -m: remove what was added, files first, then emptied directories.
	for i := len(moved) - 1; i >= 0; i-- {
		z.c.FS.Remove(z.c.Abs(moved[i].path))
	}
	if z.test {
		return z.testArchive()
	}
	return zOK
}

func (z *zipCmd) readAll(name string) ([]byte, error) {
	f, err := z.c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return z.c.ReadAll(z.ctx, f)
}

// entryName is a file's name in the archive: no leading "/" or "./",
// only the last component with -j.
func (z *zipCmd) entryName(p string, dir bool) string {
	name := p
	for {
		switch {
		case strings.HasPrefix(name, "/"):
			name = name[1:]
		case strings.HasPrefix(name, "./"):
			name = name[2:]
		default:
			goto done
		}
	}
done:
	name = strings.TrimSuffix(name, "/")
	if z.junk {
		name = path.Base(name)
	}
	if dir {
		name += "/"
	}
	return name
}

// collect adds a command-line name and, with -r, what is below it.
func (z *zipCmd) collect(p string, srcs *[]source) {
	var fi fs.FileInfo
	var err error
	if z.symlinks {
		fi, err = z.c.Lstat(p)
	} else {
		fi, err = z.c.Stat(p)
	}
	if err != nil {
		z.warn("name not matched: %s", p)
		return
	}
	z.add(p, fi, srcs)
}

func (z *zipCmd) add(p string, fi fs.FileInfo, srcs *[]source) {
	if z.ctx.Err() != nil {
		return
	}
	if fi.IsDir() {
		name := z.entryName(p, true)
		if !z.noDirs && !z.junk && name != "/" && name != "./" && z.selected(name) {
			*srcs = append(*srcs, source{path: p, name: name, fi: fi})
		}
		if !z.recurse {
			return
		}
		entries, err := z.c.ReadDir(p)
		if err != nil {
			z.warn("could not open for reading: %s", p)
			return
		}
		prefix := strings.TrimSuffix(p, "/") + "/"
		if p == "." {
			prefix = ""
		}
		for _, e := range entries {
			child := prefix + e.Name()
			cfi := e
			if e.Mode()&fs.ModeSymlink != 0 && !z.symlinks {
				st, err := z.c.Stat(child)
				if err != nil {
					z.warn("name not matched: %s", child)
					continue
				}
				cfi = st
			}
			z.add(child, cfi, srcs)
		}
		return
	}
	if z.archive != "" && meta.Physical(z.c, z.c.Abs(p)) == z.archive {
		return
	}
	name := z.entryName(p, false)
	if !z.selected(name) {
		return
	}
	*srcs = append(*srcs, source{path: p, name: name, fi: fi})
}

// makeEntry reads and compresses one member.
func (z *zipCmd) makeEntry(s source) (*entry, bool) {
	hdr := &zip.FileHeader{Name: s.name}
	var content []byte
	var err error
	switch {
	case s.path == "-":
		hdr.Modified = time.Now()
		hdr.SetMode(0o600)
		content, err = z.c.ReadAll(z.ctx, z.c.Stdin)
	case s.fi.IsDir():
		hdr.Modified = s.fi.ModTime()
		hdr.SetMode(s.fi.Mode())
	case s.fi.Mode()&fs.ModeSymlink != 0:
		hdr.Modified = s.fi.ModTime()
		hdr.SetMode(s.fi.Mode())
		var target string
		target, err = z.c.FS.ReadlinkIfPossible(z.c.Abs(s.path))
		content = []byte(target)
	case s.fi.Mode().IsRegular():
		hdr.Modified = s.fi.ModTime()
		hdr.SetMode(s.fi.Mode())
		content, err = z.readAll(s.path)
	default:
		z.warn("%s: not a regular file -- skipped", s.path)
		return nil, false
	}
	if err != nil {
		z.warn("could not open for reading: %s", s.path)
		return nil, false
	}
	// The MS-DOS time (local, rounded up to even seconds as Info-ZIP
	// does) and, unless -X, the exact time in an extended timestamp.
	mtime := hdr.Modified
	hdr.Modified = time.Time{}
	even := mtime.Truncate(time.Second)
	if even.Unix()%2 != 0 {
		even = even.Add(time.Second)
	}
	//lint:ignore SA1019 only these fields carry Info-ZIP's MS-DOS time, rounded up to even seconds
	hdr.ModifiedTime, hdr.ModifiedDate = dosTime(even.In(z.loc))
	if !z.noExtra && mtime.Unix() >= 0 && mtime.Unix() <= 0xffffffff {
		v := uint32(mtime.Unix())
		hdr.Extra = []byte{0x55, 0x54, 5, 0, 1, byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
	}
	hdr.CreatorVersion = 3<<8 | 30 // Unix, version 3.0, as Info-ZIP
	hdr.ReaderVersion = 10
	e := &entry{hdr: hdr, crc: crc32.ChecksumIEEE(content), size: uint64(len(content))}
	hdr.CRC32 = e.crc
	hdr.UncompressedSize64 = e.size
	hdr.Method = zip.Store
	e.data = content
	if len(content) > 0 && z.level > 0 {
		var buf bytes.Buffer
		fw, _ := flate.NewWriter(&buf, z.level)
		// In pieces, so that a member of hundreds of megabytes stops
		// with the call.
		for p := content; len(p) > 0; {
			if z.ctx.Err() != nil {
				return nil, false
			}
			n := min(len(p), 256<<10)
			fw.Write(p[:n])
			p = p[n:]
		}
		fw.Close()
		if buf.Len() < len(content) {
			hdr.Method = zip.Deflate
			hdr.ReaderVersion = 20
			e.data = buf.Bytes()
			switch {
			case z.level >= 8:
				hdr.Flags |= 0x2 // maximum compression
			case z.level <= 2:
				hdr.Flags |= 0x4 // fast
			}
		}
	}
	hdr.CompressedSize64 = uint64(len(e.data))
	return e, true
}

// dosTime encodes t as MS-DOS time and date fields.
func dosTime(t time.Time) (uint16, uint16) {
	if t.Year() < 1980 {
		return 0, 1<<5 | 1
	}
	return uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()>>1),
		uint16((t.Year()-1980)<<9 | int(t.Month())<<5 | t.Day())
}

// method is the "(deflated 53%)" text of an adding line.
func (z *zipCmd) method(e *entry) string {
	if e.hdr.Method == zip.Store {
		return "stored 0%"
	}
	return fmt.Sprintf("deflated %d%%", percent(e.size, uint64(len(e.data))))
}

// percent is Info-ZIP's rounded compression percentage.
func percent(n, m uint64) int {
	if n == 0 || m >= n {
		return 0
	}
	return int((200*float64(n-m)/float64(n) + 1) / 2)
}

// write builds the archive from entries, replacing the old one.
func (z *zipCmd) write(entries []*entry, comment string) int {
	var out io.Writer
	var f io.WriteCloser
	if z.zipfile == "-" {
		out = z.c.Stdout
	} else {
		var err error
		f, err = z.c.OpenFile(z.zipfile, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666&^z.umask)
		if err != nil {
			return z.fatal(zErrOpen, "could not create output file (%s)", z.zipfile)
		}
		out = f
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	zw := zip.NewWriter(bw)
	if comment != "" {
		zw.SetComment(comment)
	}
	var err error
	for _, e := range entries {
		if e.old != nil {
			err = zw.Copy(e.old)
		} else {
			var w io.Writer
			if w, err = zw.CreateRaw(e.hdr); err == nil {
				_, err = w.Write(e.data)
			}
		}
		if err != nil {
			break
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		return z.fatal(zErrWrit, "Output file write failure (write error on zip file)")
	}
	return zOK
}

// readComment is -z: it shows the current archive comment and reads the
// new one from standard input, up to a line "." or the end.
func (z *zipCmd) readComment(current string) string {
	if !z.quiet {
		if current != "" {
			fmt.Fprintf(z.msg, "current zip file comment is:\n%s\n", strings.ReplaceAll(current, "\r\n", "\n"))
		}
		fmt.Fprintf(z.msg, "enter new zip file comment (end with .):\n")
	}
	var lines []string
	sc := bufio.NewScanner(z.c.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		if l == "." {
			break
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\r\n")
}

// commentOnly is -z without files: only the comment changes.
func (z *zipCmd) commentOnly(old []*zip.File, current string) int {
	entries := make([]*entry, 0, len(old))
	for _, f := range old {
		fh := f.FileHeader
		entries = append(entries, &entry{hdr: &fh, old: f})
	}
	return z.write(entries, z.readComment(current))
}

// deleteEntries is -d: remove matching members.
func (z *zipCmd) deleteEntries(old []*zip.File, comment string, exists bool) int {
	if !exists {
		z.warn("%s not found or empty", z.zipfile)
		for _, p := range z.files {
			z.warn("name not matched: %s", p)
		}
		return z.fatal(zErrNone, "Nothing to do! (%s)", z.zipfile)
	}
	var kept []*entry
	matched := make([]bool, len(z.files))
	deleted := 0
	for _, f := range old {
		del := false
		for i, p := range z.files {
			if match(p, f.Name) || match(p, strings.TrimSuffix(f.Name, "/")) {
				matched[i] = true
				del = true
			}
		}
		if del {
			if !z.quiet {
				fmt.Fprintf(z.msg, "deleting: %s\n", f.Name)
			}
			deleted++
			continue
		}
		fh := f.FileHeader
		kept = append(kept, &entry{hdr: &fh, old: f})
	}
	for i, m := range matched {
		if !m {
			z.warn("name not matched: %s", z.files[i])
		}
	}
	if deleted == 0 {
		return z.fatal(zErrNone, "Nothing to do! (%s)", z.zipfile)
	}
	return z.write(kept, comment)
}

// testArchive is -T: read every member back.
func (z *zipCmd) testArchive() int {
	data, err := z.readAll(z.zipfile)
	if err == nil {
		var zr *zip.Reader
		zr, err = zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err == nil {
			for _, f := range zr.File {
				rc, oerr := f.Open()
				if oerr != nil {
					err = oerr
					break
				}
				_, err = io.Copy(io.Discard, textio.Cancellable(z.ctx, rc))
				rc.Close()
				if err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintf(z.msg, "test of %s FAILED\n", z.zipfile)
		return z.fatal(zErrForm, "Zip file invalid, could not spawn unzip, or wrong unzip (original files unmodified)")
	}
	fmt.Fprintf(z.msg, "test of %s OK\n", z.zipfile)
	return zOK
}

const help = `Copyright (c) 1990-2008 Info-ZIP - Type 'zip "-L"' for software license.
Zip 3.0 (July 5th 2008). Usage:
zip [-options] [-b path] [-t mmddyyyy] [-n suffixes] [zipfile list] [-xi list]
  The default action is to add or replace zipfile entries from list, which
  can include the special name - to compress standard input.
  If zipfile and list are omitted, zip compresses stdin to stdout.
  -f   freshen: only changed files  -u   update: only changed or new files
  -d   delete entries in zipfile    -m   move into zipfile (delete OS files)
  -r   recurse into directories     -j   junk (don't record) directory names
  -0   store only                   -1   compress faster
  -9   compress better              -q   quiet operation
  -@   read names from stdin        -D   do not add directory entries
  -x   exclude the following names  -i   include only the following names
  -T   test zipfile integrity       -X   eXclude eXtra file attributes
  -y   store symbolic links as the link instead of the referenced file
  -z   add zipfile comment (read from standard input)
  -h   show this help               -v   print version info

Members are deflated with Go's compress/flate (stored when that does not
make them smaller), so compressed sizes may differ from Info-ZIP's.
`
