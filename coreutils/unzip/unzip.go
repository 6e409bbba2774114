// Package unzip implements Info-ZIP unzip 6.0 (as Debian ships it) over
// the sandbox filesystem: extraction (-o, -n, -j, -d, -x, member
// patterns, the overwrite prompt read from standard input), listing (-l,
// -v), testing (-t) and piping (-p, -c).
//
// Extraction never writes outside the extraction directory: as Info-ZIP
// does, leading "/" and every ".." component are dropped from member
// names (with its warnings), and symbolic links are created only after
// every other member, so that no member is written through a link the
// archive itself made. Modes are restored from Unix archives without the
// umask, as Info-ZIP does; setuid bits are dropped.
package unzip

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// Info-ZIP exit codes.
const (
	pkOK    = 0
	pkWarn  = 1
	pkErr   = 2
	pkNoZip = 9
	pkParam = 10
	pkFind  = 11
	pkDisk  = 50
)

type unzipCmd struct {
	ctx context.Context
	c   *builtins.Call

	list, verboseList, test, pipe, console, commentOnly bool
	overwrite, never, junk, caseless, keepSetuid        bool
	quiet                                               int
	exdir                                               string
	zipfile                                             string
	members, excludes                                   []string

	out    *bufio.Writer
	loc    *time.Location
	status int
	stdin  *bufio.Reader
	all    int // 0 ask, 1 all (overwrite), -1 none
}

// Run is the unzip command.
func Run(ctx context.Context, c *builtins.Call) int {
	u := &unzipCmd{ctx: ctx, c: c}
	u.loc = timefmt.Location(c.LookupEnv)
	if st, done := u.parse(c.Args[1:]); done {
		return st
	}
	u.out = bufio.NewWriterSize(c.Stdout, 64<<10)
	st := u.run()
	if err := u.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	return st
}

func (u *unzipCmd) setStatus(s int) {
	if s > u.status {
		u.status = s
	}
}

// errf prints on standard error, after what standard output holds.
func (u *unzipCmd) errf(format string, args ...any) {
	u.out.Flush()
	fmt.Fprintf(u.c.Stderr, format, args...)
}

func (u *unzipCmd) parse(args []string) (int, bool) {
	if len(args) == 0 {
		io.WriteString(u.c.Stdout, usage)
		return pkOK, true
	}
	var list *[]string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-x" && u.zipfile != "" {
			list = &u.excludes
			continue
		}
		if strings.HasPrefix(a, "-d") && u.zipfile != "" {
			if v := a[2:]; v != "" {
				u.exdir = v
			} else if i+1 < len(args) {
				i++
				u.exdir = args[i]
			}
			continue
		}
		if u.zipfile != "" || !strings.HasPrefix(a, "-") || a == "-" {
			switch {
			case u.zipfile == "":
				u.zipfile = a
			case list != nil:
				*list = append(*list, a)
			default:
				u.members = append(u.members, a)
			}
			continue
		}
		if a == "--help" || a == "-h" {
			io.WriteString(u.c.Stdout, usage)
			return pkOK, true
		}
		if a == "--version" {
			return u.c.Version(), true
		}
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			// Info-ZIP reads "--x" as options letters; bashbox names the
			// unknown option, as its other commands do.
			fmt.Fprintf(u.c.Stderr, "unzip: unrecognized option '%s'\n", a)
			io.WriteString(u.c.Stderr, usage)
			return pkParam, true
		}
		if a == "-v" && len(args) == 1 {
			return u.c.Version(), true
		}
		opts := a[1:]
		for j := 0; j < len(opts); j++ {
			switch ch := opts[j]; ch {
			case 'l':
				u.list = true
			case 'v':
				u.verboseList = true
			case 't':
				u.test = true
			case 'p':
				u.pipe = true
			case 'c':
				u.console = true
			case 'o':
				u.overwrite, u.never = true, false
			case 'n':
				u.never, u.overwrite = true, false
			case 'j':
				u.junk = true
			case 'C':
				u.caseless = true
			case 'q':
				u.quiet++
			case 'K':
				u.keepSetuid = true
			case 'z':
				u.commentOnly = true
			case 'a', 'b', 'D', 'L', 'M', 'U', 'V', 'W', 'X', 'u', 'f', 'T':
				// Accepted: text conversion, ownership and the like do not
				// apply in the sandbox.
			case 'x':
				list = &u.excludes
			case 'd':
				v := opts[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				u.exdir = v
				j = len(opts)
			case 'h':
				io.WriteString(u.c.Stdout, usage)
				return pkOK, true
			case 'Z':
				u.errf("unzip:  -Z (zipinfo mode) is not supported by bashbox's unzip\n")
				return pkParam, true
			default:
				io.WriteString(u.c.Stderr, usage)
				return pkParam, true
			}
		}
	}
	if u.zipfile == "" {
		io.WriteString(u.c.Stderr, usage)
		return pkParam, true
	}
	return 0, false
}

func (u *unzipCmd) match(pattern, name string) bool {
	var flags glob.Flags
	if u.caseless {
		flags |= glob.CaseFold
	}
	return glob.Match(pattern, name, flags)
}

// selection decides which members are processed and reports the
// patterns that matched nothing.
type selection struct {
	u                *unzipCmd
	matched, exMatch []bool
}

func (s *selection) wanted(name string) bool {
	u := s.u
	for i, p := range u.excludes {
		if u.match(p, name) {
			s.exMatch[i] = true
			return false
		}
	}
	if len(u.members) == 0 {
		return true
	}
	ok := false
	for i, p := range u.members {
		if u.match(p, name) {
			s.matched[i] = true
			ok = true
		}
	}
	return ok
}

// report prints the cautions for unmatched names (on standard output
// when toOut, as unzip -t does); it reports whether some member name
// matched nothing.
func (s *selection) report(toOut bool) bool {
	u := s.u
	missing := false
	say := func(format string, args ...any) {
		if toOut {
			fmt.Fprintf(u.out, format, args...)
		} else {
			u.errf(format, args...)
		}
	}
	for i, m := range s.matched {
		if !m {
			say("caution: filename not matched:  %s\n", u.members[i])
			missing = true
		}
	}
	for i, m := range s.exMatch {
		if !m {
			say("caution: excluded filename not matched:  %s\n", u.excludes[i])
		}
	}
	return missing
}

// anyMatched reports whether some member pattern matched.
func (s *selection) anyMatched() bool {
	for _, m := range s.matched {
		if m {
			return true
		}
	}
	return len(s.matched) == 0
}

// openZip finds and opens the archive (name, name.zip or name.ZIP); the
// returned closer releases it.
func (u *unzipCmd) openZip() (*zip.Reader, string, func(), int) {
	name := u.zipfile
	f, size, err := u.openFile(name)
	if err != nil && builtins.IsNotExist(err) {
		for _, suf := range []string{".zip", ".ZIP"} {
			if f2, s2, e := u.openFile(name + suf); e == nil {
				f, size, err, name = f2, s2, nil, name+suf
				break
			}
		}
	}
	if err != nil {
		u.errf("unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", u.zipfile, u.zipfile, u.zipfile)
		return nil, "", nil, pkNoZip
	}
	zr, err := zip.NewReader(f, size)
	if err != nil {
		f.Close()
		if !u.pipe && u.quiet < 2 {
			fmt.Fprintf(u.out, "Archive:  %s\n", name)
		}
		u.errf("  End-of-central-directory signature not found.  Either this file is not\n" +
			"  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n" +
			"  latter case the central directory and zipfile comment will be found on\n" +
			"  the last disk(s) of this archive.\n")
		u.errf("unzip:  cannot find zipfile directory in one of %s or\n        %s.zip, and cannot find %s.ZIP, period.\n", u.zipfile, u.zipfile, u.zipfile)
		return nil, "", nil, pkNoZip
	}
	return zr, name, func() { f.Close() }, pkOK
}

// zipSource is an open archive: random access is read from the file
// itself, or from memory for a stream such as /dev/stdin.
type zipSource interface {
	io.ReaderAt
	Close() error
}

type memSource struct{ *bytes.Reader }

func (memSource) Close() error { return nil }

func (u *unzipCmd) openFile(name string) (zipSource, int64, error) {
	fi, err := u.c.Stat(name)
	if err != nil {
		return nil, 0, err
	}
	if fi.IsDir() {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := u.c.Open(name)
	if err != nil {
		return nil, 0, err
	}
	if fi.Mode().IsRegular() {
		if _, err := f.ReadAt(make([]byte, 0), 0); err == nil {
			return f, fi.Size(), nil
		}
	}
	data, err := u.c.ReadAll(u.ctx, f)
	f.Close()
	if err != nil {
		return nil, 0, err
	}
	return memSource{bytes.NewReader(data)}, int64(len(data)), nil
}

func (u *unzipCmd) run() int {
	zr, name, closeZip, st := u.openZip()
	if zr == nil {
		return st
	}
	defer closeZip()
	sel := &selection{u: u, matched: make([]bool, len(u.members)), exMatch: make([]bool, len(u.excludes))}
	switch {
	case u.commentOnly:
		fmt.Fprintf(u.out, "Archive:  %s\n", name)
		if zr.Comment != "" {
			fmt.Fprintf(u.out, "%s\n", strings.ReplaceAll(zr.Comment, "\r\n", "\n"))
		}
		return u.status
	case u.list || u.verboseList:
		// Listings report no caution, only the status.
		u.listing(zr, name, sel)
		if !sel.anyMatched() {
			u.setStatus(pkFind)
		}
		return u.status
	case u.test:
		u.testAll(zr, name, sel)
		return u.status
	case u.pipe || u.console:
		u.toStdout(zr, name, sel)
	default:
		u.extractAll(zr, name, sel)
	}
	if sel.report(false) {
		u.setStatus(pkFind)
	}
	return u.status
}

// modTime is a member's modification time: the extended timestamp when
// there is one, else the MS-DOS time in the local zone.
func (u *unzipCmd) modTime(f *zip.File) time.Time {
	if t, ok := extendedTime(f.Extra); ok {
		return t
	}
	d, t := f.ModifiedDate, f.ModifiedTime
	return time.Date(int(d>>9)+1980, time.Month(d>>5&0xf), int(d&0x1f),
		int(t>>11), int(t>>5&0x3f), int(t&0x1f)*2, 0, u.loc)
}

// extendedTime reads the mtime of an "UT" extra field.
func extendedTime(extra []byte) (time.Time, bool) {
	for len(extra) >= 4 {
		id := int(extra[0]) | int(extra[1])<<8
		size := int(extra[2]) | int(extra[3])<<8
		if 4+size > len(extra) {
			break
		}
		body := extra[4 : 4+size]
		if id == 0x5455 && len(body) >= 5 && body[0]&1 != 0 {
			v := uint32(body[1]) | uint32(body[2])<<8 | uint32(body[3])<<16 | uint32(body[4])<<24
			return time.Unix(int64(int32(v)), 0), true
		}
		extra = extra[4+size:]
	}
	return time.Time{}, false
}

func (u *unzipCmd) listing(zr *zip.Reader, name string, sel *selection) {
	if u.quiet == 0 {
		fmt.Fprintf(u.out, "Archive:  %s\n", name)
		if zr.Comment != "" {
			fmt.Fprintf(u.out, "%s\n", strings.ReplaceAll(zr.Comment, "\r\n", "\n"))
		}
	}
	switch {
	case u.quiet >= 2:
	case u.verboseList:
		u.out.WriteString(" Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n--------  ------  ------- ---- ---------- ----- --------  ----\n")
	default:
		u.out.WriteString("  Length      Date    Time    Name\n---------  ---------- -----   ----\n")
	}
	var total, ctotal uint64
	n := 0
	for _, f := range zr.File {
		if !sel.wanted(f.Name) {
			continue
		}
		t := u.modTime(f).In(u.loc)
		date := fmt.Sprintf("%04d-%02d-%02d %02d:%02d", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute())
		if u.verboseList {
			fmt.Fprintf(u.out, "%8d  %-6s %8d %s %s %08x  %s\n", f.UncompressedSize64, methodName(f), f.CompressedSize64,
				cfactor(f.UncompressedSize64, f.CompressedSize64), date, f.CRC32, f.Name)
		} else {
			fmt.Fprintf(u.out, "%9d  %s   %s\n", f.UncompressedSize64, date, f.Name)
		}
		total += f.UncompressedSize64
		ctotal += f.CompressedSize64
		n++
	}
	files := "files"
	if n == 1 {
		files = "file"
	}
	if u.quiet >= 2 {
		return
	}
	if u.verboseList {
		u.out.WriteString("--------          -------  ---                            -------\n")
		fmt.Fprintf(u.out, "%8d         %8d %s                            %d %s\n", total, ctotal, cfactor(total, ctotal), n, files)
	} else {
		u.out.WriteString("---------                     -------\n")
		fmt.Fprintf(u.out, "%9d                     %d %s\n", total, n, files)
	}
}

func methodName(f *zip.File) string {
	switch f.Method {
	case zip.Store:
		return "Stored"
	case zip.Deflate:
		switch f.Flags & 6 {
		case 2:
			return "Defl:X"
		case 4:
			return "Defl:F"
		case 6:
			return "Defl:S"
		}
		return "Defl:N"
	case 12:
		return "BZip2"
	case 14:
		return "LZMA"
	}
	return fmt.Sprintf("Unk:%03d", f.Method)
}

// cfactor is unzip's compression factor column ("%3d%%" of a rounded
// per-mille ratio).
func cfactor(uc, c uint64) string {
	if uc == 0 {
		return "  0%"
	}
	var pm int64
	if uc >= c {
		pm = int64((1000*(uc-c) + uc/2) / uc)
	} else {
		pm = -int64((1000*(c-uc) + uc/2) / uc)
	}
	if pm < 0 {
		return fmt.Sprintf("%3d%%", -((-pm + 5) / 10))
	}
	return fmt.Sprintf("%3d%%", (pm+5)/10)
}

func (u *unzipCmd) testAll(zr *zip.Reader, name string, sel *selection) {
	if u.quiet == 0 {
		fmt.Fprintf(u.out, "Archive:  %s\n", name)
	}
	errs := 0
	for _, f := range zr.File {
		if !sel.wanted(f.Name) {
			continue
		}
		err := u.copyMember(f, io.Discard)
		if u.quiet == 0 {
			fmt.Fprintf(u.out, "    testing: %s ", pad(f.Name, 22))
		}
		if err != nil {
			if u.quiet == 0 {
				fmt.Fprintf(u.out, " bad CRC or data\n")
			} else {
				fmt.Fprintf(u.out, "%s:  bad CRC or data\n", f.Name)
			}
			errs++
			continue
		}
		if u.quiet == 0 {
			u.out.WriteString("  OK\n")
		}
	}
	missing := false
	if u.quiet < 2 {
		missing = sel.report(true)
	} else {
		missing = !sel.anyMatched()
	}
	switch {
	case u.quiet >= 2:
		if errs > 0 {
			u.setStatus(pkErr)
		}
	case errs > 0 || missing:
		fmt.Fprintf(u.out, "At least one error was detected in %s.\n", name)
		if errs > 0 {
			u.setStatus(pkErr)
		}
	default:
		fmt.Fprintf(u.out, "No errors detected in compressed data of %s.\n", name)
	}
	if missing {
		u.setStatus(pkFind)
	}
}

// copyMember decompresses a member into w, checking its CRC.
func (u *unzipCmd) copyMember(f *zip.File, w io.Writer) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	buf := make([]byte, 64<<10)
	for {
		if u.ctx.Err() != nil { // an atomic load per 64 KiB
			return u.ctx.Err()
		}
		n, err := rc.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return &writeErr{werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

type writeErr struct{ err error }

func (w *writeErr) Error() string { return w.err.Error() }
func (w *writeErr) Unwrap() error { return w.err }

func (u *unzipCmd) toStdout(zr *zip.Reader, name string, sel *selection) {
	if u.console && u.quiet < 2 {
		fmt.Fprintf(u.out, "Archive:  %s\n", name)
	}
	for _, f := range zr.File {
		if !sel.wanted(f.Name) || strings.HasSuffix(f.Name, "/") {
			continue
		}
		if u.console && u.quiet == 0 {
			fmt.Fprintf(u.out, " extracting: %s  \n", pad(f.Name, 22))
		}
		if err := u.copyMember(f, u.out); err != nil {
			var we *writeErr
			if errors.As(err, &we) {
				u.status = pkErr
				return
			}
			u.errf("%s:  bad CRC or data\n", f.Name)
			u.setStatus(pkErr)
		}
		if u.console && u.quiet == 0 {
			u.out.WriteString("\n")
		}
	}
}

// pad left-justifies s in n bytes, as C's %-22s does (UTF-8 names take
// one column per byte there).
func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}
