// Package csplit implements GNU csplit: split a file into pieces at line
// numbers and at lines matching regular expressions, printing the size of
// each piece, with GNU's repetition, offset and error rules.
package csplit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const helpText = `Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

Mandatory arguments to long options are mandatory for short options too.
  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    remove empty output files
`

const helpTail = `
Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "suffix-format", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "prefix", Arg: builtins.RequiredArg},
	{Short: 'k', Long: "keep-files"}, {Long: "suppress-matched"},
	{Short: 'n', Long: "digits", Arg: builtins.RequiredArg},
	{Short: 's', Long: "quiet"}, {Long: "silent"},
	{Short: 'z', Long: "elide-empty-files"},
	{Long: "help"}, {Long: "version"},
}}

// control is one PATTERN.
type control struct {
	arg           string // as given, for messages
	re            *posixre.Regexp
	ignore        bool // %REGEXP%
	offset        int64
	lines         uint64 // INTEGER
	repeat        uint64
	repeatForever bool
}

// errFatal stops the split after its message was printed.
var errFatal = errors.New("csplit failed")

// splitter is one run: the input's lines and the output files.
type splitter struct {
	ctx        context.Context
	c          *builtins.Call
	out        *textfmt.Output
	lines      [][]byte
	firstAvail int // first line not yet written (1-based)
	current    int // csplit.c's current_line
	prefix     string
	suffix     func(n int) string
	keep       bool
	suppress   bool
	quiet      bool
	elide      bool
	created    int
	names      []string
	file       *strings.Builder // the piece being written (nil: none)
	fileName   string
}

// Run is the csplit command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	s := &splitter{ctx: ctx, c: c, prefix: "xx"}
	suffixFmt, digits := "", 2
	for _, o := range opts {
		switch o.Key {
		case "suffix-format":
			suffixFmt = o.Value
		case "prefix":
			s.prefix = o.Value
		case "keep-files":
			s.keep = true
		case "suppress-matched":
			s.suppress = true
		case "digits":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				c.Errorf("invalid number: %s", utilcmd.Q(c, o.Value))
				return 1
			}
			digits = n
		case "quiet", "silent":
			s.quiet = true
		case "elide-empty-files":
			s.elide = true
		case "help":
			return textfmt.Help(c, helpText+utilcmd.Trailer()+helpTail)
		case "version":
			return c.Version()
		}
	}
	if suffixFmt != "" {
		f, msg := parseSuffix(suffixFmt)
		if msg != "" {
			c.Errorf("%s", msg)
			return 1
		}
		s.suffix = f
	} else {
		s.suffix = func(n int) string { return fmt.Sprintf("%0*d", digits, n) }
	}
	if len(operands) < 2 {
		if len(operands) == 0 {
			return utilcmd.Fail(c, 1, "missing operand")
		}
		return utilcmd.Fail(c, 1, "missing operand after %s", utilcmd.Q(c, operands[0]))
	}
	controls, ok := s.parsePatterns(operands[1:])
	if !ok {
		return 1
	}
	name := operands[0]
	in, err := textio.Open(c, name)
	if err != nil {
		c.Errorf("cannot open %s for reading: %s", utilcmd.AF(c, name), builtins.ErrText(err))
		return 1
	}
	data, err := c.ReadAll(ctx, in)
	in.Close()
	if err != nil {
		c.Errorf("read error: %s", builtins.ErrText(err))
		return 1
	}
	for len(data) > 0 {
		i := strings.IndexByte(string(data), '\n')
		if i < 0 {
			s.lines = append(s.lines, data)
			break
		}
		s.lines = append(s.lines, data[:i+1])
		data = data[i+1:]
	}
	s.firstAvail = 1
	s.out = textfmt.NewOutput(c.Stdout)
	if err := s.run(controls); err != nil {
		s.cleanup()
		s.out.Flush()
		return 1
	}
	return s.out.Finish(c, 0)
}

func (s *splitter) run(controls []control) error {
	for i := range controls {
		p := &controls[i]
		for j := uint64(0); p.repeatForever || j <= p.repeat; j++ {
			var err error
			if p.re != nil {
				var done bool
				done, err = s.processRegexp(p, j)
				if done {
					return nil
				}
			} else {
				err = s.processLineCount(p, j)
			}
			if err != nil {
				return err
			}
			if s.ctx.Err() != nil {
				return s.ctx.Err()
			}
		}
	}
	s.createFile()
	s.dumpRest()
	return s.closeFile()
}

// removeLine takes the next unwritten line, as csplit.c's remove_line.
func (s *splitter) removeLine() []byte {
	if s.firstAvail > len(s.lines) {
		return nil
	}
	if s.current < s.firstAvail {
		s.current = s.firstAvail
	}
	l := s.lines[s.firstAvail-1]
	s.firstAvail++
	return l
}

func (s *splitter) findLine(n int) []byte {
	if n < 1 || n > len(s.lines) {
		return nil
	}
	return s.lines[n-1]
}

func (s *splitter) noMoreLines() bool { return s.firstAvail > len(s.lines) }

func (s *splitter) createFile() {
	s.fileName = s.prefix + s.suffix(s.created)
	s.created++
	s.names = append(s.names, s.fileName)
	s.file = &strings.Builder{}
}

func (s *splitter) save(line []byte) {
	if s.file != nil {
		s.file.Write(line)
	}
}

func (s *splitter) dumpRest() {
	for l := s.removeLine(); l != nil; l = s.removeLine() {
		s.save(l)
	}
}

// closeFile writes the piece and prints its size.
func (s *splitter) closeFile() error {
	if s.file == nil {
		return nil
	}
	content := s.file.String()
	s.file = nil
	if s.elide && content == "" {
		s.created--
		s.names = s.names[:len(s.names)-1]
		return nil
	}
	f, err := s.c.OpenFile(s.fileName, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666&^s.c.Umask)
	if err == nil {
		_, err = f.Write([]byte(content))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.c.Errorf("%s: %s", utilcmd.AF(s.c, s.fileName), builtins.ErrText(err))
		return errFatal
	}
	if !s.quiet {
		fmt.Fprintf(s.out, "%d\n", len(content))
	}
	return nil
}

// cleanup closes the current piece and, without -k, removes the pieces.
func (s *splitter) cleanup() {
	s.closeFile()
	if s.keep {
		return
	}
	for _, n := range s.names {
		s.c.FS.Remove(s.c.Abs(n))
	}
}

func (s *splitter) lineError(p *control, rep uint64) error {
	if rep > 0 {
		s.c.Errorf("%s: line number out of range on repetition %d", utilcmd.Q(s.c, p.arg), rep)
	} else {
		s.c.Errorf("%s: line number out of range", utilcmd.Q(s.c, p.arg))
	}
	return errFatal
}

func (s *splitter) processLineCount(p *control, rep uint64) error {
	last := p.lines * (rep + 1)
	s.createFile()
	if s.noMoreLines() && s.suppress {
		return s.lineError(p, rep)
	}
	for n := uint64(s.firstAvail); n < last; n++ {
		l := s.removeLine()
		if l == nil {
			return s.lineError(p, rep)
		}
		s.save(l)
	}
	if err := s.closeFile(); err != nil {
		return err
	}
	if s.suppress {
		s.removeLine()
	}
	if s.noMoreLines() && !s.suppress {
		return s.lineError(p, rep)
	}
	return nil
}

func (s *splitter) regexpError(p *control, rep uint64) error {
	if rep > 0 {
		s.c.Errorf("%s: match not found on repetition %d", utilcmd.Q(s.c, p.arg), rep)
	} else {
		s.c.Errorf("%s: match not found", utilcmd.Q(s.c, p.arg))
	}
	if !p.ignore {
		s.dumpRest()
	}
	return errFatal
}

// processRegexp splits at the next match of p; done means {*} ran out of
// input and the split is complete.
func (s *splitter) processRegexp(p *control, rep uint64) (bool, error) {
	if !p.ignore {
		s.createFile()
	}
	for {
		s.current++
		line := s.findLine(s.current)
		if line == nil {
			if p.repeatForever {
				if !p.ignore {
					s.dumpRest()
					if err := s.closeFile(); err != nil {
						return true, err
					}
				}
				return true, nil
			}
			return false, s.regexpError(p, rep)
		}
		text := line
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		}
		if p.re.Match(text) {
			break
		}
	}
	breakLine := int64(s.current) + p.offset
	if err := s.writeTo(breakLine, p); err != nil {
		return false, err
	}
	if !p.ignore {
		if err := s.closeFile(); err != nil {
			return false, err
		}
	}
	if p.offset > 0 {
		s.current = int(breakLine)
	}
	if s.suppress {
		s.removeLine()
	}
	return false, nil
}

// writeTo writes (or skips) the lines before line last.
func (s *splitter) writeTo(last int64, p *control) error {
	first := int64(s.firstAvail)
	if first > last {
		s.c.Errorf("%s: line number out of range", utilcmd.Q(s.c, p.arg))
		return errFatal
	}
	for i := int64(0); i < last-first; i++ {
		l := s.removeLine()
		if l == nil {
			s.c.Errorf("%s: line number out of range", utilcmd.Q(s.c, p.arg))
			return errFatal
		}
		if !p.ignore {
			s.save(l)
		}
	}
	return nil
}
