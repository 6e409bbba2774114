// Package xxd implements vim's xxd (2022-01-14, as Debian 12 ships it):
// hex dumps in several styles, and their reversal.
package xxd

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/internal/printf"
)

const usageText = `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
`

type hexType int

const (
	hexNormal hexType = iota
	hexPostscript
	hexCInclude
	hexBits
	hexLittleEndian
)

const maxCols = 256

type config struct {
	autoskip   bool
	typ        hexType
	capitalize bool
	cols       int
	colsSet    bool
	group      int
	length     int64
	varname    *string
	displayOff uint64
	seek       int64
	relSeek    bool
	negSeek    bool
	seekSet    bool
	revert     bool
	decimal    bool
	ebcdic     bool
	upper      bool
}

// cLong parses a number the way strtol(s, NULL, 0) does: leading blanks,
// a sign, 0x for hex, 0 for octal, and whatever follows ignored; a value
// past the int64 range saturates.
func cLong(s string) int64 {
	neg, r := textio.ScanSigned(s, 0, "")
	if r.Invalid {
		return 0
	}
	v := int64(min(r.Value, math.MaxInt64))
	if neg {
		return -v
	}
	return v
}

func isHex(c byte) bool { return printf.DigitVal(c) >= 0 && printf.DigitVal(c) < 16 }

type usageError struct{}

func (usageError) Error() string { return "usage" }

// parseArgs reads xxd's command line: options match by their first two
// characters ("-c8", "-c 8", "-cols 8", "--cols 8").
func parseArgs(args []string, cfg *config) ([]string, string, error) {
	i := 0
	// value returns the option's argument: the rest of the word unless it
	// spells the long name, else the next word.
	value := func(pp, long string) (string, error) {
		if len(pp) > 2 && !strings.HasPrefix(pp[2:], long) {
			return pp[2:], nil
		}
		if i+1 >= len(args) {
			return "", usageError{}
		}
		i++
		return args[i], nil
	}
	for ; i < len(args); i++ {
		a := args[i]
		pp := a
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			pp = a[1:]
		}
		if a == "--help" {
			return nil, "help", nil
		}
		if a == "--version" {
			return nil, "version", nil
		}
		if len(pp) < 2 || pp[0] != '-' {
			if pp == "--" {
				i++
			}
			break
		}
		switch pp[:2] {
		case "-a":
			cfg.autoskip = !cfg.autoskip
		case "-b":
			cfg.typ = hexBits
		case "-e":
			cfg.typ = hexLittleEndian
		case "-u":
			cfg.upper = true
		case "-p":
			cfg.typ = hexPostscript
		case "-i":
			cfg.typ = hexCInclude
		case "-C":
			cfg.capitalize = true
		case "-d":
			cfg.decimal = true
		case "-r":
			cfg.revert = true
		case "-E":
			cfg.ebcdic = true
		case "-v":
			return nil, "version", nil
		case "-h":
			return nil, "", usageError{}
		case "-c":
			if len(pp) > 2 && strings.HasPrefix(pp[2:], "apitalize") {
				cfg.capitalize = true
				break
			}
			v, err := value(pp, "ols")
			if err != nil {
				return nil, "", err
			}
			cfg.cols, cfg.colsSet = int(clampInt(cLong(v))), true
		case "-g":
			v, err := value(pp, "roup")
			if err != nil {
				return nil, "", err
			}
			cfg.group = int(clampInt(cLong(v)))
		case "-o":
			v, err := value(pp, "ffset")
			if err != nil {
				return nil, "", err
			}
			cfg.displayOff = uint64(cLong(v))
		case "-s":
			var v string
			if len(pp) > 2 && !strings.HasPrefix(pp[2:], "kip") && !strings.HasPrefix(pp[2:], "eek") {
				v = pp[2:]
			} else {
				if i+1 >= len(args) {
					return nil, "", usageError{}
				}
				i++
				v = args[i]
			}
			cfg.relSeek, cfg.negSeek, cfg.seekSet = false, false, true
			if strings.HasPrefix(v, "+") {
				cfg.relSeek = true
				v = v[1:]
			}
			if strings.HasPrefix(v, "-") {
				cfg.negSeek = true
				v = v[1:]
			}
			cfg.seek = cLong(v)
		case "-l":
			v, err := value(pp, "en")
			if err != nil {
				return nil, "", err
			}
			cfg.length = cLong(v)
		case "-n":
			v, err := value(pp, "ame")
			if err != nil {
				return nil, "", err
			}
			cfg.varname = &v
		default:
			if pp == "--" {
				i++
				return args[i:], "", nil
			}
			return nil, "", usageError{}
		}
	}
	return args[i:], "", nil
}

func clampInt(v int64) int64 {
	if v > 1<<31-1 {
		return 1<<31 - 1
	}
	if v < -(1 << 31) {
		return -(1 << 31)
	}
	return v
}

// Run is the xxd command.
func Run(ctx context.Context, c *builtins.Call) int {
	cfg := &config{length: -1, group: -1}
	files, special, err := parseArgs(c.Args[1:], cfg)
	switch {
	case special == "help":
		fmt.Fprint(c.Stdout, usageText)
		return 0
	case special == "version":
		return c.Version()
	case err != nil:
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}
	if !cfg.colsSet || (cfg.cols == 0 && cfg.typ != hexPostscript) {
		switch cfg.typ {
		case hexPostscript:
			cfg.cols = 30
		case hexCInclude:
			cfg.cols = 12
		case hexBits:
			cfg.cols = 6
		default:
			cfg.cols = 16
		}
	}
	if cfg.group < 0 {
		switch cfg.typ {
		case hexBits:
			cfg.group = 1
		case hexNormal:
			cfg.group = 2
		case hexLittleEndian:
			cfg.group = 4
		default:
			cfg.group = 0
		}
	}
	if (cfg.typ == hexPostscript && cfg.cols < 0) || (cfg.typ != hexPostscript && cfg.cols < 1) ||
		((cfg.typ == hexNormal || cfg.typ == hexBits || cfg.typ == hexLittleEndian) && cfg.cols > maxCols) {
		c.Errorf("invalid number of columns (max. %d).", maxCols)
		return 1
	}
	if cfg.group < 1 || cfg.group > cfg.cols {
		cfg.group = cfg.cols
	} else if cfg.typ == hexLittleEndian && cfg.group&(cfg.group-1) != 0 {
		c.Errorf("number of octets per group must be a power of 2 with -e.")
		return 1
	}
	if len(files) > 2 {
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}

	// Input.
	var in io.Reader = c.Stdin
	var inFile interface {
		io.Reader
		io.Seeker
	}
	inName := ""
	if sk, ok := textfmt.SeekableStdin(c); ok {
		inFile = sk
	}
	if len(files) >= 1 && files[0] != "-" {
		f, err := c.Open(files[0])
		if err != nil {
			c.Errorf("%s: %s", files[0], builtins.ErrText(err))
			return 2
		}
		defer f.Close()
		in, inFile, inName = f, f, files[0]
	}

	// Output.
	var outW io.Writer = c.Stdout
	var outFile interface {
		io.Writer
		io.Seeker
	}
	if len(files) == 2 && files[1] != "-" {
		flag := os.O_WRONLY | os.O_CREATE
		if !cfg.revert {
			flag |= os.O_TRUNC
		}
		f, err := c.OpenFile(files[1], flag, 0o666)
		if err != nil {
			c.Errorf("%s: %s", files[1], builtins.ErrText(err))
			return 3
		}
		defer f.Close()
		outW, outFile = f, f
	}
	out := textfmt.NewOutput(outW)

	if cfg.revert {
		if cfg.typ != hexNormal && cfg.typ != hexPostscript {
			c.Errorf("Sorry, cannot revert this type of hexdump")
			return 255
		}
		base := cfg.seek
		if cfg.negSeek {
			base = -base
		}
		status := revert(ctx, c, textfmt.NewReader(in), out, outFile, cfg, base)
		if status != 0 {
			out.Flush()
			return status
		}
		return out.Finish(c, 0)
	}

	// Seeking.
	var seekOff int64
	if cfg.seekSet && (cfg.seek != 0 || cfg.negSeek || !cfg.relSeek) {
		off := cfg.seek
		if cfg.negSeek {
			off = -off
		}
		done := false
		if inFile != nil {
			whence := io.SeekStart
			if cfg.relSeek {
				whence = io.SeekCurrent
			} else if cfg.negSeek {
				whence = io.SeekEnd
			}
			if pos, err := inFile.Seek(off, whence); err == nil {
				seekOff, done = pos, true
			}
		}
		if !done {
			if cfg.negSeek {
				c.Errorf("Sorry, cannot seek.")
				return 4
			}
			n, _ := io.CopyN(io.Discard, in, cfg.seek)
			if n < cfg.seek {
				c.Errorf("Sorry, cannot seek.")
				return 4
			}
			seekOff = cfg.seek
		}
	}

	er := &errReader{r: in}
	br := textfmt.NewReader(er)
	var status int
	switch cfg.typ {
	case hexCInclude:
		varname := cfg.varname
		if varname == nil && inName != "" {
			varname = &inName
		}
		status = cInclude(ctx, br, out, cfg, varname)
	case hexPostscript:
		status = postscript(ctx, br, out, cfg)
	default:
		status = dump(ctx, br, out, cfg, uint64(seekOff))
	}
	if ctx.Err() != nil {
		out.Flush()
		return 1
	}
	if status != 0 {
		out.Flush()
		return status
	}
	if er.err != nil {
		out.Flush()
		c.Errorf("%s", builtins.ErrText(er.err))
		return 2
	}
	return out.Finish(c, 0)
}

// errReader remembers a read error and reports it as end of input.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
		return n, io.EOF
	}
	return n, err
}
