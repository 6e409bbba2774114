// Package cut implements cut: remove sections from each line of files.
package cut

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fieldlist"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
`

var options = []builtins.Option{
	{Short: 'b', Long: "bytes", Arg: builtins.RequiredArg},
	{Short: 'c', Long: "characters", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "fields", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "delimiter", Arg: builtins.RequiredArg},
	{Short: 's', Long: "only-delimited"},
	{Long: "output-delimiter", Arg: builtins.RequiredArg},
	{Long: "complement"},
	{Short: 'z', Long: "zero-terminated"},
	{Short: 'n'},
}

type rng = fieldlist.Range

type cutter struct {
	fields      bool
	ranges      []rng // sorted, merged, ending with a {MaxUint64, MaxUint64} sentinel
	delim       byte
	outDelim    []byte
	outDelimSet bool
	suppress    bool
	eol         byte
	w           *bufio.Writer
}

// Run is the cut command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	fail := func(msg string) int {
		c.Errorf("%s", msg)
		c.TryHelp(0)
		return 1
	}
	cu := &cutter{delim: '\t', eol: '\n'}
	mode := 0 // 0 undefined, 1 bytes/chars, 2 fields
	list := ""
	delimSet := false
	complement := false
	for _, o := range opts {
		switch o.Key {
		case "bytes", "characters", "fields":
			if mode != 0 {
				return fail("only one list may be specified")
			}
			mode = 1
			if o.Key == "fields" {
				mode = 2
			}
			list = o.Value
		case "delimiter":
			if len(o.Value) > 1 {
				return fail("the delimiter must be a single character")
			}
			cu.delim = 0
			if o.Value != "" {
				cu.delim = o.Value[0]
			}
			delimSet = true
		case "only-delimited":
			cu.suppress = true
		case "output-delimiter":
			cu.outDelim = []byte(o.Value)
			if o.Value == "" {
				cu.outDelim = []byte{0}
			}
			cu.outDelimSet = true
		case "complement":
			complement = true
		case "zero-terminated":
			cu.eol = 0
		}
	}
	switch {
	case mode == 0:
		return fail("you must specify a list of bytes, characters, or fields")
	case delimSet && mode != 2:
		return fail("an input delimiter may be specified only when operating on fields")
	case cu.suppress && mode != 2:
		return fail("suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	cu.fields = mode == 2
	ranges, msg := setFields(c, list, !cu.fields, complement)
	if msg != "" {
		return fail(msg)
	}
	cu.ranges = ranges
	if cu.fields && !cu.outDelimSet {
		cu.outDelim = []byte{cu.delim}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	cu.w = textio.NewWriter(c.Stdout)
	status := 0
	for _, name := range files {
		if ctx.Err() != nil {
			return textio.Finish(c, cu.w, 1)
		}
		r, err := textio.Open(c, name)
		if err != nil {
			status = c.FileError(quote.UTF8.F(name), err, 1)
			continue
		}
		br := textio.NewReader(r)
		switch {
		case !cu.fields:
			err = cu.cutLines(ctx, br, cu.bytesLine)
		case cu.delim == cu.eol:
			err = cu.cutFieldsStream(ctx, br)
		default:
			err = cu.cutLines(ctx, br, cu.fieldsLine)
		}
		r.Close()
		if err != nil {
			if textio.IsWrite(err) {
				return textio.WriteFailed(c, err)
			}
			if ctx.Err() != nil {
				return textio.Finish(c, cu.w, 1)
			}
			status = c.FileError(quote.UTF8.F(name), err, 1)
		}
	}
	return textio.Finish(c, cu.w, status)
}

// setFields parses a LIST and appends the {MaxUint64, MaxUint64}
// sentinel the line loops stop at.
func setFields(c *builtins.Call, s string, pos, complement bool) ([]rng, string) {
	rs, msg := fieldlist.Parse(s, pos, complement, quote.New(c).Q)
	if msg != "" {
		return nil, msg
	}
	return append(rs, rng{Lo: math.MaxUint64, Hi: math.MaxUint64}), ""
}

func (cu *cutter) selected(k uint64) bool { return fieldlist.Contains(cu.ranges, k) }

// cutLines calls fn for each line (without its terminator).
func (cu *cutter) cutLines(ctx context.Context, br *bufio.Reader, fn func(line []byte) bool) error {
	var long []byte
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		frag, err := br.ReadSlice(cu.eol)
		if err == bufio.ErrBufferFull {
			long = append(long, frag...)
			continue
		}
		line := frag
		if len(long) > 0 {
			long = append(long, frag...)
			line = long
		}
		if len(line) > 0 {
			if line[len(line)-1] == cu.eol && err == nil {
				line = line[:len(line)-1]
			}
			if fn(line) {
				if _, werr := cu.w.Write([]byte{cu.eol}); werr != nil {
					return &textio.ErrWrite{Err: werr}
				}
			}
		}
		long = long[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (cu *cutter) bytesLine(line []byte) bool {
	n := uint64(len(line))
	printed := false
	for _, r := range cu.ranges {
		if r.Lo > n {
			break
		}
		hi := r.Hi
		if hi > n {
			hi = n
		}
		if printed && cu.outDelimSet {
			cu.w.Write(cu.outDelim)
		}
		cu.w.Write(line[r.Lo-1 : hi])
		printed = true
	}
	return true
}

// fieldsLine handles one line when the delimiter is not the line
// terminator. Lines without a delimiter are printed whole unless -s.
func (cu *cutter) fieldsLine(line []byte) bool {
	if bytes.IndexByte(line, cu.delim) < 0 {
		if cu.suppress {
			return false
		}
		cu.w.Write(line)
		return true
	}
	idx := uint64(1)
	ri := 0
	printed := false
	for {
		i := bytes.IndexByte(line, cu.delim)
		field := line
		if i >= 0 {
			field = line[:i]
		}
		for idx > cu.ranges[ri].Hi {
			ri++
		}
		if idx >= cu.ranges[ri].Lo {
			if printed {
				cu.w.Write(cu.outDelim)
			}
			cu.w.Write(field)
			printed = true
		}
		if i < 0 {
			return true
		}
		line = line[i+1:]
		idx++
		if cu.ranges[ri].Lo == math.MaxUint64 {
			return true // nothing more can be selected
		}
	}
}

// cutFieldsStream is GNU's cut_fields, byte by byte, for the case where
// the field delimiter is also the line terminator.
func (cu *cutter) cutFieldsStream(ctx context.Context, br *bufio.Reader) error {
	if _, err := br.Peek(1); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	w := cu.w
	const eof = -1
	getc := func() int {
		b, err := br.ReadByte()
		if err != nil {
			return eof
		}
		return int(b)
	}
	delim, eol := int(cu.delim), int(cu.eol)
	fieldIdx := uint64(1)
	found := false
	bufferFirst := cu.suppress != !cu.selected(1)
	ch := 0
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if fieldIdx == 1 && bufferFirst {
			var field []byte
			for {
				c := getc()
				if c == eof {
					break
				}
				field = append(field, byte(c))
				if c == delim || c == eol {
					break
				}
			}
			if len(field) == 0 {
				break
			}
			ch = 0
			if int(field[len(field)-1]) != delim {
				if !cu.suppress {
					w.Write(field)
					if int(field[len(field)-1]) != eol {
						w.WriteByte(byte(eol))
					}
					ch = eol
				}
				continue
			}
			if cu.selected(1) {
				w.Write(field[:len(field)-1])
				if delim == eol {
					if _, err := br.Peek(1); err == nil {
						found = true
					}
				} else {
					found = true
				}
			}
			fieldIdx++
		}
		prev := ch
		if cu.selected(fieldIdx) {
			if found {
				w.Write(cu.outDelim)
			}
			found = true
			for {
				ch = getc()
				if ch == delim || ch == eol || ch == eof {
					break
				}
				w.WriteByte(byte(ch))
				prev = ch
			}
		} else {
			for {
				ch = getc()
				if ch == delim || ch == eol || ch == eof {
					break
				}
				prev = ch
			}
		}
		if delim == eol && ch == delim {
			if _, err := br.Peek(1); err != nil {
				ch = eof
			}
		}
		if ch == delim {
			fieldIdx++
		} else if ch == eol || ch == eof {
			if found || !(cu.suppress && fieldIdx == 1) {
				if ch == eol || prev != eol || delim == eol {
					w.WriteByte(byte(eol))
				}
			}
			if ch == eof {
				break
			}
			fieldIdx = 1
			found = false
		}
	}
	if _, err := w.Write(nil); err != nil {
		return &textio.ErrWrite{Err: err}
	}
	return nil
}
