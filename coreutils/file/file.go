// Package file implements the file command for the common cases of file
// 5.44 as Debian ships it: special files, empty files, the usual binary
// formats recognised by their magic bytes (ELF, gzip, bzip2, xz, zstd,
// zip, tar, 7-zip, PNG, JPEG, GIF, PDF, WebAssembly...), and text with
// its encoding, line terminators and the script, JSON, HTML, XML, C and
// diff kinds. Anything else is "data". There is no magic database.
package file

import (
	"bufio"

	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

const usageText = `Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "brief"},
	{Short: 'c', Long: "checking-printout"},
	{Short: 'd', Long: "debug"},
	{Short: 'E'},
	{Short: 'e', Long: "exclude", Arg: builtins.RequiredArg},
	{Long: "exclude-quiet", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "files-from", Arg: builtins.RequiredArg},
	{Short: 'F', Long: "separator", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "no-dereference"},
	{Short: 'i', Long: "mime"},
	{Long: "mime-type"},
	{Long: "mime-encoding"},
	{Long: "apple"},
	{Long: "extension"},
	{Short: 'k', Long: "keep-going"},
	{Short: 'l', Long: "list"},
	{Short: 'L', Long: "dereference"},
	{Short: 'm', Long: "magic-file", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "no-buffer"},
	{Short: 'N', Long: "no-pad"},
	{Short: 'p', Long: "preserve-date"},
	{Short: 'P', Long: "parameter", Arg: builtins.RequiredArg},
	{Short: 'r', Long: "raw"},
	{Short: 's', Long: "special-files"},
	{Short: 'S', Long: "no-sandbox"},
	{Short: 'z', Long: "uncompress"},
	{Short: 'Z', Long: "uncompress-noreport"},
	{Short: '0', Long: "print0"},
	{Short: 'v', Long: "version"},
	{Long: "help"},
}}

// readLimit is how much of a file is examined, as file's default
// bytes limit.
const readLimit = 1 << 20

type mode int

const (
	modeDesc mode = iota
	modeMime
	modeMimeType
	modeMimeEncoding
)

type result struct {
	desc     string
	mimeType string
	charset  string // "" for none (broken symlinks)
}

// Run is the file command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}
	brief, deref, noPad, print0, exitOnErr := false, false, false, false, false
	sep := ":"
	m := modeDesc
	var namesFrom []string
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		case "brief":
			brief = true
		case "E":
			exitOnErr = true
		case "files-from":
			namesFrom = append(namesFrom, o.Value)
		case "separator":
			sep = o.Value
		case "no-dereference":
			deref = false
		case "dereference":
			deref = true
		case "mime":
			m = modeMime
		case "mime-type":
			m = modeMimeType
		case "mime-encoding":
			m = modeMimeEncoding
		case "no-pad":
			noPad = true
		case "print0":
			print0 = true
		case "magic-file", "checking-printout", "list":
			c.Errorf("magic files are not supported in this sandbox")
			return 1
		}
	}
	for _, nf := range namesFrom {
		data, err := readNames(c, nf)
		if err != nil {
			c.Errorf("Cannot open `%s' (%s).", nf, builtins.ErrText(err))
			return 1
		}
		operands = append(operands, data...)
	}
	if len(operands) == 0 {
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}
	width := 0
	for _, op := range operands {
		if n := len(displayName(op)); n > width {
			width = n
		}
	}
	out := bufio.NewWriter(c.Stdout)
	status := 0
	for _, op := range operands {
		if ctx.Err() != nil {
			break
		}
		r, ok := classify(c, op, deref)
		if !ok && exitOnErr {
			out.Flush()
			c.Errorf("%s", strings.TrimPrefix(r.desc, ""))
			return 1
		}
		var line strings.Builder
		if !brief {
			name := displayName(op)
			line.WriteString(name)
			if print0 {
				line.WriteByte(0)
			}
			line.WriteString(sep)
			if !noPad {
				line.WriteString(strings.Repeat(" ", width-len(name)))
			}
			line.WriteByte(' ')
		}
		switch m {
		case modeDesc:
			line.WriteString(r.desc)
		case modeMime:
			line.WriteString(r.mimeType)
			if r.charset != "" {
				line.WriteString("; charset=" + r.charset)
			}
		case modeMimeType:
			line.WriteString(r.mimeType)
		case modeMimeEncoding:
			line.WriteString(r.charset)
		}
		line.WriteByte('\n')
		if _, err := out.WriteString(line.String()); err != nil && builtins.IsBrokenPipe(err) {
			return 141
		}
	}
	if err := out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	return status
}

func displayName(op string) string {
	if op == "-" {
		return "/dev/stdin"
	}
	return op
}

func readNames(c *builtins.Call, name string) ([]string, error) {
	r, err := textio.Open(c, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out, nil
}

// classify describes one operand.
func classify(c *builtins.Call, name string, deref bool) (result, bool) {
	if name == "-" {
		data, _ := io.ReadAll(io.LimitReader(c.Stdin, readLimit))
		return classifyData(c, data, false), true
	}
	fi, err := meta.Stat(c, name, deref)
	if err != nil {
		return result{desc: fmt.Sprintf("cannot open `%s' (%s)", name, builtins.ErrText(err)), mimeType: "cannot open `" + name + "' (" + builtins.ErrText(err) + ")"}, false
	}
	mode := fi.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		target, _ := c.FS.ReadlinkIfPossible(c.Abs(name))
		if _, err := c.Stat(name); err != nil {
			return result{desc: "broken symbolic link to " + target, mimeType: "inode/symlink"}, true
		}
		return result{desc: "symbolic link to " + target, mimeType: "inode/symlink", charset: "binary"}, true
	case mode.IsDir():
		return result{desc: "directory", mimeType: "inode/directory", charset: "binary"}, true
	case mode&fs.ModeNamedPipe != 0:
		return result{desc: "fifo (named pipe)", mimeType: "inode/fifo", charset: "binary"}, true
	case mode&fs.ModeSocket != 0:
		return result{desc: "socket", mimeType: "inode/socket", charset: "binary"}, true
	case mode&fs.ModeCharDevice != 0:
		maj, mnr := meta.Rdev(c.Abs(name), fi)
		return result{desc: fmt.Sprintf("character special (%d/%d)", maj, mnr), mimeType: "inode/chardevice", charset: "binary"}, true
	case mode&fs.ModeDevice != 0:
		maj, mnr := meta.Rdev(c.Abs(name), fi)
		return result{desc: fmt.Sprintf("block special (%d/%d)", maj, mnr), mimeType: "inode/blockdevice", charset: "binary"}, true
	}
	f, err := c.Open(name)
	if err != nil {
		return result{desc: fmt.Sprintf("cannot open `%s' (%s)", name, builtins.ErrText(err)), mimeType: "cannot open"}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, readLimit))
	if err != nil {
		return result{desc: fmt.Sprintf("cannot read `%s' (%s)", name, builtins.ErrText(err)), mimeType: "cannot read"}, false
	}
	if len(data) == 0 {
		return result{desc: "empty", mimeType: "inode/x-empty", charset: "binary"}, true
	}
	return classifyData(c, data, true), true
}

func classifyData(c *builtins.Call, data []byte, _ bool) result {
	if len(data) == 0 {
		return result{desc: "empty", mimeType: "application/x-empty", charset: "binary"}
	}
	if r, ok := binaryMagic(c, data); ok {
		// The MIME encoding is that of the bytes, whatever the format.
		if enc, _, ok := detectEncoding(data); ok {
			r.charset = enc.charset
		}
		return r
	}
	if r, ok := textKind(data); ok {
		return r
	}
	return result{desc: "data", mimeType: "application/octet-stream", charset: "binary"}
}

func help(c *builtins.Call) {
	fmt.Fprint(c.Stdout, `Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

      --help                 display this help and exit
  -v, --version              output version information and exit
  -b, --brief                do not prepend filenames to output lines
  -E                         on filesystem errors, issue an error message
                               and exit
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of ':'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
`)
}

// timeString is ctime's form, for gzip timestamps.
func timeString(c *builtins.Call, sec int64) string {
	return timefmt.Strftime(unixTime(sec).In(timefmt.Location(c.LookupEnv)), "%a %b %e %H:%M:%S %Y")
}
