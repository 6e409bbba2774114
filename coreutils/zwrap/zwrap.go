// Package zwrap implements the wrappers that run grep, cmp and diff over
// the uncompressed contents of files, as gzip, bzip2 and xz-utils ship
// them in Debian: zgrep zegrep zfgrep zcmp zdiff, bzgrep bzegrep bzfgrep
// bzcmp bzdiff, xzgrep xzegrep xzfgrep xzcmp xzdiff. Like the scripts,
// they pipe a decompressor into the sandbox's own grep, cmp or diff.
package zwrap

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
)

// Family is one package's set of wrappers: how it decompresses and how
// its scripts name themselves.
type Family struct {
	prefix string // "z", "bz", "xz"
	// decompress writes the contents of name ("-": standard input) to w,
	// passing data that is not compressed through, and returns the
	// decompressor's status (0 ok, 1 error, 2 warning).
	decompress func(ctx context.Context, c *builtins.Call, name string, w io.Writer) int
	// compressed reports whether diff treats name as a compressed file.
	compressed func(name string) bool
	// self is how messages name the script ($0 or ${0##*/}).
	self func(name string) string
	// openScript and openLines name the script and its lines where a
	// redirection finds the first and second operand unreadable (zcmp
	// runs zdiff).
	openScript func(name string) string
	openLines  [2]int
	// regularOnly: the script refuses an operand that is not a regular
	// file before anything else (Debian's bzdiff).
	regularOnly   bool
	version, bugs string
}

// viaCommand decompresses by running the sandbox's own decompressor with
// -cdfq (-f passes data that is not compressed through).
func viaCommand(prog string) func(ctx context.Context, c *builtins.Call, name string, w io.Writer) int {
	return func(ctx context.Context, c *builtins.Call, name string, w io.Writer) int {
		sub := c.Sub([]string{prog, "-cdfq", "--", name})
		sub.Stdout = w
		return c.Exec(ctx, sub)
	}
}

func debianPath(name string) string { return "/usr/bin/" + name }

// gzipped is the zdiff test for a compressed operand.
func gzipped(name string) bool {
	if strings.Contains(name, ".gz") || strings.Contains(name, "-gz") ||
		strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".taz") {
		return true
	}
	n := len(name)
	return n >= 2 && (name[n-2] == '.' || name[n-2] == '-') && (name[n-1] == 'z' || name[n-1] == 'Z')
}

// Gzip is gzip 1.12's wrappers.
var Gzip = &Family{
	prefix: "z", decompress: viaCommand("gzip"), compressed: gzipped, self: debianPath,
	openScript: func(string) string { return "/usr/bin/zdiff" }, openLines: [2]int{92, 96},
	version: "(gzip) 1.12", bugs: "bug-gzip@gnu.org",
}

// Bzip2 is bzip2 1.0.8's wrappers (Debian's adaptations of zgrep and zdiff).
var Bzip2 = &Family{
	prefix: "bz", decompress: viaCommand("bzip2"), self: debianPath, regularOnly: true,
	openScript: func(name string) string { return debianPath(path.Base(name)) }, openLines: [2]int{1, 1},
	compressed: func(name string) bool {
		for _, s := range []string{".bz2", "-bz2", ".tbz2", ".tbz", ".bz"} {
			if strings.Contains(name, s) {
				return true
			}
		}
		return false
	},
	version: "(bzip2) 1.0.8", bugs: "bug-gzip@gnu.org",
}

// Xz is xz-utils 5.4's wrappers: the decompressor is chosen by suffix.
var Xz = &Family{
	prefix: "xz", self: func(name string) string { return name },
	openScript: func(name string) string { return debianPath(path.Base(name)) }, openLines: [2]int{65, 65},
	decompress: func(ctx context.Context, c *builtins.Call, name string, w io.Writer) int {
		for _, m := range []struct{ prog, suffixes string }{
			{"gzip", ".z -z .Z -Z _z .gz -gz .tgz .taz"},
			{"bzip2", ".bz2 -bz2 .tbz .tbz2"},
			{"zstd", ".zst -zst .tzst"},
		} {
			for _, s := range strings.Fields(m.suffixes) {
				if strings.HasSuffix(name, s) {
					return viaCommand(m.prog)(ctx, c, name, w)
				}
			}
		}
		return xzAuto(c, name, w)
	},
	compressed: func(name string) bool {
		for _, s := range []string{".xz", ".txz", ".lzma", ".tlz", ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".zst", ".tzst", ".lzo", ".lz"} {
			if strings.HasSuffix(name, s) {
				return true
			}
		}
		return false
	},
	version: "(XZ Utils) 5.4.1", bugs: "xz@tukaani.org",
}

// xzAuto is "xz --format=auto -cdfqQ": .xz data decompressed, anything
// else passed through.
func xzAuto(c *builtins.Call, name string, w io.Writer) int {
	var in io.Reader = c.Stdin
	if name != "-" {
		f, err := c.Open(name)
		if err != nil {
			fmt.Fprintf(c.Stderr, "xz: %s: %s\n", name, builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		in = f
	}
	br := bufio.NewReader(in)
	head, _ := br.Peek(6)
	if !bytes.Equal(head, codec.Xz.Magic) {
		if _, err := io.Copy(w, br); err != nil && !builtins.IsBrokenPipe(err) {
			fmt.Fprintf(c.Stderr, "xz: %s: %s\n", name, builtins.ErrText(err))
			return 1
		}
		return 0
	}
	r, err := codec.Xz.NewReader(br)
	if err == nil {
		defer r.Close()
		_, err = io.Copy(w, r)
	}
	if err != nil && !builtins.IsBrokenPipe(err) {
		fmt.Fprintf(c.Stderr, "xz: %s: %s\n", name, "Compressed data is corrupt")
		return 1
	}
	return 0
}

// piped runs the decompressor of name into a pipe whose reading end it
// hands to consume; it returns consume's status and the decompressor's.
func (f *Family) piped(ctx context.Context, c *builtins.Call, name string, consume func(r io.Reader) int) (int, int) {
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	var dstatus int
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if p := recover(); p != nil {
				dstatus = 1
				pw.CloseWithError(fmt.Errorf("%v", p))
			}
		}()
		dstatus = f.decompress(ctx, c, name, pw)
		pw.Close()
	}()
	status := consume(pr)
	pr.CloseWithError(builtins.ErrPipeClosed)
	wg.Wait()
	return status, dstatus
}
