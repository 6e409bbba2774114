// Package hexdump implements util-linux hexdump (2.38, as Debian 12
// ships it in bsdextrautils): format-driven dumps, with the built-in
// formats -b -c -C -d -o -x and the default one.
package hexdump

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -L, --color[=<mode>]      interpret color formatting specifiers
                             colors are enabled by default
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version

Arguments:
 <length> and <offset> arguments may be followed by the suffixes for
   GiB, TiB, PiB, EiB, ZiB, and YiB (the "iB" is optional)

For more details see hexdump(1).
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "one-byte-octal"},
	{Short: 'c', Long: "one-byte-char"},
	{Short: 'C', Long: "canonical"},
	{Short: 'd', Long: "two-bytes-decimal"},
	{Short: 'o', Long: "two-bytes-octal"},
	{Short: 'x', Long: "two-bytes-hex"},
	{Short: 'L', Long: "color", Arg: builtins.OptionalArg},
	{Short: 'e', Long: "format", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "format-file", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "length", Arg: builtins.RequiredArg},
	{Short: 's', Long: "skip", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "no-squeezing"},
	{Short: 'h', Long: "help"},
	{Short: 'V', Long: "version"},
}}

var builtinFormats = map[string][]string{
	"one-byte-octal":    {`"%07.7_Ax\n"`, `"%07.7_ax " 16/1 "%03o " "\n"`},
	"one-byte-char":     {`"%07.7_Ax\n"`, `"%07.7_ax " 16/1 "%3_c " "\n"`},
	"canonical":         {`"%08.8_Ax\n"`, `"%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x " `, `"  |" 16/1 "%_p" "|\n"`},
	"two-bytes-decimal": {`"%07.7_Ax\n"`, `"%07.7_ax " 8/2 "  %05u " "\n"`},
	"two-bytes-octal":   {`"%07.7_Ax\n"`, `"%07.7_ax " 8/2 " %06o " "\n"`},
	"two-bytes-hex":     {`"%07.7_Ax\n"`, `"%07.7_ax " 8/2 "   %04x " "\n"`},
}

var defaultFormat = []string{`"%07.7_Ax\n"`, `"%07.7_ax " 8/2 "%04x " "\n"`}

// Run is the hexdump command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var formats []string
	if c.Name() == "hd" {
		// hd is hexdump -C, and further formats add to it.
		formats = append(formats, builtinFormats["canonical"]...)
	}
	var length int64 = -1
	var skip int64
	squeeze := true
	for _, o := range opts {
		if st, done := textfmt.HelpVersion(c, o, helpText); done {
			return st
		}
		switch o.Key {
		case "one-byte-octal", "one-byte-char", "canonical", "two-bytes-decimal", "two-bytes-octal", "two-bytes-hex":
			formats = append(formats, builtinFormats[o.Key]...)
		case "color":
		case "format":
			formats = append(formats, o.Value)
		case "format-file":
			f, err := c.Open(o.Value)
			if err != nil {
				c.Errorf("%s: %s", o.Value, builtins.ErrText(err))
				return 1
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				c.Errorf("%s: %s", o.Value, builtins.ErrText(err))
				return 1
			}
			for _, line := range strings.Split(string(data), "\n") {
				t := strings.TrimLeft(line, " \t\v\f\r")
				if t == "" || t[0] == '#' {
					continue
				}
				formats = append(formats, line)
			}
		case "length", "skip":
			what, dst := "length", &length
			if o.Key == "skip" {
				what, dst = "offset", &skip
			}
			v, ok := parseSize(o.Value)
			if !ok {
				c.Errorf("failed to parse %s: '%s': Invalid argument", what, o.Value)
				return 1
			}
			*dst = v
		case "no-squeezing":
			squeeze = false
		}
	}
	if len(formats) == 0 {
		formats = defaultFormat
	}
	var groups []*group
	for _, f := range formats {
		g, err := parseGroup(f)
		if err != nil {
			c.Errorf("%s", err.Error())
			return 1
		}
		if err := g.rewrite(); err != nil {
			c.Errorf("%s", err.Error())
			return 1
		}
		groups = append(groups, g)
	}
	blocksize := 0
	for _, g := range groups {
		if g.bcnt > blocksize {
			blocksize = g.bcnt
		}
	}
	var endUnit *unit
	for _, g := range groups {
		g.finish(blocksize)
		for _, u := range g.units {
			if u.ignore {
				endUnit = u
			}
		}
	}

	if skip > 0 && len(files) == 0 {
		// util-linux seeks standard input to skip, which fails on a pipe.
		if _, ok := textfmt.SeekableStdin(c); !ok {
			c.Errorf("stdin: Illegal seek")
			return 1
		}
	}
	in := textfmt.NewInputs(c, files)
	in.DashIsFile = true
	out := textfmt.NewOutput(c.Stdout)
	d := &display{groups: groups, endUnit: endUnit, blocksize: blocksize, squeeze: squeeze, out: out}
	d.run(ctx, in, skip, length)
	in.Close()
	if len(files) > 0 && in.Opened == 0 {
		out.Flush()
		c.Errorf("all input file arguments failed")
		return out.Finish(c, 1)
	}
	status := 0
	if in.OpenErrors > 0 {
		status = 1
	}
	return out.End(ctx, c, status)
}

// parseSize parses a -n or -s value: decimal, 0x hex or 0 octal, with
// an optional K, M, G... suffix (KiB or KB forms too).
func parseSize(s string) (int64, bool) {
	t := strings.TrimSpace(s)
	if t == "" || t[0] == '-' {
		return 0, false
	}
	i := 0
	base := 10
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		base, i = 16, 2
	} else if strings.HasPrefix(t, "0") && len(t) > 1 {
		base = 8
	}
	j := i
	for j < len(t) {
		c := t[j]
		ok := c >= '0' && c <= '9' && (base != 8 || c <= '7') ||
			base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			break
		}
		j++
	}
	if j == i {
		return 0, false
	}
	v, err := strconv.ParseUint(t[i:j], base, 63)
	if err != nil {
		return 0, false
	}
	suf := t[j:]
	if suf == "" {
		return int64(v), true
	}
	idx := strings.IndexByte("KMGTPEZY", suf[0]&^0x20)
	if idx < 0 {
		return 0, false
	}
	mult := uint64(1024)
	switch suf[1:] {
	case "", "iB":
	case "B":
		mult = 1000
	default:
		return 0, false
	}
	for k := 0; k <= idx; k++ {
		if v > (1<<63-1)/mult {
			return 0, false
		}
		v *= mult
	}
	return int64(v), true
}

type display struct {
	groups    []*group
	endUnit   *unit
	blocksize int
	squeeze   bool
	out       *textfmt.Output
	line      []byte
}

func (d *display) run(ctx context.Context, in io.Reader, skip, length int64) {
	r := bufio.NewReaderSize(in, textfmt.BufSize)
	var address int64
	if skip > 0 {
		n, _ := io.CopyN(io.Discard, r, skip)
		address = n
	}
	var src io.Reader = r
	if length >= 0 {
		src = io.LimitReader(r, length)
	}
	cur := make([]byte, d.blocksize)
	prev := make([]byte, d.blocksize)
	first := true
	dupShown := false
	var eaddress int64 = -1
	var tick textfmt.Tick
	for {
		if tick.Stop(ctx) || d.out.Failed() {
			return
		}
		n, err := io.ReadFull(src, cur)
		if n == 0 {
			break
		}
		if n == d.blocksize {
			if d.squeeze && !first && bytes.Equal(cur, prev) {
				if !dupShown {
					d.out.WriteString("*\n")
					dupShown = true
				}
				address += int64(n)
				continue
			}
		} else {
			for i := n; i < len(cur); i++ {
				cur[i] = 0
			}
			eaddress = address + int64(n)
		}
		dupShown = false
		first = false
		d.block(cur, address, eaddress)
		address += int64(n)
		prev, cur = cur, prev
		if err != nil {
			break
		}
	}
	if d.endUnit == nil {
		return
	}
	if eaddress < 0 {
		if address == 0 {
			return
		}
		eaddress = address
	}
	line := d.line[:0]
	for _, pc := range d.endUnit.pieces {
		switch pc.kind {
		case fEndAddress:
			line = pc.appendPiece(line, nil, eaddress)
		case fText:
			line = append(line, pc.text...)
		}
	}
	d.line = line
	d.out.Write(line)
}

// block prints one block with every format group.
func (d *display) block(b []byte, start, eaddress int64) {
	line := d.line[:0]
	for _, g := range d.groups {
		address := start
		p := 0
	units:
		for _, u := range g.units {
			if u.ignore {
				break units
			}
			for cnt := u.reps; cnt > 0; cnt-- {
				for _, pc := range u.pieces {
					if eaddress >= 0 && address >= eaddress && pc.kind != fText && pc.kind != fBpad {
						pc.bpad()
					}
					if pc.kind == fText {
						t := pc.text
						if cnt == 1 && pc.nospace {
							t = t[:len(t)-1]
						}
						line = append(line, t...)
					} else {
						var data []byte
						if p+pc.bcnt <= len(b) {
							data = b[p : p+pc.bcnt]
						} else {
							data = make([]byte, pc.bcnt)
							copy(data, b[min(p, len(b)):])
						}
						line = pc.appendPiece(line, data, address)
					}
					address += int64(pc.bcnt)
					p += pc.bcnt
				}
			}
		}
	}
	d.line = line
	d.out.Write(line)
}
