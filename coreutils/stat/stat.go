// Package stat implements GNU stat over the sandbox filesystem. Inode
// metadata the sandbox does not keep is supplied as package meta
// documents (owner: the sandbox user; blocks: ext4 with 4 KiB blocks;
// birth time: unknown).
package stat

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
	"github.com/bashbox/bashbox/internal/printf"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'L', Long: "dereference"},
	{Short: 'f', Long: "file-system"},
	{Long: "cached", Arg: builtins.RequiredArg},
	{Short: 'c', Long: "format", Arg: builtins.RequiredArg},
	{Long: "printf", Arg: builtins.RequiredArg},
	{Short: 't', Long: "terse"},
	{Long: "help"},
	{Long: "version"},
}}

type stater struct {
	ctx     context.Context
	c       *builtins.Call
	out     *bufio.Writer
	loc     *time.Location
	quoting quote.Style
	deref   bool
	fsMode  bool
	q       quote.Quoter
	failed  bool
	stopped bool
}

var cachedChoices = []argmatch.Choice{
	{Names: []string{"default"}, Value: 0},
	{Names: []string{"never"}, Value: 1},
	{Names: []string{"always"}, Value: 2},
}

// Run is the stat command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	s := &stater{ctx: ctx, c: c, out: bufio.NewWriterSize(c.Stdout, 32<<10), quoting: quote.ShellEscapeAlways}
	s.q = quote.New(c)
	var format string
	formatSet, interpret, terse := false, false, false
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		case "dereference":
			s.deref = true
		case "file-system":
			s.fsMode = true
		case "cached":
			// Accepted: the sandbox has no attribute cache.
			if _, ok := argmatch.Get(c, o.Value, "--cached", cachedChoices, 1); !ok {
				return 1
			}
		case "format":
			format, formatSet, interpret = o.Value+"\n", true, false
		case "printf":
			format, formatSet, interpret = o.Value, true, true
		case "terse":
			terse = true
		}
	}
	if len(operands) == 0 {
		c.Errorf("missing operand")
		c.TryHelp(0)
		return 1
	}
	if qs := c.Getenv("QUOTING_STYLE"); qs != "" {
		if st, ok := quote.ParseStyle(qs); ok {
			s.quoting = st
		}
	}
	s.loc = timefmt.Location(c.LookupEnv)
	for _, name := range operands {
		if ctx.Err() != nil {
			break
		}
		f := format
		if !formatSet {
			f = s.defaultFormat(name, terse)
		}
		if s.fsMode {
			s.statFS(name, f, interpret)
		} else {
			s.statFile(name, f, interpret, formatSet)
		}
		if s.stopped {
			break
		}
	}
	if err := s.out.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
	}
	if s.failed {
		return 1
	}
	return 0
}

// defaultFormat returns GNU's format for name (it depends on the type).
func (s *stater) defaultFormat(name string, terse bool) string {
	if s.fsMode {
		if terse {
			return "%n %i %l %t %s %S %b %f %a %c %d\n"
		}
		return "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\n" +
			"Block size: %-10s Fundamental block size: %S\n" +
			"Blocks: Total: %-10b Free: %-10f Available: %a\n" +
			"Inodes: Total: %-10c Free: %d\n"
	}
	if terse {
		return "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
	}
	dev := false
	if fi, err := s.lookup(name); err == nil && fi.Mode()&fs.ModeDevice != 0 {
		dev = true
	}
	f := "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
	if dev {
		f += "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n"
	} else {
		f += "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"
	}
	return f + "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
}

func (s *stater) lookup(name string) (fs.FileInfo, error) {
	if s.deref {
		return s.c.Stat(name)
	}
	return s.c.Lstat(name)
}

// fileData is what the directives of one file read.
type fileData struct {
	name   string
	abs    string
	fi     fs.FileInfo
	target string // symlink target
	isLink bool
}

func (s *stater) statFile(name, format string, interpret, explicit bool) {
	fi, err := s.lookup(name)
	if err != nil {
		s.c.Errorf("cannot statx %s: %s", s.q.AF(name), builtins.ErrText(err))
		s.failed = true
		return
	}
	d := &fileData{name: name, abs: path.Clean(s.c.Abs(name)), fi: fi}
	if fi.Mode()&fs.ModeSymlink != 0 {
		d.isLink = true
		d.target, _ = s.c.FS.ReadlinkIfPossible(s.c.Abs(name))
	}
	nameStyle := s.quoting
	if !explicit {
		nameStyle = quote.Literal
	}
	s.render(format, interpret, func(b *strings.Builder, spec string, conv byte, mod byte) bool {
		return s.fileDirective(b, d, spec, conv, mod, nameStyle)
	})
}

// render walks a format, calling dir for each directive.
func (s *stater) render(format string, interpret bool, dir func(b *strings.Builder, spec string, conv, mod byte) bool) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		switch {
		case ch == '%':
			j := i + 1
			for j < len(format) && strings.IndexByte("-0#+ '", format[j]) >= 0 {
				j++
			}
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			if j < len(format) && format[j] == '.' {
				j++
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				i = len(format)
				break
			}
			spec := format[i+1 : j]
			conv := format[j]
			var mod byte
			if (conv == 'H' || conv == 'L') && j+1 < len(format) && (format[j+1] == 'd' || format[j+1] == 'r') {
				mod = conv
				j++
				conv = format[j]
			}
			if conv == '%' {
				if spec != "" {
					s.out.WriteString(b.String())
					s.c.Errorf("%s: invalid directive", s.q.Q(format[i:j+1]))
					s.failed, s.stopped = true, true
					return
				}
				b.WriteByte('%')
			} else if !dir(&b, spec, conv, mod) {
				b.WriteByte('?')
			}
			i = j
		case ch == '\\' && interpret:
			i = s.escape(&b, format, i)
		default:
			b.WriteByte(ch)
		}
	}
	s.out.WriteString(b.String())
}

// escape interprets the backslash escape at format[i] and returns the
// index of its last byte.
func (s *stater) escape(b *strings.Builder, format string, i int) int {
	if i+1 >= len(format) {
		b.WriteByte('\\')
		return i
	}
	c := format[i+1]
	if l, ok := printf.Letter(c); ok {
		b.WriteByte(l)
		return i + 1
	}
	switch c {
	case '\\', '"':
		b.WriteByte(c)
	case 'x':
		j := i + 2
		for j < len(format) && j < i+4 && isHex(format[j]) {
			j++
		}
		if j == i+2 {
			b.WriteByte('x')
			s.c.Errorf("warning: unrecognized escape '\\x'")
			return i + 1
		}
		v, _ := strconv.ParseUint(format[i+2:j], 16, 8)
		b.WriteByte(byte(v))
		return j - 1
	default:
		if c >= '0' && c <= '7' {
			j := i + 1
			for j < len(format) && j < i+4 && format[j] >= '0' && format[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(format[i+1:j], 8, 16)
			b.WriteByte(byte(v))
			return j - 1
		}
		b.WriteByte(c)
		s.c.Errorf("warning: unrecognized escape '\\%c'", c)
	}
	return i + 1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// printf formats one value with the directive's flags, width and
// precision, as stat hands them to printf.
func printfStr(spec, v string) string {
	return fmt.Sprintf("%"+strings.ReplaceAll(spec, "'", "")+"s", v)
}

func printfInt(spec string, v uint64, verb string) string {
	spec = strings.ReplaceAll(spec, "'", "")
	// A precision on an integer is a minimum digit count in C.
	if i := strings.IndexByte(spec, '.'); i >= 0 {
		prec, _ := strconv.Atoi(spec[i+1:])
		digits := strconv.FormatUint(v, map[string]int{"d": 10, "x": 16, "o": 8}[verb])
		for len(digits) < prec {
			digits = "0" + digits
		}
		if strings.Contains(spec[:i], "#") && verb == "o" && digits[0] != '0' {
			digits = "0" + digits
		}
		if strings.Contains(spec[:i], "#") && verb == "x" && v != 0 {
			digits = "0x" + digits
		}
		flags := strings.ReplaceAll(strings.ReplaceAll(spec[:i], "0", ""), "#", "")
		return fmt.Sprintf("%"+flags+"s", digits)
	}
	return fmt.Sprintf("%"+spec+verb, v)
}

// printfTime formats seconds since the epoch with an optional precision
// giving fractional digits (%.3Y).
func printfTime(spec string, t time.Time) string {
	if t.IsZero() {
		return printfInt(spec, 0, "d")
	}
	sec := t.Unix()
	i := strings.IndexByte(spec, '.')
	if i < 0 {
		return fmt.Sprintf("%"+strings.ReplaceAll(spec, "'", "")+"d", sec)
	}
	prec, _ := strconv.Atoi(spec[i+1:])
	if spec[i+1:] == "" {
		prec = 9
	}
	frac := fmt.Sprintf("%09d", t.Nanosecond())
	if prec > 9 {
		frac += strings.Repeat("0", prec-9)
	}
	s := strconv.FormatInt(sec, 10)
	if prec > 0 {
		s += "." + frac[:prec]
	}
	flags := spec[:i]
	if strings.Contains(flags, "+") && sec >= 0 {
		s = "+" + s
	}
	width := strings.TrimLeft(flags, "-0#+ '")
	w, _ := strconv.Atoi(width)
	fill := " "
	if strings.Contains(flags, "0") && !strings.Contains(flags, "-") {
		fill = "0"
	}
	for len(s) < w {
		if strings.Contains(flags, "-") {
			s += " "
		} else {
			s = fill + s
		}
	}
	return s
}

// humanTime is %x/%y/%z: "2024-01-02 03:04:05.000000000 +0000".
func (s *stater) humanTime(t time.Time) string {
	return timefmt.Strftime(t.In(s.loc), "%Y-%m-%d %H:%M:%S.%N %z")
}

func (s *stater) fileDirective(b *strings.Builder, d *fileData, spec string, conv, mod byte, nameStyle quote.Style) bool {
	fi := d.fi
	c := s.c
	switch mod {
	case 'H', 'L':
		var maj, mnr uint64
		if conv == 'd' {
			dev := meta.Dev(c, d.abs)
			maj, mnr = dev>>8, dev&0xff
		} else {
			a, b2 := meta.Rdev(d.abs, fi)
			maj, mnr = uint64(a), uint64(b2)
		}
		v := maj
		if mod == 'L' {
			v = mnr
		}
		b.WriteString(printfInt(spec, v, "d"))
		return true
	}
	switch conv {
	case 'n':
		b.WriteString(printfStr(spec, d.name))
	case 'N':
		q := s.q.Quote(d.name, nameStyle)
		if d.isLink {
			q += " -> " + s.q.Quote(d.target, nameStyle)
		}
		b.WriteString(printfStr(spec, q))
	case 's':
		b.WriteString(printfInt(spec, uint64(meta.Size(fi)), "d"))
	case 'b':
		b.WriteString(printfInt(spec, uint64(meta.Blocks(fi)), "d"))
	case 'B':
		b.WriteString(printfInt(spec, 512, "d"))
	case 'o':
		b.WriteString(printfInt(spec, meta.BlockSize, "d"))
	case 'f':
		b.WriteString(printfInt(spec, uint64(modes.UnixMode(fi.Mode())), "x"))
	case 'F':
		b.WriteString(printfStr(spec, modes.FileType(fi)))
	case 'a':
		b.WriteString(printfInt(spec, uint64(modes.Perm(fi.Mode())), "o"))
	case 'A':
		b.WriteString(printfStr(spec, modes.ModeString(fi.Mode())))
	case 'u':
		b.WriteString(printfInt(spec, uint64(meta.OwnerOf(c, d.abs).UID), "d"))
	case 'U':
		b.WriteString(printfStr(spec, knownName(meta.OwnerOf(c, d.abs).User)))
	case 'g':
		b.WriteString(printfInt(spec, uint64(meta.OwnerOf(c, d.abs).GID), "d"))
	case 'G':
		b.WriteString(printfStr(spec, knownName(meta.OwnerOf(c, d.abs).Group)))
	case 'h':
		b.WriteString(printfInt(spec, meta.Nlink(c, d.abs, fi), "d"))
	case 'i':
		b.WriteString(printfInt(spec, meta.InoOf(meta.Physical(c, d.abs), d.fi), "d"))
	case 'd':
		b.WriteString(printfInt(spec, meta.Dev(c, d.abs), "d"))
	case 'D':
		b.WriteString(printfInt(spec, meta.Dev(c, d.abs), "x"))
	case 'm':
		b.WriteString(printfStr(spec, meta.MountPoint(c, d.abs)))
	case 'r', 'R':
		maj, mnr := meta.Rdev(d.abs, fi)
		v := uint64(maj)<<8 | uint64(mnr)
		verb := "d"
		if conv == 'R' {
			verb = "x"
		}
		b.WriteString(printfInt(spec, v, verb))
	case 't', 'T':
		maj, mnr := meta.Rdev(d.abs, fi)
		v := uint64(maj)
		if conv == 'T' {
			v = uint64(mnr)
		}
		b.WriteString(printfInt(spec, v, "x"))
	case 'x':
		b.WriteString(printfStr(spec, s.humanTime(meta.Atime(fi))))
	case 'y':
		b.WriteString(printfStr(spec, s.humanTime(fi.ModTime())))
	case 'z':
		b.WriteString(printfStr(spec, s.humanTime(meta.Ctime(fi))))
	case 'w':
		b.WriteString(printfStr(spec, "-"))
	case 'X':
		b.WriteString(printfTime(spec, meta.Atime(fi)))
	case 'Y':
		b.WriteString(printfTime(spec, fi.ModTime()))
	case 'Z':
		b.WriteString(printfTime(spec, meta.Ctime(fi)))
	case 'W':
		b.WriteString(printfTime(spec, time.Time{}))
	case 'C':
		b.WriteString(printfStr(spec, "?"))
	default:
		return false
	}
	return true
}

func (s *stater) statFS(name, format string, interpret bool) {
	if _, err := s.c.Stat(name); err != nil {
		s.c.Errorf("cannot read file system information for %s: %s", s.q.AF(name), builtins.ErrText(err))
		s.failed = true
		return
	}
	st := meta.FileSystem(s.ctx, s.c, path.Clean(s.c.Abs(name)))
	s.render(format, interpret, func(b *strings.Builder, spec string, conv, mod byte) bool {
		if mod != 0 {
			return false
		}
		switch conv {
		case 'n':
			b.WriteString(printfStr(spec, name))
		case 'i':
			b.WriteString(printfInt(spec, st.ID, "x"))
		case 'l':
			b.WriteString(printfInt(spec, 255, "d"))
		case 't':
			b.WriteString(printfInt(spec, st.Magic, "x"))
		case 'T':
			b.WriteString(printfStr(spec, st.StatType))
		case 'b':
			b.WriteString(printfInt(spec, st.Blocks, "d"))
		case 'f':
			b.WriteString(printfInt(spec, st.Free, "d"))
		case 'a':
			b.WriteString(printfInt(spec, st.Avail, "d"))
		case 's', 'S':
			b.WriteString(printfInt(spec, st.BlockSize, "d"))
		case 'c':
			b.WriteString(printfInt(spec, st.Files, "d"))
		case 'd':
			b.WriteString(printfInt(spec, st.FilesFree, "d"))
		default:
			return false
		}
		return true
	})
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, `Usage: %s [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
      --cached=MODE     accepted for compatibility (always, never, default)
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline
  -t, --terse           print the information in terse form
      --help            display this help and exit
      --version         output version information and exit

The valid format sequences for files (without --file-system):

  %%a   permission bits in octal      %%A   permission bits and file type
  %%b   number of blocks allocated    %%B   the size in bytes of each block
  %%d   device number in decimal      %%D   device number in hex
  %%Hd  major device number           %%Ld  minor device number
  %%f   raw mode in hex               %%F   file type
  %%g   group ID of owner             %%G   group name of owner
  %%h   number of hard links          %%i   inode number
  %%m   mount point                   %%n   file name
  %%N   quoted file name with dereference if symbolic link
  %%o   optimal I/O transfer size     %%s   total size, in bytes
  %%r   device type in decimal        %%R   device type in hex
  %%Hr  major device type             %%Lr  minor device type
  %%t   major device type in hex      %%T   minor device type in hex
  %%u   user ID of owner              %%U   user name of owner
  %%w   time of file birth; - if unknown
  %%W   time of file birth, seconds since Epoch; 0 if unknown
  %%x   time of last access           %%X   ... seconds since Epoch
  %%y   time of last modification     %%Y   ... seconds since Epoch
  %%z   time of last status change    %%Z   ... seconds since Epoch

Valid format sequences for file systems:

  %%a   free blocks available to non-superuser
  %%b   total data blocks in file system
  %%c   total file nodes in file system
  %%d   free file nodes in file system
  %%f   free blocks in file system
  %%i   file system ID in hex
  %%l   maximum length of filenames
  %%n   file name
  %%s   block size (for faster transfers)
  %%S   fundamental block size (for block counts)
  %%t   file system type in hex
  %%T   file system type in human readable form
`, c.Name())
}

// knownName is a user or group name as stat prints it: UNKNOWN for ids
// without a name.
func knownName(name string) string {
	if name == "" {
		return "UNKNOWN"
	}
	return name
}
