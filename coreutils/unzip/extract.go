package unzip

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

type deferredLink struct {
	abs, name, target string
}

type pendingDir struct {
	abs   string
	mode  fs.FileMode
	mtime time.Time
	unix  bool
}

// safeName drops what could lead outside the extraction directory, as
// Info-ZIP does: leading slashes, and "..", "." and empty components.
func safeName(name string) (rel string, strippedAbs, skippedDots bool) {
	trimmed := strings.TrimLeft(name, "/")
	strippedAbs = trimmed != name
	var parts []string
	for _, p := range strings.Split(trimmed, "/") {
		switch p {
		case "", ".":
		case "..":
			skippedDots = true
		default:
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/"), strippedAbs, skippedDots
}

func (u *unzipCmd) extractAll(zr *zip.Reader, name string, sel *selection) {
	if u.quiet == 0 {
		fmt.Fprintf(u.out, "Archive:  %s\n", name)
		if zr.Comment != "" {
			fmt.Fprintf(u.out, "%s\n", strings.ReplaceAll(zr.Comment, "\r\n", "\n"))
		}
	}
	if u.exdir != "" {
		if fi, err := u.c.Stat(u.exdir); err != nil {
			if err := u.c.FS.Mkdir(u.c.Abs(u.exdir), 0o777&^u.c.Umask); err != nil {
				u.errf("checkdir:  cannot create extraction directory: %s\n           %s\n", u.exdir, builtins.ErrText(err))
				u.setStatus(pkErr)
				return
			}
		} else if !fi.IsDir() {
			u.errf("checkdir:  cannot create extraction directory: %s\n           File exists\n", u.exdir)
			u.setStatus(pkErr)
			return
		}
	}
	var links []deferredLink
	var dirs []pendingDir
	for _, f := range zr.File {
		if u.ctx.Err() != nil {
			u.setStatus(pkErr)
			break
		}
		if !sel.wanted(f.Name) {
			continue
		}
		rel, strippedAbs, skipped := safeName(f.Name)
		if skipped && u.quiet < 2 {
			fmt.Fprintf(u.out, "warning:  skipped \"../\" path component(s) in %s\n", f.Name)
			u.setStatus(pkWarn)
		}
		if strippedAbs && u.quiet < 2 {
			u.errf("warning:  stripped absolute path spec from %s\n", f.Name)
			u.setStatus(pkWarn)
		}
		isDir := strings.HasSuffix(f.Name, "/")
		if u.junk {
			if isDir {
				continue
			}
			rel = path.Base(rel)
		}
		if rel == "" || rel == "." {
			continue
		}
		display := rel
		if u.exdir != "" {
			display = strings.TrimSuffix(u.exdir, "/") + "/" + rel
		}
		abs := path.Clean(u.c.Abs(display))
		shown := display
		if isDir {
			shown += "/"
		}
		if !u.parents(shown, abs) {
			continue
		}
		unixAttrs := f.CreatorVersion>>8 == 3
		mode := f.Mode()
		mtime := u.modTime(f)
		if isDir || mode.IsDir() {
			fi, err := u.lstat(abs)
			if err != nil {
				if err := u.c.FS.Mkdir(abs, 0o700); err != nil {
					u.errf("checkdir error:  cannot create %s\n                 %s\n", display, builtins.ErrText(err))
					u.setStatus(pkErr)
					continue
				}
				if u.quiet == 0 {
					fmt.Fprintf(u.out, "   creating: %s/\n", strings.TrimSuffix(display, "/"))
				}
			} else if !fi.IsDir() {
				u.errf("checkdir error:  %s exists but is not directory\n                 unable to process %s.\n", display, display)
				u.setStatus(pkErr)
				continue
			}
			dirs = append(dirs, pendingDir{abs: abs, mode: mode, mtime: mtime, unix: unixAttrs})
			continue
		}
		if !u.mayWrite(&display, &abs) {
			continue
		}
		if fi, err := u.lstat(abs); err == nil && fi.IsDir() {
			u.errf("error:  cannot delete old %s\n        Is a directory\n", display)
			u.setStatus(pkDisk)
			continue
		}
		isLink := unixAttrs && mode&fs.ModeSymlink != 0
		if isLink {
			var sb strings.Builder
			if err := u.copyMember(f, &limitWriter{&sb, 4096}); err != nil {
				u.errf("%s:  bad CRC or data\n", display)
				u.setStatus(pkErr)
				continue
			}
			target := sb.String()
			if u.quiet == 0 {
				fmt.Fprintf(u.out, "    linking: %s  -> %s \n", pad(display, 22), target)
			}
			// A placeholder holding the target stands in for the link
			// until every other member is extracted.
			if err := u.writeFile(abs, strings.NewReader(target)); err != nil {
				u.errf("error:  cannot create %s\n        %s\n", display, builtins.ErrText(err))
				u.setStatus(pkErr)
				continue
			}
			links = append(links, deferredLink{abs: abs, name: display, target: target})
			continue
		}
		if u.quiet == 0 {
			verb := "  inflating"
			if f.Method == zip.Store {
				verb = " extracting"
			}
			fmt.Fprintf(u.out, "%s: %s  \n", verb, pad(display, 22))
		}
		if err := u.extractFile(f, abs); err != nil {
			var we *writeErr
			if errors.As(err, &we) {
				u.errf("error:  cannot create %s\n        %s\n", display, builtins.ErrText(err))
			} else {
				u.errf("  error:  invalid compressed data to inflate %s\n", display)
			}
			u.setStatus(pkErr)
			continue
		}
		perm := 0o666 &^ u.c.Umask
		if unixAttrs {
			perm = mode.Perm()
			if u.keepSetuid {
				perm |= mode & (fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
			}
		}
		u.c.FS.Chmod(abs, perm)
		u.c.FS.Chtimes(abs, mtime, mtime)
	}
	if len(links) > 0 {
		if u.quiet == 0 {
			u.out.WriteString("finishing deferred symbolic links:\n")
		}
		for _, l := range links {
			if u.quiet == 0 {
				fmt.Fprintf(u.out, "  %s -> %s\n", pad(l.name, 22), l.target)
			}
			fi, err := u.lstat(l.abs)
			if err == nil && fi.Mode().IsRegular() {
				err = u.c.FS.Remove(l.abs)
			}
			if err == nil {
				err = u.c.FS.SymlinkIfPossible(l.target, l.abs)
			}
			if err != nil {
				u.errf("warning:  symbolic link (%s) failed: %s\n", l.name, builtins.ErrText(err))
				u.setStatus(pkWarn)
			}
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if d.unix {
			u.c.FS.Chmod(d.abs, d.mode.Perm())
		} else {
			u.c.FS.Chmod(d.abs, 0o777&^u.c.Umask)
		}
		u.c.FS.Chtimes(d.abs, d.mtime, d.mtime)
	}
}

func (u *unzipCmd) lstat(abs string) (fs.FileInfo, error) {
	fi, _, err := u.c.FS.LstatIfPossible(abs)
	return fi, err
}

// parents makes the directories above a member; a non-directory in the
// way (such as a deferred link's placeholder) stops the member.
func (u *unzipCmd) parents(display, abs string) bool {
	dir := path.Dir(abs)
	var missing []string
	for d := dir; ; d = path.Dir(d) {
		fi, err := u.c.FS.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				rel := strings.TrimPrefix(d, path.Clean(u.c.Abs("."))+"/")
				u.errf("checkdir error:  %s exists but is not directory\n                 unable to process %s.\n", rel, display)
				u.setStatus(pkErr)
				return false
			}
			break
		}
		if _, lerr := u.lstat(d); lerr == nil {
			// A dangling symlink (or a placeholder) is in the way.
			rel := strings.TrimPrefix(d, path.Clean(u.c.Abs("."))+"/")
			u.errf("checkdir error:  %s exists but is not directory\n                 unable to process %s.\n", rel, display)
			u.setStatus(pkErr)
			return false
		}
		missing = append(missing, d)
		if d == "/" || d == "." {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := u.c.FS.Mkdir(missing[i], 0o777&^u.c.Umask); err != nil && !errors.Is(err, fs.ErrExist) {
			u.errf("checkdir error:  cannot create %s\n                 %s\n                 unable to process %s.\n", missing[i], builtins.ErrText(err), display)
			u.setStatus(pkErr)
			return false
		}
	}
	return true
}

// mayWrite applies -o, -n and the overwrite prompt to an existing file.
func (u *unzipCmd) mayWrite(display, abs *string) bool {
	for {
		if _, err := u.lstat(*abs); err != nil {
			return true
		}
		if u.overwrite || u.all == 1 {
			return true
		}
		if u.never || u.all == -1 {
			return false
		}
		if u.stdin == nil {
			u.stdin = bufio.NewReader(u.c.Stdin)
		}
		u.errf("replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", *display)
		line, err := u.stdin.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if err != nil && line == "" {
			u.errf(" NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
			u.all = -1
			u.setStatus(pkWarn)
			return false
		}
		switch {
		case strings.HasPrefix(line, "y"), strings.HasPrefix(line, "Y") && !strings.HasPrefix(line, "N"):
			return true
		case strings.HasPrefix(line, "n"):
			return false
		case strings.HasPrefix(line, "A"):
			u.all = 1
			return true
		case strings.HasPrefix(line, "N"):
			u.all = -1
			return false
		case strings.HasPrefix(line, "r"):
			u.errf("new name: ")
			nn, _ := u.stdin.ReadString('\n')
			nn = strings.TrimRight(nn, "\r\n")
			if nn == "" {
				continue
			}
			*display = nn
			*abs = path.Clean(u.c.Abs(nn))
			continue
		default:
			u.errf("error:  invalid response [%s]\n", line)
		}
	}
}

// writeFile replaces abs with the contents of r.
func (u *unzipCmd) writeFile(abs string, r io.Reader) error {
	if fi, err := u.lstat(abs); err == nil && !fi.IsDir() {
		if err := u.c.FS.Remove(abs); err != nil {
			return &writeErr{err}
		}
	}
	f, err := u.c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return &writeErr{err}
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = &writeErr{cerr}
	}
	return err
}

func (u *unzipCmd) extractFile(f *zip.File, abs string) error {
	if fi, err := u.lstat(abs); err == nil && !fi.IsDir() {
		if err := u.c.FS.Remove(abs); err != nil {
			return &writeErr{err}
		}
	}
	out, err := u.c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return &writeErr{err}
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	err = u.copyMember(f, bw)
	if err == nil {
		if ferr := bw.Flush(); ferr != nil {
			err = &writeErr{ferr}
		}
	}
	if cerr := out.Close(); err == nil && cerr != nil {
		err = &writeErr{cerr}
	}
	return err
}

// limitWriter keeps at most n bytes.
type limitWriter struct {
	b *strings.Builder
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		if len(p) > room {
			l.b.Write(p[:room])
		} else {
			l.b.Write(p)
		}
	}
	return len(p), nil
}

const usage = `UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.

Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  file[.zip] may be a wildcard.  -Z => ZipInfo mode ("unzip -Z" for usage).

  -p  extract files to pipe, no messages     -l  list files (short format)
  -f  freshen existing files, create none    -t  test compressed archive data
  -u  update files, create if necessary      -z  display archive comment only
  -v  list verbosely/show version info       -T  timestamp archive to latest
  -x  exclude files that follow (in xlist)   -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -a  auto-convert any text files
  -j  junk paths (do not make directories)   -aa treat ALL files as text
  -U  use escapes for all non-ASCII Unicode  -UU ignore any Unicode fields
  -C  match filenames case-insensitively     -L  make (some) names lowercase
  -X  restore UID/GID info                   -V  retain VMS version numbers
  -K  keep setuid/setgid/tacky permissions   -M  pipe through "more" pager
See "unzip -hh" or unzip.txt for more help.  Examples:
  unzip data1 -x joe   => extract all files except joe from zipfile data1.zip
  unzip -p foo | more  => send contents of foo.zip via pipe into program more
  unzip -fo foo ReadMe => quietly replace existing ReadMe if archive file newer
`
