// Package uniq implements uniq: report or omit repeated lines.
package uniq

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

Mandatory arguments to long options are mandatory for short options too.
  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.

Note: 'uniq' does not detect repeated lines unless they are adjacent.
You may want to sort the input first, or use 'sort -u' without 'uniq'.
`

func options() []builtins.Option {
	list := []builtins.Option{
		{Short: 'c', Long: "count"},
		{Short: 'd', Long: "repeated"},
		{Long: "all-repeated", Arg: builtins.OptionalArg},
		{Long: "group", Arg: builtins.OptionalArg},
		{Short: 'i', Long: "ignore-case"},
		{Short: 'u', Long: "unique"},
		{Short: 'f', Long: "skip-fields", Arg: builtins.RequiredArg},
		{Short: 's', Long: "skip-chars", Arg: builtins.RequiredArg},
		{Short: 'w', Long: "check-chars", Arg: builtins.RequiredArg},
		{Short: 'z', Long: "zero-terminated"},
		{Short: 'D'},
	}
	for d := byte('0'); d <= '9'; d++ {
		list = append(list, builtins.Option{Short: d})
	}
	return list
}

const (
	dmNone = iota
	dmPrepend
	dmSeparate
)

const (
	gmNone = iota
	gmPrepend
	gmAppend
	gmSeparate
	gmBoth
)

type uniq struct {
	c                                 *builtins.Call
	skipFields, skipChars, checkChars uint64
	ignoreCase                        bool
	count                             bool
	outUnique, outFirst, outLater     bool
	delimitGroups                     int
	grouping                          int
	eol                               byte
	w                                 *bufio.Writer
}

// Run is the uniq command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, code, done := textio.Parse(c, options(), help, 1)
	if done {
		return code
	}
	u := &uniq{checkChars: math.MaxUint64, outUnique: true, outFirst: true, eol: '\n'}
	sizeOpt := func(v, msg string) (uint64, bool) {
		n, e := textio.ParseUint(v, "")
		if e == textio.NumInvalid {
			c.Errorf("%s: %s", v, msg)
			return 0, false
		}
		return n, true
	}
	newFields := true // the last skip-fields setting came from -f
	var ok bool
	for _, o := range opts {
		switch o.Key {
		case "count":
			u.count = true
		case "repeated":
			u.outUnique = false
		case "D":
			u.outUnique = false
			u.outLater = true
			u.delimitGroups = dmNone
		case "all-repeated":
			u.outUnique = false
			u.outLater = true
			u.delimitGroups = dmNone
			if o.Has {
				i, ok := argmatch.Get(c, o.Value, "--all-repeated", argmatch.Words([]string{"none", "prepend", "separate"}...), 1)
				if !ok {
					return 1
				}
				u.delimitGroups = []int{dmNone, dmPrepend, dmSeparate}[i]
			}
		case "group":
			u.grouping = gmSeparate
			if o.Has {
				i, ok := argmatch.Get(c, o.Value, "--group", argmatch.Words([]string{"prepend", "append", "separate", "both"}...), 1)
				if !ok {
					return 1
				}
				u.grouping = []int{gmPrepend, gmAppend, gmSeparate, gmBoth}[i]
			}
		case "ignore-case":
			u.ignoreCase = true
		case "unique":
			u.outFirst = false
		case "skip-fields":
			if u.skipFields, ok = sizeOpt(o.Value, "invalid number of fields to skip"); !ok {
				return 1
			}
			newFields = true
		case "skip-chars":
			if u.skipChars, ok = sizeOpt(o.Value, "invalid number of bytes to skip"); !ok {
				return 1
			}
		case "check-chars":
			if u.checkChars, ok = sizeOpt(o.Value, "invalid number of bytes to compare"); !ok {
				return 1
			}
		case "zero-terminated":
			u.eol = 0
		default: // obsolete -N: skip N fields
			if newFields {
				u.skipFields = 0
			}
			newFields = false
			d := uint64(o.Key[0] - '0')
			if u.skipFields > (math.MaxUint64-d)/10 {
				u.skipFields = math.MaxUint64
			} else {
				u.skipFields = u.skipFields*10 + d
			}
		}
	}
	// "+N" operands are the obsolete form of -s N.
	files := operands[:0:0]
	for _, op := range operands {
		if len(op) > 1 && op[0] == '+' {
			if n, e := textio.ParseUint(op, ""); e == textio.NumOK {
				u.skipChars = n
				continue
			}
		}
		files = append(files, op)
	}
	operands = files
	if len(operands) > 2 {
		c.Errorf("extra operand %s", quote.New(c).Q(operands[2]))
		c.TryHelp(0)
		return 1
	}
	if u.grouping != gmNone && !(u.outUnique && u.outFirst && !u.count) {
		c.Errorf("--group is mutually exclusive with -c/-d/-D/-u")
		c.TryHelp(0)
		return 1
	}
	if u.count && u.outLater {
		c.Errorf("printing all duplicated lines and repeat counts is meaningless")
		c.TryHelp(0)
		return 1
	}
	in, out := "-", "-"
	if len(operands) > 0 {
		in = operands[0]
	}
	if len(operands) > 1 {
		out = operands[1]
	}
	r, err := textio.Open(c, in)
	if err != nil {
		c.FileError(quote.UTF8.F(in), err, 1)
		return 1
	}
	defer r.Close()
	var dst io.Writer = c.Stdout
	if out != "-" {
		f, err := c.Create(out)
		if err != nil {
			c.FileError(quote.UTF8.F(out), err, 1)
			return 1
		}
		defer f.Close()
		dst = f
	}
	u.w = textio.NewWriter(dst)
	u.c = c
	err = u.run(ctx, textio.NewReader(r))
	if err != nil {
		if textio.IsWrite(err) {
			return textio.WriteFailed(c, err)
		}
		u.w.Flush()
		if ctx.Err() != nil {
			return 1
		}
		c.Errorf("error reading %s", quote.UTF8.AF(in))
		return 1
	}
	return textio.Finish(c, u.w, 0)
}

// lineReader yields lines with their terminator, adding one to an
// unterminated last line.
type lineReader struct {
	ctx context.Context
	c   *builtins.Call
	r   *bufio.Reader
	eol byte
	err error
}

func (lr *lineReader) next(buf []byte) ([]byte, bool) {
	buf, err := textio.AppendRecord(lr.ctx, lr.c, lr.r, buf[:0], lr.eol)
	if err != nil {
		if err != io.EOF {
			lr.err = err
			return buf, false
		}
		if len(buf) == 0 {
			return buf, false
		}
		buf = append(buf, lr.eol)
	}
	return buf, true
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

// field returns the compared part of line (terminator excluded).
func (u *uniq) field(line []byte) []byte {
	p := line[:len(line)-1]
	i := 0
	for n := uint64(0); n < u.skipFields && i < len(p); n++ {
		for i < len(p) && isBlank(p[i]) {
			i++
		}
		for i < len(p) && !isBlank(p[i]) {
			i++
		}
	}
	if rest := uint64(len(p) - i); u.skipChars < rest {
		i += int(u.skipChars)
	} else {
		i = len(p)
	}
	return p[i:]
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 32
	}
	return b
}

func (u *uniq) different(a, b []byte) bool {
	if uint64(len(a)) > u.checkChars {
		a = a[:u.checkChars]
	}
	if uint64(len(b)) > u.checkChars {
		b = b[:u.checkChars]
	}
	if len(a) != len(b) {
		return true
	}
	if u.ignoreCase {
		for i := range a {
			if upper(a[i]) != upper(b[i]) {
				return true
			}
		}
		return false
	}
	return string(a) != string(b)
}

func (u *uniq) writeLine(line []byte, match bool, count uint64) error {
	var want bool
	switch {
	case count == 0:
		want = u.outUnique
	case !match:
		want = u.outFirst
	default:
		want = u.outLater
	}
	if !want {
		return nil
	}
	if u.count {
		fmt.Fprintf(u.w, "%7d ", count+1)
	}
	if _, err := u.w.Write(line); err != nil {
		return &textio.ErrWrite{Err: err}
	}
	return nil
}

func (u *uniq) run(ctx context.Context, r *bufio.Reader) error {
	lr := &lineReader{ctx: ctx, c: u.c, r: r, eol: u.eol}
	var prev, this []byte
	var ok bool
	if u.outUnique && u.outFirst && !u.count {
		var prevField []byte
		havePrev := false
		firstPrinted := false
		for n := 0; ; n++ {
			if n&1023 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			this, ok = lr.next(this)
			if !ok {
				break
			}
			f := u.field(this)
			newGroup := !havePrev || u.different(f, prevField)
			if newGroup && u.grouping != gmNone && (u.grouping == gmPrepend || u.grouping == gmBoth ||
				(firstPrinted && (u.grouping == gmAppend || u.grouping == gmSeparate))) {
				u.w.WriteByte(u.eol)
			}
			if newGroup || u.grouping != gmNone {
				if _, err := u.w.Write(this); err != nil {
					return &textio.ErrWrite{Err: err}
				}
				prev, this = this, prev
				prevField = f
				havePrev = true
				firstPrinted = true
			}
		}
		if (u.grouping == gmBoth || u.grouping == gmAppend) && firstPrinted {
			u.w.WriteByte(u.eol)
		}
		return lr.err
	}
	prev, ok = lr.next(prev)
	if !ok {
		return lr.err
	}
	prevField := u.field(prev)
	var matchCount uint64
	firstDelimiter := true
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		this, ok = lr.next(this)
		if !ok {
			if lr.err != nil {
				return lr.err
			}
			break
		}
		f := u.field(this)
		match := !u.different(f, prevField)
		if match {
			matchCount++
		}
		if u.delimitGroups != dmNone {
			if !match {
				if matchCount > 0 {
					firstDelimiter = false
				}
			} else if matchCount == 1 {
				if u.delimitGroups == dmPrepend || (u.delimitGroups == dmSeparate && !firstDelimiter) {
					u.w.WriteByte(u.eol)
				}
			}
		}
		if !match || u.outLater {
			if err := u.writeLine(prev, match, matchCount); err != nil {
				return err
			}
			prev, this = this, prev
			prevField = f
			if !match {
				matchCount = 0
			}
		}
	}
	return u.writeLine(prev, false, matchCount)
}
