// Package shred implements shred (GNU coreutils 9): overwrite files
// repeatedly with random data and fixed bit patterns, optionally with a
// last pass of zeros, then optionally remove them after renaming each to
// shorter and shorter names. It works on the sandbox filesystem: a file of
// a read-only volume is overwritten in the call's copy, never on the host.
package shred

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/truncate"
)

const help = `Usage: PROG [OPTION]... FILE...
Overwrite the specified FILE(s) repeatedly, in order to make it harder
for even very expensive hardware probing to recover the data.

If FILE is -, shred standard output.

Mandatory arguments to long options are mandatory for short options too.
  -f, --force    change permissions to allow writing if necessary
  -n, --iterations=N  overwrite N times instead of the default (3)
      --random-source=FILE  get random bytes from FILE
  -s, --size=N   shred this many bytes (suffixes like K, M, G accepted)
  -u             deallocate and remove file after overwriting
      --remove[=HOW]  like -u but give control on HOW to delete;  See below
  -v, --verbose  show progress
  -x, --exact    do not round file sizes up to the next full block;
                   this is the default for non-regular files
  -z, --zero     add a final overwrite with zeros to hide shredding
      --help        display this help and exit
      --version     output version information and exit

Delete FILE(s) if --remove (-u) is specified.  The default is not to remove
the files because it is common to operate on device files like /dev/hda,
and those files usually should not be removed.
The optional HOW parameter indicates how to remove a directory entry:
'unlink' => use a standard unlink call.
'wipe' => also first obfuscate bytes in the name.
'wipesync' => also sync each obfuscated byte to the device.
The default mode is 'wipesync', but note it can be expensive.

CAUTION: shred assumes the file system and hardware overwrite data in place.
Although this is common, many platforms operate otherwise.  Also, backups
and mirrors may contain unremovable copies that will let a shredded file
be recovered later.  See the GNU coreutils manual for details.
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'f', Long: "force"},
	{Short: 'n', Long: "iterations", Arg: builtins.RequiredArg},
	{Long: "random-source", Arg: builtins.RequiredArg},
	{Short: 's', Long: "size", Arg: builtins.RequiredArg},
	{Short: 'u'},
	{Long: "remove", Arg: builtins.OptionalArg},
	{Short: 'v', Long: "verbose"},
	{Short: 'x', Long: "exact"},
	{Short: 'z', Long: "zero"},
}}

const (
	removeNone = iota
	removeUnlink
	removeWipe
	removeWipeSync
)

var removeChoices = []argmatch.Choice{
	{Names: []string{"unlink"}, Value: removeUnlink},
	{Names: []string{"wipe"}, Value: removeWipe},
	{Names: []string{"wipesync"}, Value: removeWipeSync},
}

// blockSize is what a regular file's size is rounded up to without -x
// (st_blksize of the usual Linux filesystems).
const blockSize = 4096

type shredder struct {
	ctx                  context.Context
	c                    *builtins.Call
	q                    quote.Quoter
	passes               int
	size                 int64 // -s, or -1
	exact, zero, verbose bool
	force                bool
	remove               int
	random               io.Reader
	randomName           string
}

// Run is the shred command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	s := &shredder{ctx: ctx, c: c, q: quote.New(c), passes: 3, size: -1, random: rand.Reader}
	source := ""
	for _, o := range opts {
		switch o.Key {
		case "force":
			s.force = true
		case "iterations":
			n, err := strconv.ParseUint(o.Value, 10, 63)
			if err != nil || n > 1<<20 {
				c.Errorf("invalid number of passes: %s", s.q.Q(o.Value))
				return 1
			}
			s.passes = int(n)
		case "random-source":
			source = o.Value
		case "size":
			n, err := truncate.ParseSize(o.Value)
			if err != nil {
				c.Errorf("invalid file size: %s", s.q.Q(o.Value))
				return 1
			}
			s.size = n
		case "u":
			s.remove = removeWipeSync
		case "remove":
			s.remove = removeWipeSync
			if o.Has {
				v, ok := argmatch.Get(c, o.Value, "--remove", removeChoices, 1)
				if !ok {
					return 1
				}
				s.remove = v
			}
		case "verbose":
			s.verbose = true
		case "exact":
			s.exact = true
		case "zero":
			s.zero = true
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing file operand")
	}
	if source != "" {
		f, err := c.Open(source)
		if err != nil {
			c.Errorf("%s: %s", s.q.F(source), builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		s.random, s.randomName = f, source
	}
	status = 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 1
		}
		if !s.file(name) {
			status = 1
		}
	}
	return status
}

// file shreds one operand and reports whether all went well.
func (s *shredder) file(name string) bool {
	c := s.c
	if name == "-" {
		// The sandbox's standard output is never a file shred could
		// overwrite in place.
		c.Errorf("-: invalid file type")
		return false
	}
	f, err := c.OpenFile(name, os.O_WRONLY, 0)
	if err != nil && s.force && errors.Is(err, fs.ErrPermission) {
		if fi, serr := c.Stat(name); serr == nil && c.FS.Chmod(c.Abs(name), fi.Mode().Perm()|0o200) == nil {
			f, err = c.OpenFile(name, os.O_WRONLY, 0)
		}
	}
	if err != nil {
		c.Errorf("%s: failed to open for writing: %s", s.q.F(name), builtins.ErrText(err))
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		c.Errorf("%s: fstat failed: %s", s.q.F(name), builtins.ErrText(err))
		return false
	}
	size := s.size
	if size < 0 {
		size = fi.Size()
		if !s.exact && fi.Mode().IsRegular() && size%blockSize != 0 {
			size += blockSize - size%blockSize
		}
	}
	ok := true
	if size > 0 {
		ok = s.overwrite(f, name, size)
	}
	if err := f.Close(); err != nil && ok {
		c.Errorf("%s: failed to close: %s", s.q.F(name), builtins.ErrText(err))
		ok = false
	}
	if ok && s.remove != removeNone {
		ok = s.wipeName(name)
	}
	return ok
}

// overwrite runs every pass over the first size bytes of f.
func (s *shredder) overwrite(f io.WriterAt, name string, size int64) bool {
	passes := plan(s.passes, s.randint)
	if s.zero {
		passes = append(passes, 0)
	}
	buf := make([]byte, min(size, 64<<10))
	for i, p := range passes {
		if s.verbose {
			what := "random"
			if p >= 0 {
				what = fmt.Sprintf("%06x", patternBytes(p))
			}
			s.c.Errorf("%s: pass %d/%d (%s)...", s.q.F(name), i+1, len(passes), what)
		}
		for off := int64(0); off < size; off += int64(len(buf)) {
			if err := s.ctx.Err(); err != nil {
				s.c.Errorf("%s: %s", s.q.F(name), builtins.ErrText(err))
				return false
			}
			chunk := buf[:min(int64(len(buf)), size-off)]
			if p < 0 {
				if _, err := io.ReadFull(s.random, chunk); err != nil {
					s.randomFailed(err)
					return false
				}
			} else {
				fill(chunk, off, p)
			}
			if _, err := f.WriteAt(chunk, off); err != nil {
				s.c.Errorf("%s: error writing at offset %d: %s", s.q.F(name), off, builtins.ErrText(err))
				return false
			}
		}
	}
	return true
}

func (s *shredder) randomFailed(err error) {
	name := s.randomName
	if name == "" {
		name = "getrandom"
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		s.c.Errorf("%s: end of file", s.q.Q(name))
		return
	}
	s.c.Errorf("%s: %s", s.q.F(name), builtins.ErrText(err))
}

// randint is a number in [0, k) from the random source.
func (s *shredder) randint(k int) int {
	j, err := rand.Int(s.random, big.NewInt(int64(k)))
	if err != nil {
		return 0
	}
	return int(j.Int64())
}

// nameChars are the characters of the names a removed file passes
// through, in the order they are tried.
const nameChars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_."

// wipeName removes name; but for --remove=unlink it first renames it to
// names of its length made of nameChars, then to shorter ones down to a
// single character, so that the directory keeps no trace of the name.
func (s *shredder) wipeName(name string) bool {
	c := s.c
	if s.verbose {
		c.Errorf("%s: removing", s.q.F(name))
	}
	cur := name
	if s.remove != removeUnlink {
		dir, base := path.Split(cur)
		for n := len(base); n >= 1; n-- {
			next, ok := s.freeName(dir, n)
			if !ok {
				continue
			}
			if err := c.FS.Rename(c.Abs(cur), c.Abs(next)); err != nil {
				continue
			}
			if s.verbose {
				c.Errorf("%s: renamed to %s", s.q.F(cur), s.q.F(next))
			}
			cur = next
		}
	}
	if err := c.FS.Remove(c.Abs(cur)); err != nil {
		c.Errorf("%s: failed to remove: %s", s.q.F(name), builtins.ErrText(err))
		return false
	}
	if s.verbose {
		c.Errorf("%s: removed", s.q.F(name))
	}
	return true
}

// freeName is the first name of n characters in dir that does not exist,
// counting up from all zeros.
func (s *shredder) freeName(dir string, n int) (string, bool) {
	idx := make([]int, n)
	for tries := 0; tries < 1<<16; tries++ {
		var b strings.Builder
		for _, i := range idx {
			b.WriteByte(nameChars[i])
		}
		cand := dir + b.String()
		if _, err := s.c.Lstat(cand); builtins.IsNotExist(err) {
			return cand, true
		}
		k := n - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < len(nameChars) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return "", false
		}
	}
	return "", false
}
