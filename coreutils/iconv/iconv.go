// Package iconv implements glibc's iconv: convert text between coded
// character sets (golang.org/x/text's charsets plus UTF-16/32 and UCS-2/4
// as glibc reads and writes them), with //TRANSLIT and //IGNORE, -c, -l,
// -o, and glibc's messages and exit statuses.
package iconv

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'f', Long: "from-code", Arg: builtins.RequiredArg},
	{Short: 't', Long: "to-code", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "list"},
	{Short: 'c'},
	{Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Short: 's', Long: "silent"},
	{Long: "verbose"},
	{Short: '?', Long: "help"},
	{Long: "usage"},
	{Short: 'V', Long: "version"},
}}

// usageStatus is argp's exit status for a bad command line.
const usageStatus = 64

type iconv struct {
	ctx      context.Context
	c        *builtins.Call
	from, to *charset
	translit bool
	ignore   bool // //IGNORE: skip, but fail at the end
	omit     bool // -c: skip silently
	out      []byte
}

// Run is the iconv command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "%s: %s\nTry `%s --help' or `%s --usage' for more information.\n", c.Name(), err, c.Name(), c.Name())
		return usageStatus
	}
	ic := &iconv{ctx: ctx, c: c}
	fromName, toName, output := "", "", ""
	for _, o := range opts {
		switch o.Key {
		case "from-code":
			fromName = o.Value
		case "to-code":
			toName = o.Value
		case "c":
			ic.omit = true
		case "output":
			output = o.Value
		case "list":
			ic.list()
			return 0
		case "help":
			io.WriteString(c.Stdout, help)
			return 0
		case "usage":
			io.WriteString(c.Stdout, "Usage: iconv [-cls?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]\n            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]\n            [--help] [--usage] [--version] [FILE...]\n")
			return 0
		case "version":
			fmt.Fprintf(c.Stdout, "iconv (GNU libc) 2.36 (bashbox %s)\n", builtins.ReleaseVersion)
			return 0
		}
	}
	if fromName == "" {
		fromName = ic.localeCharset()
	}
	if toName == "" {
		toName = ic.localeCharset()
	}
	fromBase, _ := splitFlags(fromName)
	toBase, flags := splitFlags(toName)
	ic.translit, ic.ignore = flags["TRANSLIT"], flags["IGNORE"]
	var okFrom, okTo bool
	ic.from, okFrom = lookup(fromBase)
	ic.to, okTo = lookup(toBase)
	if fromBase == "" {
		ic.from, okFrom = lookup(ic.localeCharset())
	}
	if toBase == "" {
		ic.to, okTo = lookup(ic.localeCharset())
	}
	if !okFrom || !okTo {
		fmt.Fprintf(c.Stderr, "%s: failed to start conversion processing: No such file or directory\n", c.Name())
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		data, err := ic.read(name)
		if err != nil {
			if err == builtins.ErrMemory || ctx.Err() != nil {
				status = 1
				break
			}
			fmt.Fprintf(c.Stderr, "%s: cannot open input file `%s': %s\n", c.Name(), name, builtins.ErrText(err))
			status = 1
			continue
		}
		if msg := ic.convert(data); msg != "" {
			ic.flush(output)
			fmt.Fprintf(c.Stderr, "%s: %s\n", c.Name(), msg)
			return 1
		}
	}
	if err := ic.flush(output); err != nil {
		fmt.Fprintf(c.Stderr, "%s: cannot open output file: %s\n", c.Name(), builtins.ErrText(err))
		return 1
	}
	return status
}

func (ic *iconv) read(name string) ([]byte, error) {
	return textio.ReadAll(ic.ctx, ic.c, name)
}

// flush writes the converted text to standard output or the -o file.
func (ic *iconv) flush(output string) error {
	out := ic.out
	ic.out = nil
	if output == "" {
		_, err := ic.c.Stdout.Write(out)
		return err
	}
	f, err := ic.c.Create(output)
	if err != nil {
		return err
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// convert converts one input and returns glibc's message for the error
// that stopped it, or "".
func (ic *iconv) convert(data []byte) string {
	if err := ic.c.Grow(int64(len(data)) * 2); err != nil {
		return "cannot allocate memory"
	}
	i := 0
	if ic.from.detect != nil {
		n, _ := ic.from.detect(data)
		i = n
	}
	if ic.to.bom != nil && len(ic.out) == 0 && len(data) > 0 {
		ic.out = append(ic.out, ic.to.bom...)
	}
	skipped := false
	for i < len(data) {
		if i&0xffff == 0 && ic.ctx.Err() != nil {
			return "interrupted"
		}
		r, n, st := ic.from.decode(data[i:])
		switch st {
		case incomplete:
			return "incomplete character or shift sequence at end of buffer"
		case illegal:
			if ic.omit || ic.ignore {
				skipped = true
				i++
				continue
			}
			return fmt.Sprintf("illegal input sequence at position %d", i)
		}
		var fits bool
		if ic.out, fits = ic.to.encode(ic.out, r); !fits {
			switch {
			case ic.translit:
				rep, _ := translit(ic.to, r)
				ic.out = append(ic.out, rep...)
			case ic.omit || ic.ignore:
				skipped = true
			default:
				return fmt.Sprintf("illegal input sequence at position %d", i)
			}
		}
		i += n
	}
	if skipped && ic.ignore && !ic.omit {
		// glibc reports the skipped characters once the buffer is done.
		return fmt.Sprintf("illegal input sequence at position %d", len(data))
	}
	return ""
}

// splitFlags cuts "NAME//TRANSLIT//IGNORE" into the name and its flags.
func splitFlags(s string) (string, map[string]bool) {
	parts := strings.Split(s, "//")
	flags := map[string]bool{}
	for _, p := range parts[1:] {
		for _, f := range strings.Split(p, ",") {
			flags[strings.ToUpper(f)] = true
		}
	}
	return parts[0], flags
}

// localeCharset is the charset of the sandbox's locale, the default for
// -f and -t.
func (ic *iconv) localeCharset() string {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if val := ic.c.Getenv(v); val != "" {
			l := strings.ToLower(val)
			if strings.Contains(l, "utf-8") || strings.Contains(l, "utf8") {
				return "UTF-8"
			}
			return "ANSI_X3.4-1968"
		}
	}
	return "ANSI_X3.4-1968"
}

// list prints the known charsets as glibc does when the output is not a
// terminal: one name a line, with "//" after it.
func (ic *iconv) list() {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	var b strings.Builder
	for _, n := range sorted {
		b.WriteString(n + "//\n")
	}
	io.WriteString(ic.c.Stdout, b.String())
}
