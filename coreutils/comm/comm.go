// Package comm implements comm: compare two sorted files line by line.
package comm

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

      --check-order       check that the input is correctly sorted, even
                            if all input lines are pairable
      --nocheck-order     do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total             output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Note, comparisons honor the rules specified by 'LC_COLLATE'.

Examples:
  comm -12 file1 file2  Print only lines present in both file1 and file2.
  comm -3 file1 file2  Print lines in file1 not in file2, and vice versa.
`

var options = []builtins.Option{
	{Long: "check-order"},
	{Long: "nocheck-order"},
	{Long: "output-delimiter", Arg: builtins.RequiredArg},
	{Long: "total"},
	{Short: 'z', Long: "zero-terminated"},
	{Short: '1'},
	{Short: '2'},
	{Short: '3'},
}

const (
	checkDefault = iota
	checkEnabled
	checkDisabled
)

type reader struct {
	name string
	r    *bufio.Reader
	eol  byte
}

// next returns the next line with its terminator (added when missing),
// or nil at end of input.
func (rd *reader) next(buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		frag, err := rd.r.ReadSlice(rd.eol)
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(buf) == 0 {
				return nil, nil
			}
			return append(buf, rd.eol), nil
		}
		return buf, err
	}
}

// Run is the comm command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	var show = [4]bool{false, true, true, true}
	check := checkDefault
	var delim []byte
	delimSet := false
	total := false
	var eol byte = '\n'
	for _, o := range opts {
		switch o.Key {
		case "1", "2", "3":
			show[o.Key[0]-'0'] = false
		case "check-order":
			check = checkEnabled
		case "nocheck-order":
			check = checkDisabled
		case "output-delimiter":
			d := []byte(o.Value)
			if len(d) == 0 {
				d = []byte{0}
			}
			if delimSet && !bytes.Equal(d, delim) {
				c.Errorf("multiple output delimiters specified")
				return 1
			}
			delim, delimSet = d, true
		case "total":
			total = true
		case "zero-terminated":
			eol = 0
		}
	}
	if !delimSet {
		delim = []byte{'\t'}
	}
	switch len(operands) {
	case 0:
		c.Errorf("missing operand")
		c.TryHelp(0)
		return 1
	case 1:
		c.Errorf("missing operand after %s", quote.New(c).Q(operands[0]))
		c.TryHelp(0)
		return 1
	case 2:
	default:
		c.Errorf("extra operand %s", quote.New(c).Q(operands[2]))
		c.TryHelp(0)
		return 1
	}
	var rds [2]*reader
	var stdin *bufio.Reader
	for i, name := range operands {
		var br *bufio.Reader
		if name == "-" {
			if stdin == nil {
				stdin = textio.NewReader(textio.Stdin(c))
			}
			br = stdin
		} else {
			f, err := c.Open(name)
			if err != nil {
				c.FileError(quote.UTF8.F(name), err, 1)
				return 1
			}
			defer f.Close()
			br = textio.NewReader(f)
		}
		rds[i] = &reader{name: name, r: br, eol: eol}
	}
	w := textio.NewWriter(c.Stdout)
	var this, prev [2][]byte
	var err error
	for i := 0; i < 2; i++ {
		if this[i], err = rds[i].next(nil); err != nil {
			w.Flush()
			return c.FileError(quote.UTF8.F(rds[i].name), err, 1)
		}
	}
	var counts [4]uint64
	seenUnpairable := false
	warned := [2]bool{}
	col := func(n int, line []byte) {
		counts[n]++
		if !show[n] {
			return
		}
		if n >= 2 && show[1] {
			w.Write(delim)
		}
		if n == 3 && show[2] {
			w.Write(delim)
		}
		w.Write(line)
	}
	for iter := 0; this[0] != nil || this[1] != nil; iter++ {
		if iter&1023 == 0 && ctx.Err() != nil {
			return textio.Finish(c, w, 1)
		}
		var order int
		switch {
		case this[0] == nil:
			order = 1
		case this[1] == nil:
			order = -1
		default:
			order = bytes.Compare(this[0][:len(this[0])-1], this[1][:len(this[1])-1])
		}
		fill := [2]bool{}
		if order == 0 {
			col(3, this[0])
			fill = [2]bool{true, true}
		} else {
			seenUnpairable = true
			if order < 0 {
				col(1, this[0])
				fill[0] = true
			} else {
				col(2, this[1])
				fill[1] = true
			}
		}
		for i := 0; i < 2; i++ {
			if !fill[i] {
				continue
			}
			prev[i], this[i] = this[i], prev[i]
			if this[i], err = rds[i].next(this[i]); err != nil {
				w.Flush()
				return c.FileError(quote.UTF8.F(rds[i].name), err, 1)
			}
			if this[i] == nil || check == checkDisabled || !(check == checkEnabled || seenUnpairable) || warned[i] {
				continue
			}
			if bytes.Compare(prev[i][:len(prev[i])-1], this[i][:len(this[i])-1]) > 0 {
				if err := w.Flush(); err != nil {
					return textio.WriteFailed(c, err)
				}
				c.Errorf("file %d is not in sorted order", i+1)
				if check == checkEnabled {
					return 1
				}
				warned[i] = true
			}
		}
		if _, err := w.Write(nil); err != nil {
			return textio.WriteFailed(c, err)
		}
	}
	if total {
		for i := 1; i <= 3; i++ {
			w.WriteString(strconv.FormatUint(counts[i], 10))
			w.Write(delim)
		}
		w.WriteString("total")
		w.WriteByte(eol)
	}
	if warned[0] || warned[1] {
		if err := w.Flush(); err != nil {
			return textio.WriteFailed(c, err)
		}
		c.Errorf("input is not in sorted order")
		return 1
	}
	return textio.Finish(c, w, 0)
}
