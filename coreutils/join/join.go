// Package join implements join: join lines of two files on a common field.
package join

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM             also print unpairable lines from file FILENUM, where
                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING              replace missing (empty) input fields with STRING;
                           I.e., missing fields specified with '-12jo' options
  -i, --ignore-case      ignore differences in case when comparing fields
  -j FIELD               equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT              obey FORMAT while constructing output line
  -t CHAR                use CHAR as input and output field separator
  -v FILENUM             like -a FILENUM, but suppress joined output lines
  -1 FIELD               join on this FIELD of file 1
  -2 FIELD               join on this FIELD of file 2
      --check-order      check that the input is correctly sorted, even
                           if all input lines are pairable
      --nocheck-order    do not check that the input is correctly sorted
      --header           treat the first line in each file as field headers,
                           print them without trying to pair them
  -z, --zero-terminated  line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
E.g., use "sort -k 1b,1" if 'join' has no options,
or use "join -t ''" if 'sort' has no options.
Note, comparisons honor the rules specified by 'LC_COLLATE'.
If the input is not sorted and some lines cannot be joined, a
warning message will be given.
`

var options = []builtins.Option{
	{Short: 'i', Long: "ignore-case"},
	{Long: "check-order"},
	{Long: "nocheck-order"},
	{Short: 'z', Long: "zero-terminated"},
	{Long: "header"},
	{Short: 'a', Arg: builtins.RequiredArg},
	{Short: 'e', Arg: builtins.RequiredArg},
	{Short: '1', Arg: builtins.RequiredArg},
	{Short: '2', Arg: builtins.RequiredArg},
	{Short: 'j', Arg: builtins.RequiredArg},
	{Short: 'o', Arg: builtins.RequiredArg},
	{Short: 't', Arg: builtins.RequiredArg},
	{Short: 'v', Arg: builtins.RequiredArg},
}

const unset = math.MaxInt

const (
	checkDefault = iota
	checkEnabled
	checkDisabled
)

// Operand statuses, for the historical "-j1 FIELD" and "-o LIST..." forms.
const (
	mustBeOperand = iota
	mightBeJ1
	mightBeJ2
	mightBeO
)

type outSpec struct{ file, field int }

type line struct {
	buf    []byte
	fields [][]byte
}

type joiner struct {
	c              *builtins.Call
	tab            int // -1: blanks; '\n': whole line; else the byte
	eol            byte
	ignoreCase     bool
	empty          *string
	jf             [2]int
	unpairable     [2]bool
	pairables      bool
	outlist        []outSpec
	auto           bool
	autocount      [2]int
	check          int
	header         bool
	seenUnpairable bool
	warned         [2]bool
	prev           [2]*line
	lineNo         [2]uint64
	names          [2]string
	rd             [2]*bufio.Reader
	w              *bufio.Writer
}

type fatalErr struct{ code int }

func (e *fatalErr) Error() string { return "fatal" }

// Run is the join command.
func Run(ctx context.Context, c *builtins.Call) int {
	j := &joiner{c: c, tab: -1, eol: '\n', jf: [2]int{unset, unset}, pairables: true}
	fail := func(format string, a ...any) int {
		c.Errorf(format, a...)
		return 1
	}
	var names [2]string
	var status [2]int
	nfiles := 0
	var jcount [2]int
	prevStatus := mustBeOperand

	setJoinField := func(i int, v int) bool {
		if j.jf[i] != unset && j.jf[i] != v {
			fail("incompatible join fields %d, %d", j.jf[i]+1, v+1)
			return false
		}
		j.jf[i] = v
		return true
	}
	joinField := func(s string) (int, bool) {
		n, e := textio.ParseUint(s, "")
		if e == textio.NumOverflow || (e == textio.NumOK && n > math.MaxInt32) {
			return math.MaxInt32 - 1, true
		}
		if e != textio.NumOK || n == 0 {
			fail("invalid field number: %s", quote.New(c).Q(s))
			return 0, false
		}
		return int(n - 1), true
	}
	addFieldList := func(s string) bool {
		items := splitSpecs(s)
		for _, it := range items {
			switch {
			case it == "0":
				j.outlist = append(j.outlist, outSpec{0, 0})
			case len(it) > 0 && (it[0] == '1' || it[0] == '2'):
				if len(it) < 2 || it[1] != '.' {
					fail("invalid field specifier: %s", quote.New(c).Q(it))
					return false
				}
				f, ok := joinField(it[2:])
				if !ok {
					return false
				}
				j.outlist = append(j.outlist, outSpec{int(it[0] - '0'), f})
			case len(it) > 0 && it[0] == '0':
				fail("invalid field specifier: %s", quote.New(c).Q(it))
				return false
			default:
				fail("invalid file number in field spec: %s", quote.New(c).Q(it))
				return false
			}
		}
		return true
	}
	addFileName := func(name string, optcStatus *int) bool {
		n := nfiles
		if n == 2 {
			op0 := 0
			if status[0] == mustBeOperand {
				op0 = 1
			}
			arg := names[op0]
			switch status[op0] {
			case mustBeOperand:
				c.Errorf("extra operand %s", quote.UTF8.AF(name))
				c.TryHelp(0)
				return false
			case mightBeJ1:
				jcount[0]--
				f, ok := joinField(arg)
				if !ok || !setJoinField(0, f) {
					return false
				}
			case mightBeJ2:
				jcount[1]--
				f, ok := joinField(arg)
				if !ok || !setJoinField(1, f) {
					return false
				}
			case mightBeO:
				if !addFieldList(arg) {
					return false
				}
			}
			if op0 == 0 {
				status[0] = status[1]
				names[0] = names[1]
			}
			n = 1
		}
		status[n] = prevStatus
		names[n] = name
		nfiles = n + 1
		if prevStatus == mightBeO {
			*optcStatus = mightBeO
		}
		return true
	}

	set := builtins.Options{List: options, StopAtOperand: true}
	args := c.Args[1:]
	afterDashes := false
	for len(args) > 0 {
		sub := *c
		sub.Args = append([]string{c.Args[0]}, args...)
		opts, rest, code, done := textio.ParseWith(&sub, set, help, 1)
		if done {
			return code
		}
		chunk := args[:len(args)-len(rest)]
		if len(chunk) > 0 && chunk[len(chunk)-1] == "--" {
			afterDashes = true
		}
		for _, o := range opts {
			optcStatus := mustBeOperand
			switch o.Key {
			case "v", "a":
				if o.Key == "v" {
					j.pairables = false
				}
				n, e := textio.ParseUint(o.Value, "")
				if e != textio.NumOK || (n != 1 && n != 2) {
					return fail("invalid field number: %s", quote.New(c).Q(o.Value))
				}
				j.unpairable[n-1] = true
			case "e":
				if j.empty != nil && *j.empty != o.Value {
					return fail("conflicting empty-field replacement strings")
				}
				v := o.Value
				j.empty = &v
			case "ignore-case":
				j.ignoreCase = true
			case "1", "2":
				f, ok := joinField(o.Value)
				if !ok || !setJoinField(int(o.Key[0]-'1'), f) {
					return 1
				}
			case "j":
				if (o.Value == "1" || o.Value == "2") && attached(chunk, o.Value) {
					isJ2 := 0
					if o.Value == "2" {
						isJ2 = 1
					}
					jcount[isJ2]++
					optcStatus = mightBeJ1 + isJ2
				} else {
					f, ok := joinField(o.Value)
					if !ok || !setJoinField(0, f) || !setJoinField(1, j.jf[0]) {
						return 1
					}
				}
			case "o":
				if o.Value == "auto" {
					j.auto = true
				} else {
					if !addFieldList(o.Value) {
						return 1
					}
					optcStatus = mightBeO
				}
			case "t":
				var newtab int
				switch {
				case o.Value == "":
					newtab = '\n'
				case len(o.Value) == 1:
					newtab = int(o.Value[0])
				case o.Value == `\0`:
					newtab = 0
				default:
					return fail("multi-character tab %s", quote.New(c).Q(o.Value))
				}
				if j.tab >= 0 && j.tab != newtab {
					return fail("incompatible tabs")
				}
				j.tab = newtab
			case "nocheck-order":
				j.check = checkDisabled
			case "check-order":
				j.check = checkEnabled
			case "header":
				j.header = true
			case "zero-terminated":
				j.eol = 0
			}
			prevStatus = optcStatus
		}
		if len(rest) == 0 {
			break
		}
		if afterDashes {
			prevStatus = mustBeOperand
			for _, name := range rest {
				var st int
				if !addFileName(name, &st) {
					return 1
				}
			}
			break
		}
		optcStatus := mustBeOperand
		if !addFileName(rest[0], &optcStatus) {
			return 1
		}
		prevStatus = optcStatus
		args = rest[1:]
	}
	if nfiles != 2 {
		if nfiles == 0 {
			c.Errorf("missing operand")
		} else {
			c.Errorf("missing operand after %s", quote.New(c).Q(c.Args[len(c.Args)-1]))
		}
		c.TryHelp(0)
		return 1
	}
	for i := 0; i < 2; i++ {
		if jcount[i] != 0 {
			if !setJoinField(0, i) || !setJoinField(1, i) {
				return 1
			}
		}
	}
	for i := range j.jf {
		if j.jf[i] == unset {
			j.jf[i] = 0
		}
	}
	j.names = names
	if names[0] == "-" && names[1] == "-" {
		return fail("both files cannot be standard input: No such file or directory")
	}
	for i, name := range names {
		if name == "-" {
			j.rd[i] = textio.NewReader(textio.Stdin(c))
			continue
		}
		f, err := c.Open(name)
		if err != nil {
			return c.FileError(quote.UTF8.F(name), err, 1)
		}
		defer f.Close()
		j.rd[i] = textio.NewReader(f)
	}
	j.w = textio.NewWriter(c.Stdout)
	err := j.join(ctx)
	if err != nil {
		var fe *fatalErr
		if textio.IsWrite(err) {
			return textio.WriteFailed(c, err)
		}
		if ferr := j.w.Flush(); ferr != nil {
			return textio.WriteFailed(c, ferr)
		}
		if asFatal(err, &fe) {
			return fe.code
		}
		return 1
	}
	if err := j.w.Flush(); err != nil {
		return textio.WriteFailed(c, err)
	}
	if j.warned[0] || j.warned[1] {
		return fail("input is not in sorted order")
	}
	return 0
}

func asFatal(err error, fe **fatalErr) bool {
	f, ok := err.(*fatalErr)
	if ok {
		*fe = f
	}
	return ok
}

// attached reports whether a -j option's value was attached ("-j1")
// rather than a separate argument.
func attached(chunk []string, val string) bool {
	for _, a := range chunk {
		if len(a) >= 3 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "j"+val) {
			return true
		}
	}
	return false
}

// splitSpecs splits an -o list at commas and blanks, keeping empty items
// as GNU's strpbrk loop does.
func splitSpecs(s string) []string {
	var out []string
	for {
		i := strings.IndexAny(s, ", \t")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// fields splits a line (without terminator) as GNU's xfields does.
func (j *joiner) split(l *line) {
	l.fields = l.fields[:0]
	p := l.buf
	if len(p) == 0 {
		return
	}
	switch {
	case j.tab >= 0 && j.tab != '\n':
		for {
			i := bytes.IndexByte(p, byte(j.tab))
			if i < 0 {
				break
			}
			l.fields = append(l.fields, p[:i])
			p = p[i+1:]
		}
	case j.tab < 0:
		i := 0
		for i < len(p) && isBlank(p[i]) {
			i++
		}
		if i == len(p) {
			return
		}
		for {
			k := i + 1
			for k < len(p) && !isBlank(p[k]) {
				k++
			}
			l.fields = append(l.fields, p[i:k])
			if k == len(p) {
				return
			}
			i = k + 1
			for i < len(p) && isBlank(p[i]) {
				i++
			}
			if i == len(p) {
				break
			}
		}
		p = p[i:]
	}
	l.fields = append(l.fields, p)
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 32
	}
	return b
}

func (j *joiner) keycmp(l1, l2 *line, jf1, jf2 int) int {
	var b1, b2 []byte
	if jf1 < len(l1.fields) {
		b1 = l1.fields[jf1]
	}
	if jf2 < len(l2.fields) {
		b2 = l2.fields[jf2]
	}
	if len(b1) == 0 {
		if len(b2) == 0 {
			return 0
		}
		return -1
	}
	if len(b2) == 0 {
		return 1
	}
	if j.ignoreCase {
		n := min(len(b1), len(b2))
		for i := 0; i < n; i++ {
			if d := int(upper(b1[i])) - int(upper(b2[i])); d != 0 {
				return d
			}
		}
		return len(b1) - len(b2)
	}
	return bytes.Compare(b1, b2)
}

// getLine reads the next line of file which (0 or 1); nil at EOF.
func (j *joiner) getLine(which int) (*line, error) {
	var buf []byte
	for {
		frag, err := j.rd[which].ReadSlice(j.eol)
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			j.c.Errorf("read error: %s", builtins.ErrText(err))
			return nil, &fatalErr{1}
		}
		if len(buf) == 0 {
			return nil, nil
		}
		break
	}
	if buf[len(buf)-1] == j.eol {
		buf = buf[:len(buf)-1]
	}
	l := &line{buf: buf}
	j.split(l)
	j.lineNo[which]++
	if p := j.prev[which]; p != nil && j.check != checkDisabled && (j.check == checkEnabled || j.seenUnpairable) && !j.warned[which] {
		if j.keycmp(p, l, j.jf[which], j.jf[which]) > 0 {
			if err := j.w.Flush(); err != nil {
				return nil, &textio.ErrWrite{Err: err}
			}
			j.c.Errorf("%s:%d: is not sorted: %s", quote.UTF8.F(j.names[which]), j.lineNo[which], l.buf)
			if j.check == checkEnabled {
				return nil, &fatalErr{1}
			}
			j.warned[which] = true
		}
	}
	j.prev[which] = l
	return l, nil
}

var blank = &line{}

func (j *joiner) sep() byte {
	if j.tab < 0 {
		return ' '
	}
	return byte(j.tab)
}

func (j *joiner) prfield(n int, l *line) {
	if n < len(l.fields) && len(l.fields[n]) > 0 {
		j.w.Write(l.fields[n])
	} else if j.empty != nil {
		j.w.WriteString(*j.empty)
	}
}

func (j *joiner) prfields(l *line, jf, autocount int) {
	n := len(l.fields)
	if j.auto {
		n = autocount
	}
	sep := j.sep()
	for i := 0; i < jf && i < n; i++ {
		j.w.WriteByte(sep)
		j.prfield(i, l)
	}
	for i := jf + 1; i < n; i++ {
		j.w.WriteByte(sep)
		j.prfield(i, l)
	}
}

func (j *joiner) prjoin(l1, l2 *line) error {
	sep := j.sep()
	if len(j.outlist) > 0 {
		for i, o := range j.outlist {
			if i > 0 {
				j.w.WriteByte(sep)
			}
			l, f := l1, o.field
			switch {
			case o.file == 0 && l1 == blank:
				l, f = l2, j.jf[1]
			case o.file == 0:
				l, f = l1, j.jf[0]
			case o.file == 2:
				l = l2
			}
			j.prfield(f, l)
		}
	} else {
		if l1 == blank {
			j.prfield(j.jf[1], l2)
		} else {
			j.prfield(j.jf[0], l1)
		}
		j.prfields(l1, j.jf[0], j.autocount[0])
		j.prfields(l2, j.jf[1], j.autocount[1])
	}
	if err := j.w.WriteByte(j.eol); err != nil {
		return &textio.ErrWrite{Err: err}
	}
	return nil
}

func (j *joiner) join(ctx context.Context) error {
	var seq [2][]*line
	advance := func(which int, first bool) (bool, error) {
		if first {
			seq[which] = seq[which][:0]
		}
		l, err := j.getLine(which)
		if err != nil || l == nil {
			return false, err
		}
		seq[which] = append(seq[which], l)
		return true, nil
	}
	for i := 0; i < 2; i++ {
		if _, err := advance(i, false); err != nil {
			return err
		}
	}
	if j.auto {
		for i := 0; i < 2; i++ {
			if len(seq[i]) > 0 {
				j.autocount[i] = len(seq[i][0].fields)
			}
		}
	}
	if j.header && (len(seq[0]) > 0 || len(seq[1]) > 0) {
		h1, h2 := blank, blank
		if len(seq[0]) > 0 {
			h1 = seq[0][0]
		}
		if len(seq[1]) > 0 {
			h2 = seq[1][0]
		}
		if err := j.prjoin(h1, h2); err != nil {
			return err
		}
		j.prev = [2]*line{}
		for i := 0; i < 2; i++ {
			if len(seq[i]) > 0 {
				if _, err := advance(i, true); err != nil {
					return err
				}
			}
		}
	}
	for n := 0; len(seq[0]) > 0 && len(seq[1]) > 0; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return &fatalErr{1}
		}
		diff := j.keycmp(seq[0][0], seq[1][0], j.jf[0], j.jf[1])
		if diff < 0 {
			if j.unpairable[0] {
				if err := j.prjoin(seq[0][0], blank); err != nil {
					return err
				}
			}
			if _, err := advance(0, true); err != nil {
				return err
			}
			j.seenUnpairable = true
			continue
		}
		if diff > 0 {
			if j.unpairable[1] {
				if err := j.prjoin(blank, seq[1][0]); err != nil {
					return err
				}
			}
			if _, err := advance(1, true); err != nil {
				return err
			}
			j.seenUnpairable = true
			continue
		}
		var eof [2]bool
		for {
			ok, err := advance(0, false)
			if err != nil {
				return err
			}
			if !ok {
				eof[0] = true
				seq[0] = append(seq[0], nil)
				break
			}
			if j.keycmp(seq[0][len(seq[0])-1], seq[1][0], j.jf[0], j.jf[1]) != 0 {
				break
			}
		}
		for {
			ok, err := advance(1, false)
			if err != nil {
				return err
			}
			if !ok {
				eof[1] = true
				seq[1] = append(seq[1], nil)
				break
			}
			if j.keycmp(seq[0][0], seq[1][len(seq[1])-1], j.jf[0], j.jf[1]) != 0 {
				break
			}
		}
		if j.pairables {
			for a := 0; a < len(seq[0])-1; a++ {
				for b := 0; b < len(seq[1])-1; b++ {
					if err := j.prjoin(seq[0][a], seq[1][b]); err != nil {
						return err
					}
				}
			}
		}
		for i := 0; i < 2; i++ {
			if !eof[i] {
				seq[i] = append(seq[i][:0], seq[i][len(seq[i])-1])
			} else {
				seq[i] = seq[i][:0]
			}
		}
	}
	checktail := j.check != checkDisabled && !(j.warned[0] && j.warned[1])
	for i := 0; i < 2; i++ {
		if !((j.unpairable[i] || checktail) && len(seq[i]) > 0) {
			continue
		}
		pr := func(l *line) error {
			if i == 0 {
				return j.prjoin(l, blank)
			}
			return j.prjoin(blank, l)
		}
		if j.unpairable[i] {
			if err := pr(seq[i][0]); err != nil {
				return err
			}
		}
		if len(seq[1-i]) > 0 {
			j.seenUnpairable = true
		}
		for n := 0; ; n++ {
			if n&1023 == 0 && ctx.Err() != nil {
				return &fatalErr{1}
			}
			l, err := j.getLine(i)
			if err != nil {
				return err
			}
			if l == nil {
				break
			}
			if j.unpairable[i] {
				if err := pr(l); err != nil {
					return err
				}
			}
			if j.warned[i] && !j.unpairable[i] {
				break
			}
		}
	}
	return nil
}
