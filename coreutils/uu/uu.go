// Package uu implements GNU sharutils uuencode and uudecode: the classic
// uuencoding and its base64 form (-m), with the begin line that carries
// the file's mode and name.
package uu

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

// Exit statuses of sharutils.
const (
	exitFail  = 1
	exitFatal = 2
	exitNoIn  = 4
	exitUsage = 64 // EX_USAGE
)

var encOptions = builtins.Options{List: []builtins.Option{
	{Short: 'm', Long: "base64"}, {Short: 'h', Long: "help"}, {Short: 'v', Long: "version", Arg: builtins.OptionalArg},
}}

const encUsage = "uuencode (GNU sharutils) - encode a file into email friendly text\n" +
	"Usage:  uuencode [ -<flag> | --<name> ]... [<in-file>] <output-name>\n"

const encHelp = encUsage + `
   -m, --base64               convert using base64
   -v, --version[=MODE]       output version information and exit
   -h, --help                 display extended usage information and exit

Options are specified by doubled hyphens and their name or by a single
hyphen and the flag character.

'uuencode' is used to create an ASCII representation of a file that can be
sent over channels that may otherwise corrupt the data.  Specifically,
email cannot handle binary data and will often even insert a character when
the six character sequence "\nFrom " is seen.

'uuencode' will read 'in-file' if provided and otherwise read data from
standard in and write the encoded form to standard out.  The output will
begin with a header line for use by 'uudecode' giving it the resulting
suggested file 'output-name' and access mode.  If the 'output-name' is
specifically '/dev/stdout', then 'uudecode' will emit the decoded file to
standard out.
`

func usageError(c *builtins.Call, usage string, msg string) int {
	if msg != "" {
		fmt.Fprintf(c.Stderr, "%s\n", msg)
	}
	fmt.Fprint(c.Stderr, usage)
	return c.TryHelp(exitUsage)
}

// Encode is the uuencode command.
func Encode(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := encOptions.Parse(c.Args[1:])
	if err != nil {
		return usageError(c, encUsage, "/usr/bin/uuencode: "+illegal(err))
	}
	b64 := false
	for _, o := range opts {
		switch o.Key {
		case "base64":
			b64 = true
		case "help":
			return textfmt.Help(c, encHelp)
		case "version":
			fmt.Fprintf(c.Stdout, "uuencode (GNU sharutils) 4.15.2\n")
			return 0
		}
	}
	if len(operands) == 0 || len(operands) > 2 {
		return usageError(c, encUsage, "")
	}
	in := c.Stdin
	mode := 0o666 &^ c.Umask
	if len(operands) == 2 {
		f, err := c.Open(operands[0])
		if err != nil {
			fmt.Fprintf(c.Stderr, "uuencode fatal error:\nfserr %d (%s) performing 'freopen of stdin' on %s\n", errno(err), builtins.ErrText(err), operands[0])
			return exitFail
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			mode = fi.Mode() & 0o777
		}
		in = f
	}
	out := textfmt.NewOutput(c.Stdout)
	name := operands[len(operands)-1]
	var rerr error
	if b64 {
		fmt.Fprintf(out, "begin-base64 %o %s\n", mode, name)
		rerr = encodeLines(ctx, in, 45, func(p []byte) {
			line := make([]byte, base64.StdEncoding.EncodedLen(len(p)))
			base64.StdEncoding.Encode(line, p)
			out.Write(line)
			out.WriteByte('\n')
		})
		out.WriteString("====\n")
	} else {
		fmt.Fprintf(out, "begin %o %s\n", mode, name)
		rerr = encodeLines(ctx, in, 45, func(p []byte) { out.Write(uuLine(p)) })
		out.WriteString("`\nend\n")
	}
	if rerr != nil {
		out.Flush()
		fmt.Fprintf(c.Stderr, "uuencode fatal error:\nfserr %d (%s) performing 'read' on %s\n", errno(rerr), builtins.ErrText(rerr), "input")
		return exitFail
	}
	return out.Finish(c, 0)
}

func illegal(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "invalid option -- '") {
		return "illegal option -- " + strings.TrimSuffix(strings.TrimPrefix(msg, "invalid option -- '"), "'")
	}
	return msg
}

func errno(err error) int {
	switch {
	case builtins.IsNotExist(err):
		return 2
	case os.IsPermission(err):
		return 13
	}
	return 21
}

// encodeLines hands line-sized pieces of r to emit.
func encodeLines(ctx context.Context, r io.Reader, size int, emit func([]byte)) error {
	buf := make([]byte, size)
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			emit(buf[:n])
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// enc is uuencoding's ENC(): six bits as a printable character, with
// '`' for zero.
func enc(v byte) byte {
	if v&0o77 == 0 {
		return '`'
	}
	return v&0o77 + ' '
}

func uuLine(p []byte) []byte {
	line := []byte{enc(byte(len(p)))}
	for i := 0; i < len(p); i += 3 {
		var g [3]byte
		copy(g[:], p[i:])
		line = append(line, enc(g[0]>>2), enc(g[0]<<4|g[1]>>4), enc(g[1]<<2|g[2]>>6), enc(g[2]))
	}
	return append(line, '\n')
}

var decOptions = builtins.Options{List: []builtins.Option{
	{Short: 'o', Long: "output-file", Arg: builtins.RequiredArg}, {Short: 'c', Long: "ignore-chmod"},
	{Short: 'h', Long: "help"}, {Short: 'v', Long: "version", Arg: builtins.OptionalArg},
}}

const decUsage = "uudecode (GNU sharutils) - decode an encoded file\n" +
	"Usage:  uudecode [ -<flag> [<val>] | --<name>[{=| }<val>] ]... [<file>...]\n"

const decHelp = decUsage + `
   -o, --output-file=str      direct output to file
   -c, --ignore-chmod         ignore fchmod(3P) errors
   -v, --version[=MODE]       output version information and exit
   -h, --help                 display extended usage information and exit

Options are specified by doubled hyphens and their name or by a single
hyphen and the flag character.
Operands and options may be intermixed.  They will be reordered.

'uudecode' transforms uuencoded files into their original form.

The encoded file(s) may be specified on the command line, or one may be
read from standard input.  The output file name is specified in the encoded
file, but may be overridden with the '-o' option.  It will have the mode of
the original except that setuid and execute bits are not retained.  If the
output file is specified to be '/dev/stdout' or '-', the result will be
written to standard output.  If there are multiple input files and the
'-o' option has been specified, then the named output file will be
overwritten for each input file.
`

// Decode is the uudecode command.
func Decode(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := decOptions.Parse(c.Args[1:])
	if err != nil {
		return usageError(c, decUsage, "/usr/bin/uudecode: "+illegal(err))
	}
	outName := ""
	for _, o := range opts {
		switch o.Key {
		case "output-file":
			outName = o.Value
		case "help":
			return textfmt.Help(c, decHelp)
		case "version":
			fmt.Fprintf(c.Stdout, "uudecode (GNU sharutils) 4.15.2\n")
			return 0
		}
	}
	if outName != "" && len(operands) > 1 {
		fmt.Fprintf(c.Stderr, "uudecode usage error:\nYou cannot specify an output file when processing\nmultiple input files.\n")
		return usageError(c, decUsage, "")
	}
	if len(operands) == 0 {
		return decodeStream(ctx, c, c.Stdin, "standard input", outName)
	}
	status := 0
	for _, name := range operands {
		f, err := c.Open(name)
		if err != nil {
			c.Errorf("%s: %s", name, builtins.ErrText(err))
			status = max(status, exitNoIn)
			continue
		}
		st := decodeStream(ctx, c, f, name, outName)
		f.Close()
		status = max(status, st)
	}
	return status
}

func fatal(c *builtins.Call, format string, a ...any) int {
	// sharutils ends some of these messages without a newline.
	fmt.Fprintf(c.Stderr, "uudecode fatal error:\n"+format, a...)
	return exitFatal
}

// decodeStream decodes the first encoded file in r.
func decodeStream(ctx context.Context, c *builtins.Call, r io.Reader, label, outName string) int {
	br := bufio.NewReader(r)
	var b64 bool
	var mode int64
	var name string
	for {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			return fatal(c, "%s: Invalid or missing 'begin' line\n", label)
		}
		line = strings.TrimRight(line, "\r\n")
		rest, ok := strings.CutPrefix(line, "begin-base64 ")
		if ok {
			b64 = true
		} else if rest, ok = strings.CutPrefix(line, "begin "); !ok {
			continue
		}
		m, n, ok := strings.Cut(strings.TrimLeft(rest, " "), " ")
		v, perr := strconv.ParseInt(m, 8, 32)
		if !ok || perr != nil {
			continue
		}
		mode, name = v, n
		break
	}
	if outName != "" {
		name = outName
	}
	if name == "/dev/stdout" || name == "-" {
		return decodeBody(ctx, c, br, label, b64, c.Stdout)
	}
	f, err := c.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fs.FileMode(mode)&0o666)
	if err != nil {
		return fatal(c, "fserr %d (%s) performing 'fopen' on %s\n", errno(err), builtins.ErrText(err), name)
	}
	w := bufio.NewWriter(f)
	st := decodeBody(ctx, c, br, label, b64, w)
	werr := w.Flush()
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil && st == 0 {
		return fatal(c, "fserr %d (%s) performing 'write' on %s\n", errno(werr), builtins.ErrText(werr), name)
	}
	c.FS.Chmod(c.Abs(name), fs.FileMode(mode)&0o777&^0o111)
	return st
}

func decodeBody(ctx context.Context, c *builtins.Call, br *bufio.Reader, label string, b64 bool, out io.Writer) int {
	var pending []byte // base64 characters across lines
	for {
		if ctx.Err() != nil {
			return exitFail
		}
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			if b64 {
				return fatal(c, "fserr 2 (No such file or directory) performing '%%s: Short file' on %s\n", label)
			}
			return fatal(c, "%s: Short file\n", label)
		}
		line = strings.TrimRight(line, "\r\n")
		if b64 {
			if line == "====" {
				return 0
			}
			pending = append(pending, line...)
			k := len(pending) - len(pending)%4
			dec := make([]byte, base64.StdEncoding.DecodedLen(k))
			n, derr := base64.StdEncoding.Decode(dec, pending[:k])
			if derr != nil {
				return fatal(c, "%s: invalid input", label)
			}
			out.Write(dec[:n])
			pending = pending[k:]
			continue
		}
		if line == "" {
			continue
		}
		n := int((line[0] - ' ') & 0o77)
		if n == 0 {
			end, err := br.ReadString('\n')
			if strings.TrimRight(end, "\r\n") != "end" || err != nil && end == "" {
				return fatal(c, "%s: No `end' line", label)
			}
			return 0
		}
		body := []byte(line[1:])
		for len(body)%4 != 0 {
			body = append(body, '`')
		}
		var dec []byte
		for i := 0; i+3 < len(body) && len(dec) < n; i += 4 {
			d := func(j int) byte { return (body[i+j] - ' ') & 0o77 }
			dec = append(dec, d(0)<<2|d(1)>>4, d(1)<<4|d(2)>>2, d(2)<<6|d(3))
		}
		if len(dec) < n {
			return fatal(c, "%s: Short file\n", label)
		}
		out.Write(dec[:n])
	}
}
