// Package truncate implements truncate: shrink or extend the size of a
// file to the specified size.
package truncate

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: PROG OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

Mandatory arguments to long options are mandatory for short options too.
  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'c', Long: "no-create"},
	{Short: 'o', Long: "io-blocks"},
	{Short: 'r', Long: "reference", Arg: builtins.RequiredArg},
	{Short: 's', Long: "size", Arg: builtins.RequiredArg},
}}

// blockSize is the I/O block size -o counts in (st_blksize of the usual
// Linux filesystems).
const blockSize = 4096

var errInvalid = errors.New("invalid number")

// ParseSize reads a size as GNU's xstrtoimax with truncate's suffixes
// does (K, KiB = 1024, KB = 1000, ... Y; k m g t also in lower case),
// after the caller has taken off any relative modifier: a second sign or
// a blank after it makes the number invalid.
func ParseSize(s string) (int64, error) {
	if s != "" && strings.IndexByte(" \t\n\v\f\r+-", s[0]) >= 0 {
		return 0, errInvalid
	}
	n, e := textio.ParseUint(s, "EgGkKmMPtTYZ0")
	switch {
	case e == textio.NumOverflow || e == textio.NumOK && n > math.MaxInt64:
		return 0, errRange
	case e != textio.NumOK:
		return 0, errInvalid
	}
	return int64(n), nil
}

var errRange = errors.New("Value too large for defined data type")

// Run is the truncate command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	q := quote.New(c)
	var noCreate, ioBlocks, hasSize, hasRef bool
	var ref string
	var size int64
	var rel byte
	for _, o := range opts {
		switch o.Key {
		case "no-create":
			noCreate = true
		case "io-blocks":
			ioBlocks = true
		case "reference":
			ref, hasRef = o.Value, true
		case "size":
			s := o.Value
			rel = 0
			if s != "" && strings.IndexByte("<>/%", s[0]) >= 0 {
				rel = s[0]
				s = s[1:]
			}
			for s != "" && (s[0] == ' ' || s[0] == '\t') {
				s = s[1:]
			}
			neg := false
			if s != "" && (s[0] == '+' || s[0] == '-') {
				if rel != 0 {
					return fileops.UsageErr(c, "multiple relative modifiers specified")
				}
				rel = '+'
				neg = s[0] == '-'
				s = s[1:]
			}
			n, err := ParseSize(s)
			if err != nil {
				if err == errRange {
					c.Errorf("Invalid number: %s: %s", q.Q(o.Value), err.Error())
				} else {
					c.Errorf("Invalid number: %s", q.Q(o.Value))
				}
				return 1
			}
			if neg {
				n = -n
			}
			size, hasSize = n, true
		}
	}
	if !hasSize && !hasRef {
		return fileops.UsageErr(c, "you must specify either %s or %s", q.Q("--size"), q.Q("--reference"))
	}
	if ioBlocks && !hasSize {
		return fileops.UsageErr(c, "%s was specified but %s was not", q.Q("--io-blocks"), q.Q("--size"))
	}
	if hasSize && hasRef && rel == 0 {
		return fileops.UsageErr(c, "you must specify a relative %s with %s", q.Q("--size"), q.Q("--reference"))
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing file operand")
	}
	if ioBlocks {
		size *= blockSize
	}
	refSize := int64(-1)
	if hasRef {
		fi, err := c.Stat(ref)
		if err != nil {
			c.Errorf("cannot stat %s: %s", q.AF(ref), builtins.ErrText(err))
			return 1
		}
		refSize = fi.Size()
		if !hasSize {
			size = refSize
		}
	}
	if (rel == '/' || rel == '%') && size == 0 {
		c.Errorf("division by zero")
		return 1
	}
	status = 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 1
		}
		flag := os.O_WRONLY
		if !noCreate {
			flag |= os.O_CREATE
		}
		f, err := c.OpenFile(name, flag, 0o644)
		if err != nil {
			if noCreate && builtins.IsNotExist(err) {
				continue
			}
			c.Errorf("cannot open %s for writing: %s", q.AF(name), builtins.ErrText(err))
			status = 1
			continue
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			c.Errorf("cannot fstat %s: %s", q.AF(name), builtins.ErrText(err))
			status = 1
			continue
		}
		base := fi.Size()
		if refSize >= 0 {
			base = refSize
		}
		n := size
		switch rel {
		case '+':
			n = base + size
		case '<':
			n = min(base, size)
		case '>':
			n = max(base, size)
		case '/':
			n = base / size * size
		case '%':
			n = (base + size - 1) / size * size
		}
		if n < 0 {
			n = 0
		}
		if err := f.Truncate(n); err != nil {
			c.Errorf("failed to truncate %s at %d bytes: %s", q.AF(name), n, builtins.ErrText(err))
			status = 1
		}
		f.Close()
	}
	return status
}
