// Package dd implements GNU dd: block copies with if= of= bs= ibs= obs=
// count= skip= seek=, the conversions ucase lcase swab sync notrunc
// nocreat excl noerror fsync fdatasync, the flags skip_bytes count_bytes
// seek_bytes append fullblock (others are accepted and mean nothing in
// the sandbox), and GNU's records and transfer summary on standard error.
package dd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bashbox/bashbox/internal/lazy"
	"github.com/bashbox/bashbox/vfs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const help = `Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  lcase     change upper case to lower case
  ucase     change lower case to upper case
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  fullblock  accumulate full blocks of input (iflag only)
  count_bytes  treat 'count=N' as a byte count (iflag only)
  skip_bytes  treat 'skip=N' as a byte count (iflag only)
  seek_bytes  treat 'seek=N' as a byte count (oflag only)

` + "      --help        display this help and exit\n" +
	"      --version     output version information and exit\n"

// Flags and conversions.
const (
	cUcase = 1 << iota
	cLcase
	cSwab
	cSync
	cNotrunc
	cNocreat
	cExcl
	cNoerror
	fAppend
	fFullblock
	fCountBytes
	fSkipBytes
	fSeekBytes
)

var convNames = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"ucase": cUcase, "lcase": cLcase, "swab": cSwab, "sync": cSync, "notrunc": cNotrunc,
		"nocreat": cNocreat, "excl": cExcl, "noerror": cNoerror, "fsync": 0, "fdatasync": 0, "sparse": 0,
	}
}}

var iflagNames = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"fullblock": fFullblock, "count_bytes": fCountBytes, "skip_bytes": fSkipBytes,
		"direct": 0, "dsync": 0, "sync": 0, "nonblock": 0, "noatime": 0, "nocache": 0, "noctty": 0,
		"nofollow": 0, "binary": 0, "text": 0, "directory": 0,
	}
}}

var oflagNames = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"append": fAppend, "seek_bytes": fSeekBytes,
		"direct": 0, "dsync": 0, "sync": 0, "nonblock": 0, "noatime": 0, "nocache": 0, "noctty": 0,
		"nofollow": 0, "binary": 0, "text": 0, "directory": 0,
	}
}}

type job struct {
	c                   *builtins.Call
	in, out             string // "" for the standard streams
	ibs, obs            uint64
	bs                  bool // bs= given: no reblocking
	count, skip, seek   uint64
	hasCount            bool
	conv, iflags, oflag int
	status              string
	// counters
	fullIn, partIn, fullOut, partOut, bytes uint64
	start                                   time.Time
}

// Run is the dd command.
func Run(ctx context.Context, c *builtins.Call) int {
	j := &job{c: c, ibs: 512, obs: 512, start: time.Now()}
	args := c.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	for _, a := range args {
		switch a {
		case "--help":
			return textfmt.Help(c, help)
		case "--version":
			return c.Version()
		}
		if code := j.operand(a); code != 0 {
			return code
		}
	}
	return j.run(ctx)
}

func (j *job) operand(a string) int {
	c := j.c
	key, val, ok := strings.Cut(a, "=")
	if !ok {
		c.Errorf("unrecognized operand %s", utilcmd.Q(c, a))
		return c.TryHelp(1)
	}
	num := func(bytesOK bool) (uint64, bool, bool) {
		n, isBytes, ok := parseNumber(val, bytesOK)
		if !ok {
			c.Errorf("invalid number: %s", utilcmd.Q(c, val))
		}
		return n, isBytes, ok
	}
	symbols := func(table map[string]int, what string) (int, bool) {
		mask := 0
		for _, s := range strings.Split(val, ",") {
			if s == "" {
				continue
			}
			v, known := table[s]
			if !known {
				c.Errorf("invalid %s: %s", what, utilcmd.Q(c, s))
				c.TryHelp(1)
				return 0, false
			}
			mask |= v
		}
		return mask, true
	}
	var ok2 bool
	switch key {
	case "if":
		j.in = val
		return 0
	case "of":
		j.out = val
		return 0
	case "bs", "ibs", "obs", "cbs":
		n, _, good := num(false)
		if !good {
			return 1
		}
		if n == 0 {
			c.Errorf("invalid number: %s", utilcmd.Q(c, val))
			return 1
		}
		switch key {
		case "bs":
			j.ibs, j.obs, j.bs = n, n, true
		case "ibs":
			j.ibs = n
		case "obs":
			j.obs = n
		}
		return 0
	case "count", "skip", "iseek", "seek", "oseek":
		n, isBytes, good := num(true)
		if !good {
			return 1
		}
		switch key {
		case "count":
			j.count, j.hasCount = n, true
			if isBytes {
				j.iflags |= fCountBytes
			}
		case "skip", "iseek":
			j.skip = n
			if isBytes {
				j.iflags |= fSkipBytes
			}
		default:
			j.seek = n
			if isBytes {
				j.oflag |= fSeekBytes
			}
		}
		return 0
	case "conv", "iflag", "oflag":
		names, what, dst := &convNames, "conversion", &j.conv
		switch key {
		case "iflag":
			names, what, dst = &iflagNames, "input flag", &j.iflags
		case "oflag":
			names, what, dst = &oflagNames, "output flag", &j.oflag
		}
		var m int
		if m, ok2 = symbols(names.Get(), what); !ok2 {
			return 1
		}
		*dst |= m
	case "status":
		switch val {
		case "none", "noxfer", "progress":
			j.status = val
		default:
			c.Errorf("invalid status level: %s", utilcmd.Q(c, val))
			return c.TryHelp(1)
		}
	default:
		c.Errorf("unrecognized operand %s", utilcmd.Q(c, a))
		return c.TryHelp(1)
	}
	if j.conv&cUcase != 0 && j.conv&cLcase != 0 {
		c.Errorf("cannot combine lcase and ucase")
		return 1
	}
	if j.conv&cExcl != 0 && j.conv&cNocreat != 0 {
		c.Errorf("cannot combine excl and nocreat")
		return 1
	}
	return 0
}

// parseNumber reads dd's N: a count with multiplier suffixes, products
// written with 'x' (2x512), and with bytesOK a final 'B' meaning bytes.
func parseNumber(s string, bytesOK bool) (n uint64, isBytes, ok bool) {
	if bytesOK && strings.HasSuffix(s, "B") && len(s) > 1 {
		p := s[len(s)-2]
		if p >= '0' && p <= '9' {
			s, isBytes = s[:len(s)-1], true
		}
	}
	n = 1
	for _, part := range strings.Split(s, "x") {
		v, e := textio.ParseUint(part, "bcEGkKMPTwYZ0")
		if e != textio.NumOK || strings.TrimSpace(part) != part {
			return 0, false, false
		}
		if v != 0 && n > ^uint64(0)/v {
			return 0, false, false
		}
		n *= v
	}
	return n, isBytes, true
}

func (j *job) name(file string) string {
	if file == "" {
		if j.out == file {
			return "'standard output'"
		}
		return "'standard input'"
	}
	return utilcmd.AF(j.c, file)
}

func (j *job) run(ctx context.Context) int {
	c := j.c
	var in io.Reader = c.Stdin
	var inFile vfs.File
	if j.in != "" {
		f, err := c.Open(j.in)
		if err != nil {
			c.Errorf("failed to open %s: %s", utilcmd.AF(c, j.in), builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		in, inFile = f, f
	}
	var out io.Writer = c.Stdout
	seekBytes := j.seek
	if j.oflag&fSeekBytes == 0 {
		seekBytes *= j.obs
	}
	if j.out != "" {
		flag := os.O_WRONLY
		if j.conv&cNocreat == 0 {
			flag |= os.O_CREATE
		}
		if j.conv&cExcl != 0 {
			flag |= os.O_EXCL
		}
		if j.oflag&fAppend != 0 {
			flag |= os.O_APPEND
		}
		if seekBytes == 0 && j.conv&cNotrunc == 0 {
			flag |= os.O_TRUNC
		}
		f, err := c.OpenFile(j.out, flag, 0o666&^c.Umask)
		if err != nil {
			c.Errorf("failed to open %s: %s", utilcmd.AF(c, j.out), builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		out = f
		if seekBytes > 0 {
			if j.conv&cNotrunc == 0 {
				if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
					if err := f.Truncate(int64(seekBytes)); err != nil {
						c.Errorf("failed to truncate to %d bytes in output file %s: %s", seekBytes, utilcmd.AF(c, j.out), builtins.ErrText(err))
						return 1
					}
				}
			}
			if _, err := f.Seek(int64(seekBytes), io.SeekStart); err != nil {
				c.Errorf("%s: cannot seek: %s", utilcmd.AF(c, j.out), builtins.ErrText(err))
				return 1
			}
		}
	} else if seekBytes > 0 {
		// Output that cannot seek gets NULs, as GNU writes.
		if err := writeZeros(out, seekBytes); err != nil {
			return j.writeErr(err)
		}
	}

	if code := j.skipInput(in, inFile); code != 0 {
		return code
	}
	status := j.copy(ctx, in, out)
	j.summary()
	return status
}

func writeZeros(w io.Writer, n uint64) error {
	zero := make([]byte, min(n, 64<<10))
	for n > 0 {
		k := min(n, uint64(len(zero)))
		if _, err := w.Write(zero[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

func (j *job) skipInput(in io.Reader, f vfs.File) int {
	n := j.skip
	if j.iflags&fSkipBytes == 0 {
		n *= j.ibs
	}
	if n == 0 {
		return 0
	}
	if f != nil {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if _, err := f.Seek(int64(n), io.SeekStart); err == nil {
				return 0
			}
		}
	}
	// A stream: read and discard, a block at a time as GNU counts.
	got, err := io.CopyN(io.Discard, in, int64(n))
	if err != nil && err != io.EOF {
		j.c.Errorf("error reading %s: %s", j.name(j.in), builtins.ErrText(err))
		return 1
	}
	if uint64(got) < n {
		j.c.Errorf("%s: cannot skip to specified offset", j.name(j.in))
	}
	return 0
}

func (j *job) writeErr(err error) int {
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	j.c.Errorf("error writing %s: %s", j.name(j.out), builtins.ErrText(err))
	return 1
}

func (j *job) copy(ctx context.Context, in io.Reader, out io.Writer) int {
	ibuf := make([]byte, j.ibs)
	var obuf []byte
	left := j.count
	for {
		if j.hasCount && left == 0 {
			break
		}
		if ctx.Err() != nil {
			return 130
		}
		want := ibuf
		if j.hasCount && j.iflags&fCountBytes != 0 && left < uint64(len(want)) {
			want = want[:left]
		}
		var n int
		var err error
		if j.iflags&fFullblock != 0 {
			n, err = io.ReadFull(in, want)
			if err == io.ErrUnexpectedEOF {
				err = nil
			}
		} else {
			n, err = in.Read(want)
		}
		if err != nil && err != io.EOF {
			j.c.Errorf("error reading %s: %s", j.name(j.in), builtins.ErrText(err))
			if j.conv&cNoerror == 0 {
				if code := j.flush(out, obuf); code != 0 {
					return code
				}
				return 1
			}
		}
		if n == 0 {
			if err == nil {
				continue
			}
			break
		}
		if uint64(n) == j.ibs {
			j.fullIn++
		} else {
			j.partIn++
		}
		if j.hasCount {
			if j.iflags&fCountBytes != 0 {
				left -= uint64(n)
			} else {
				left--
			}
		}
		block := ibuf[:n]
		if j.conv&cSync != 0 && uint64(n) < j.ibs {
			clear(ibuf[n:])
			block = ibuf
		}
		j.convert(block)
		if j.bs {
			if code := j.write(out, block); code != 0 {
				return code
			}
			continue
		}
		obuf = append(obuf, block...)
		for uint64(len(obuf)) >= j.obs {
			if code := j.write(out, obuf[:j.obs]); code != 0 {
				return code
			}
			obuf = obuf[j.obs:]
		}
		obuf = append([]byte(nil), obuf...)
	}
	return j.flush(out, obuf)
}

func (j *job) flush(out io.Writer, obuf []byte) int {
	if len(obuf) > 0 {
		return j.write(out, obuf)
	}
	return 0
}

func (j *job) convert(b []byte) {
	if j.conv&cSwab != 0 {
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	}
	switch {
	case j.conv&cUcase != 0:
		for i, ch := range b {
			if ch >= 'a' && ch <= 'z' {
				b[i] = ch - 32
			}
		}
	case j.conv&cLcase != 0:
		for i, ch := range b {
			if ch >= 'A' && ch <= 'Z' {
				b[i] = ch + 32
			}
		}
	}
}

func (j *job) write(out io.Writer, b []byte) int {
	n, err := out.Write(b)
	j.bytes += uint64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			j.partOut++
		}
		return j.writeErr(err)
	}
	if uint64(n) == j.obs {
		j.fullOut++
	} else {
		j.partOut++
	}
	return 0
}

// summary prints GNU's statistics: records, then bytes, time and speed.
func (j *job) summary() {
	if j.status == "none" {
		return
	}
	w := j.c.Stderr
	fmt.Fprintf(w, "%d+%d records in\n%d+%d records out\n", j.fullIn, j.partIn, j.fullOut, j.partOut)
	if j.status == "noxfer" {
		return
	}
	fmt.Fprintln(w, TransferLine(j.bytes, time.Since(j.start)))
}

// TransferLine is GNU dd's last summary line: "N bytes (S, I) copied,
// T s, R/s".
func TransferLine(bytes uint64, elapsed time.Duration) string {
	var b strings.Builder
	if bytes == 1 {
		b.WriteString("1 byte")
	} else {
		fmt.Fprintf(&b, "%d bytes", bytes)
	}
	si, iec := humanSize(float64(bytes), 1000, ""), humanSize(float64(bytes), 1024, "i")
	switch {
	case bytes >= 1024:
		fmt.Fprintf(&b, " (%s, %s)", si, iec)
	case bytes >= 1000:
		fmt.Fprintf(&b, " (%s)", si)
	}
	secs := elapsed.Seconds()
	rate := "Infinity B/s"
	if secs > 0 {
		rate = humanRate(float64(bytes) / secs)
	}
	fmt.Fprintf(&b, " copied, %s s, %s", formatG(secs), rate)
	return b.String()
}

var prefixes = []string{"k", "M", "G", "T", "P", "E", "Z", "Y", "R", "Q"}

// humanSize autoscales as GNU's human_readable with rounding to nearest:
// one decimal below 10, none from 10.
func humanSize(v, base float64, infix string) string {
	unit := -1
	for v >= base && unit < len(prefixes)-1 {
		v /= base
		unit++
	}
	var s string
	if v < 10 {
		s = fmt.Sprintf("%.1f", v)
		if s == "10.0" {
			s = "10"
		}
	} else {
		s = fmt.Sprintf("%.0f", v)
	}
	if s == fmt.Sprintf("%.0f", base) && unit < len(prefixes)-1 {
		s = "1.0"
		unit++
	}
	if unit < 0 {
		return s + " B"
	}
	p := prefixes[unit]
	if base == 1024 && p == "k" {
		p = "K"
	}
	return s + " " + p + infix + "B"
}

// humanRate is the speed as dd shows it: SI units from kB, three
// significant digits.
func humanRate(v float64) string {
	v /= 1000
	unit := 0
	for v >= 999.5 && unit < len(prefixes)-1 {
		v /= 1000
		unit++
	}
	if v < 99.95 {
		return fmt.Sprintf("%.1f %sB/s", v, prefixes[unit])
	}
	return fmt.Sprintf("%.0f %sB/s", v, prefixes[unit])
}

// formatG is C's %g.
func formatG(f float64) string {
	// C's %g: 6 significant digits, trailing zeros dropped.
	s := fmt.Sprintf("%.6g", f)
	if strings.Contains(s, "e") {
		mant, exp, _ := strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		for len(digits) < 2 {
			digits = "0" + digits
		}
		return mant + "e" + string(sign) + digits
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
