// Package shuf implements GNU shuf: random permutations of input lines,
// of -e arguments or of an -i LO-HI range, with -n, -r, -o and -z. The
// random numbers are drawn as gnulib's randint does (bytes consumed most
// significant first, rejection of the unfair remainder) and permutations
// built as its randperm does, so that --random-source=FILE gives exactly
// GNU shuf's output for the same file. Without a source, a ChaCha8
// generator seeded from the system's entropy stands in for getrandom.
package shuf

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/vfs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'e', Long: "echo"}, {Short: 'i', Long: "input-range", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "head-count", Arg: builtins.RequiredArg}, {Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Long: "random-source", Arg: builtins.RequiredArg}, {Short: 'r', Long: "repeat"},
	{Short: 'z', Long: "zero-terminated"}, {Long: "help"}, {Long: "version"},
}}

// errEOF is a random source that ran out.
var errEOF = errors.New("end of file")

// source supplies random bytes: a file's, or a generator's.
type source struct {
	r    io.Reader
	name string
	gen  *rand.ChaCha8
	err  error
}

func (s *source) read(p []byte) {
	if s.err != nil {
		return
	}
	if s.gen != nil {
		s.gen.Read(p)
		return
	}
	if _, err := io.ReadFull(s.r, p); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = errEOF
		}
		s.err = err
	}
}

// randint is gnulib's randint_source.
type randint struct {
	src              *source
	randnum, randmax uint64
}

// genmax returns a uniform number in 0..genmax.
func (r *randint) genmax(genmax uint64) uint64 {
	randnum, randmax := r.randnum, r.randmax
	choices := genmax + 1
	for {
		if randmax < genmax {
			var buf [8]byte
			i := 0
			for rmax := randmax; rmax < genmax; i++ {
				rmax = rmax<<8 + 0xff
			}
			r.src.read(buf[:i])
			if r.src.err != nil {
				return 0
			}
			for i = 0; randmax < genmax; i++ {
				randnum = randnum<<8 + uint64(buf[i])
				randmax = randmax<<8 + 0xff
			}
		}
		if randmax == genmax {
			r.randnum, r.randmax = 0, 0
			return randnum
		}
		excess := randmax - genmax
		unusable := excess % choices
		lastUsable := randmax - unusable
		reduced := randnum % choices
		if randnum <= lastUsable {
			r.randnum = randnum / choices
			r.randmax = excess / choices
			return reduced
		}
		randnum = reduced
		randmax = unusable - 1
	}
}

func (r *randint) choose(n uint64) uint64 { return r.genmax(n - 1) }

// permBound is randperm_bound: the bytes a permutation may need.
func permBound(h, n uint64) uint64 {
	lg := uint64(0)
	for m := n; m > 1; m /= 2 {
		lg++
	}
	return ((lg+1)*h + 7) / 8
}

// perm is randperm_new: the first h elements of a random permutation of
// 0..n-1.
func perm(ctx context.Context, r *randint, h, n uint64) []uint64 {
	switch h {
	case 0:
		return nil
	case 1:
		return []uint64{r.choose(n)}
	}
	out := make([]uint64, h)
	if n > 1<<22 {
		// Sparse: only the moved entries are stored.
		moved := map[uint64]uint64{}
		at := func(i uint64) uint64 {
			if v, ok := moved[i]; ok {
				return v
			}
			return i
		}
		for i := uint64(0); i < h; i++ {
			if i&1023 == 0 && ctx.Err() != nil {
				return nil
			}
			j := i + r.choose(n-i)
			vi, vj := at(i), at(j)
			moved[i], moved[j] = vj, vi
			out[i] = vj
		}
		return out
	}
	v := make([]uint64, n)
	for i := range v {
		v[i] = uint64(i)
	}
	for i := uint64(0); i < h; i++ {
		j := i + r.choose(n-i)
		v[i], v[j] = v[j], v[i]
	}
	copy(out, v[:h])
	return out
}

// Run shuffles.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var echo, inputRange, repeat bool
	var lo, hi uint64
	head := uint64(math.MaxUint64)
	outfile, randomSource := "", ""
	hasOut, hasSource := false, false
	eol := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "echo":
			echo = true
		case "input-range":
			if inputRange {
				c.Errorf("multiple -i options specified")
				return 1
			}
			inputRange = true
			l, h, bad, why := parseRange(o.Value)
			if bad != nil {
				c.Errorf("invalid input range: %s%s", utilcmd.Q(c, *bad), why)
				return 1
			}
			lo, hi = l, h
		case "head-count":
			v, ok, overflow := parseCount(o.Value)
			if ok {
				head = min(head, v)
			} else if !overflow {
				c.Errorf("invalid line count: %s", utilcmd.Q(c, o.Value))
				return 1
			}
		case "output":
			if hasOut && outfile != o.Value {
				c.Errorf("multiple output files specified")
				return 1
			}
			outfile, hasOut = o.Value, true
		case "random-source":
			if hasSource && randomSource != o.Value {
				c.Errorf("multiple random sources specified")
				return 1
			}
			randomSource, hasSource = o.Value, true
		case "repeat":
			repeat = true
		case "zero-terminated":
			eol = 0
		case "help":
			return textfmt.Help(c, helpText(c.Name()))
		case "version":
			return c.Version()
		}
	}
	if echo && inputRange {
		c.Errorf("cannot combine -e and -i options")
		return c.TryHelp(1)
	}
	if inputRange && len(operands) > 0 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[0]))
		return c.TryHelp(1)
	}
	if !inputRange && !echo && len(operands) > 1 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[1]))
		return c.TryHelp(1)
	}

	var lines [][]byte
	var n uint64
	switch {
	case head == 0:
	case echo:
		for _, op := range operands {
			lines = append(lines, append([]byte(op), eol))
		}
		n = uint64(len(lines))
	case inputRange:
		n = hi - lo + 1
	default:
		var in io.Reader = c.Stdin
		if len(operands) == 1 && operands[0] != "-" {
			f, ok := openOrReport(c, c.Open, operands[0])
			if !ok {
				return 1
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				c.Errorf("read error: Is a directory")
				return 1
			}
			in = f
		}
		data, err := c.ReadAll(ctx, in)
		if err != nil {
			c.Errorf("read error: %s", builtins.ErrText(err))
			return 1
		}
		if len(data) > 0 && data[len(data)-1] != eol {
			data = append(data, eol)
		}
		for len(data) > 0 {
			k := bytes.IndexByte(data, eol)
			lines = append(lines, data[:k+1])
			data = data[k+1:]
		}
		n = uint64(len(lines))
	}
	ahead := n
	if repeat || head < n {
		ahead = head
	}

	bound := uint64(math.MaxUint64)
	if !repeat {
		bound = permBound(ahead, n)
	}
	src := &source{name: randomSource}
	if bound > 0 {
		if hasSource {
			f, ok := openOrReport(c, c.Open, randomSource)
			if !ok {
				return 1
			}
			defer f.Close()
			src.r = f
		} else {
			var seed [32]byte
			crand.Read(seed[:])
			src.gen = rand.NewChaCha8(seed)
		}
	}
	r := &randint{src: src}
	sourceFailed := func() int {
		if src.err == errEOF {
			c.Errorf("%s: end of file", utilcmd.Q(c, randomSource))
		} else {
			c.Errorf("%s: read error: %s", utilcmd.Q(c, randomSource), builtins.ErrText(src.err))
		}
		return 1
	}
	var permutation []uint64
	if !repeat {
		permutation = perm(ctx, r, ahead, n)
		if src.err != nil {
			return sourceFailed()
		}
		if ctx.Err() != nil {
			return 130
		}
	}

	var w io.Writer = c.Stdout
	if hasOut {
		f, ok := openOrReport(c, c.Create, outfile)
		if !ok {
			return 1
		}
		defer f.Close()
		w = f
	}
	out := textfmt.NewOutput(w)
	number := func(v uint64) {
		var buf [24]byte
		out.Write(strconv.AppendUint(buf[:0], v, 10))
		out.WriteByte(eol)
	}
	var tick textfmt.Tick
	if repeat {
		if head != 0 {
			if n == 0 {
				c.Errorf("no lines to repeat")
				return 1
			}
			for i := uint64(0); i < ahead; i++ {
				if tick.Stop(ctx) {
					out.Flush()
					return 130
				}
				j := r.choose(n)
				if src.err != nil {
					out.Flush()
					return sourceFailed()
				}
				if inputRange {
					number(lo + j)
				} else {
					out.Write(lines[j])
				}
				if out.Failed() {
					break
				}
			}
		}
	} else {
		for _, j := range permutation {
			if inputRange {
				number(lo + j)
			} else {
				out.Write(lines[j])
			}
			if out.Failed() {
				break
			}
		}
	}
	return out.Finish(c, 0)
}

// parseUint is xstrtoumax without suffixes: blanks, an optional '+',
// digits; it reports the rest and whether the value overflowed.
func parseUint(s string) (v uint64, rest string, ok, overflow bool) {
	r := textio.ScanUint(s, 10, "")
	switch {
	case r.Invalid:
		return 0, s, false, false
	case r.Overflow:
		return math.MaxUint64, r.Rest, false, true
	}
	return r.Value, r.Rest, true, false
}

func parseCount(s string) (uint64, bool, bool) {
	v, rest, ok, overflow := parseUint(s)
	if overflow && rest == "" {
		return 0, false, true
	}
	return v, ok && rest == "", false
}

// parseRange reads LO-HI as GNU does: split at the first '-', each side
// a decimal (xdectoumax); an empty range (HI = LO-1) is valid. On failure
// bad is the text to name (a side, or the whole range when the ends are
// out of order) and why what follows it.
func parseRange(s string) (lo, hi uint64, bad *string, why string) {
	loText, hiText, found := strings.Cut(s, "-")
	if !found {
		return 0, 0, &s, ""
	}
	lo, why, ok := textfmt.DecToUint(loText, 0, math.MaxUint64)
	if !ok {
		return 0, 0, &loText, why
	}
	hi, why, ok = textfmt.DecToUint(hiText, 0, math.MaxUint64)
	if !ok {
		return 0, 0, &hiText, why
	}
	if n := hi - lo + 1; (lo <= hi) == (n == 0) {
		return 0, 0, &s, ""
	}
	return lo, hi, nil, ""
}

func helpText(name string) string {
	return "Usage: " + name + " [OPTION]... [FILE]\n" +
		"  or:  " + name + " -e [OPTION]... [ARG]...\n" +
		"  or:  " + name + " -i LO-HI [OPTION]...\n" +
		"Write a random permutation of the input lines to standard output.\n\n" +
		"With no FILE, or when FILE is -, read standard input.\n\n" +
		"Mandatory arguments to long options are mandatory for short options too.\n" +
		"  -e, --echo                treat each ARG as an input line\n" +
		"  -i, --input-range=LO-HI   treat each number LO through HI as an input line\n" +
		"  -n, --head-count=COUNT    output at most COUNT lines\n" +
		"  -o, --output=FILE         write result to FILE instead of standard output\n" +
		"      --random-source=FILE  get random bytes from FILE\n" +
		"  -r, --repeat              output lines can be repeated\n" +
		"  -z, --zero-terminated     line delimiter is NUL, not newline\n" +
		utilcmd.Trailer()
}

// openOrReport opens name with open (c.Open or c.Create), reporting a
// failure as GNU shuf does for its input, random source and output alike.
func openOrReport(c *builtins.Call, open func(string) (vfs.File, error), name string) (vfs.File, bool) {
	f, err := open(name)
	if err != nil {
		c.Errorf("%s: %s", utilcmd.F(c, name), builtins.ErrText(err))
		return nil, false
	}
	return f, true
}
