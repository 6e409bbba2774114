// Package human formats sizes as GNU's human.c does for ls, du and df:
// --block-size specs, -h/--si autoscaling, and ceiling rounding.
package human

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// Format is how sizes are shown.
type Format struct {
	Auto      bool   // -h / --si: scale to the largest fitting unit
	Base      uint64 // 1024 or 1000, for Auto and the unit suffix
	BlockSize uint64 // output unit when !Auto
	Suffix    string // unit suffix printed after every number ("K", "KiB", "kB")
	Floor     bool   // round down instead of up
}

// Bytes1K is the default 1 KiB unit of du, df and ls -s.
var Bytes1K = Format{Base: 1024, BlockSize: 1024}

// HumanReadable is -h: powers of 1024, "K" "M"...
var HumanReadable = Format{Auto: true, Base: 1024, BlockSize: 1}

// SI is --si: powers of 1000, "k" "M"...
var SI = Format{Auto: true, Base: 1000, BlockSize: 1}

// ErrInvalid, ErrSuffix and ErrTooLarge classify a bad size argument as
// xstrtoumax does.
var (
	ErrInvalid  = errors.New("invalid")
	ErrSuffix   = errors.New("invalid suffix")
	ErrTooLarge = errors.New("too large")
)

// ArgError renders a size-argument error in GNU's words: option is how
// the option was named ("--block-size", "-B").
func ArgError(err error, option, arg string, quoteAF func(string) string) string {
	switch {
	case errors.Is(err, ErrSuffix):
		return fmt.Sprintf("invalid suffix in %s argument %s", option, quoteAF(arg))
	case errors.Is(err, ErrTooLarge):
		return fmt.Sprintf("%s argument %s too large", option, quoteAF(arg))
	}
	return fmt.Sprintf("invalid %s argument %s", option, quoteAF(arg))
}

// OptionName is how the option that took value was written in args: long
// ("--block-size") or, when its word does not start with "--", short
// ("-B"), for ArgError.
func OptionName(args []string, value, long, short string) string {
	for i, a := range args {
		if strings.HasSuffix(a, "="+value) || i+1 < len(args) && args[i+1] == value {
			if strings.HasPrefix(a, "--") {
				return long
			}
			return short
		}
	}
	return short
}

const unitLetters = "KMGTPEZY"

// ParseSize reads a number with an optional unit suffix (K, KB, KiB, M...;
// and the letters of extraSuffixes, e.g. b=512, c=1, w=2) as xstrtoumax
// does, through textio's reader. It reports whether digits were given and
// the suffix text.
func ParseSize(s string, extraSuffixes string) (n uint64, digits bool, suffix string, err error) {
	r := textio.ScanUint(s, 10, "eEgGkKmMpPtTyYzZ0"+extraSuffixes)
	switch {
	case r.Invalid:
		return 0, false, "", ErrInvalid
	case r.BadSuffix:
		return 0, r.Digits, "", ErrSuffix
	case r.Overflow:
		return 0, r.Digits, "", ErrTooLarge
	}
	return r.Value, r.Digits, r.Suffix, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// ParseBlockSize reads a --block-size spec ("K", "1M", "human-readable",
// "si", "'1").
func ParseBlockSize(spec string) (Format, error) {
	switch spec {
	case "human-readable":
		return HumanReadable, nil
	case "si":
		return SI, nil
	}
	s := strings.TrimPrefix(spec, "'")
	n, digits, suffix, err := ParseSize(s, "")
	if err != nil {
		return Format{}, err
	}
	if n == 0 {
		return Format{}, ErrInvalid
	}
	f := Format{Base: 1024, BlockSize: n}
	if !digits && suffix != "" {
		switch {
		case strings.HasSuffix(suffix, "iB"):
			f.Suffix = string(upper(suffix[0])) + "iB"
		case strings.HasSuffix(suffix, "B"), strings.HasSuffix(suffix, "D"):
			l := upper(suffix[0])
			if l == 'K' {
				l = 'k'
			}
			f.Suffix = string(l) + "B"
		default:
			f.Suffix = string(upper(suffix[0]))
		}
	}
	return f, nil
}

// FromEnv returns the block size the environment asks for (the first
// set of names, e.g. LS_BLOCK_SIZE, BLOCK_SIZE, BLOCKSIZE), or def.
func FromEnv(getenv func(string) (string, bool), def Format, names ...string) Format {
	for _, name := range names {
		if v, ok := getenv(name); ok && v != "" {
			if f, err := ParseBlockSize(v); err == nil {
				return f
			}
			return def
		}
	}
	if _, ok := getenv("POSIXLY_CORRECT"); ok {
		return Format{Base: 1024, BlockSize: 512}
	}
	return def
}

// Show renders amount, counted in units of fromUnit bytes.
func (f Format) Show(amount, fromUnit uint64) string {
	if f.Auto {
		hi, lo := bits.Mul64(amount, fromUnit)
		if hi != 0 {
			return strconv.FormatUint(amount, 10)
		}
		return autoscale(lo, f.Base, f.Floor)
	}
	bs := f.BlockSize
	if bs == 0 {
		bs = 1
	}
	var v uint64
	if fromUnit%bs == 0 {
		v = amount * (fromUnit / bs)
	} else {
		hi, lo := bits.Mul64(amount, fromUnit)
		if hi >= bs {
			v = amount / bs * fromUnit
		} else {
			q, r := bits.Div64(hi, lo, bs)
			v = q
			if r != 0 && !f.Floor {
				v++
			}
		}
	}
	return strconv.FormatUint(v, 10) + f.Suffix
}

// autoscale prints n bytes with one decimal below 10 and a unit letter,
// rounding up (or down with floor), as human_readable with
// human_autoscale|human_ceiling does.
func autoscale(n, base uint64, floor bool) string {
	if n < base {
		return strconv.FormatUint(n, 10)
	}
	amt, tenths, rounding := n, uint64(0), uint64(0)
	exp := 0
	for amt >= base && exp < len(unitLetters) {
		r10 := (amt%base)*10 + tenths
		r2 := (r10%base)*2 + (rounding >> 1)
		amt /= base
		tenths = r10 / base
		if r2 < base {
			if r2 != 0 {
				rounding = 1
			} else {
				rounding = 0
			}
		} else if r2 == base {
			rounding = 2
		} else {
			rounding = 3
		}
		exp++
	}
	letter := func(e int) string {
		l := unitLetters[e-1]
		if base == 1000 && l == 'K' {
			return "k"
		}
		return string(l)
	}
	if amt < 10 {
		if !floor && rounding > 0 {
			tenths++
			rounding = 0
			if tenths == 10 {
				amt++
				tenths = 0
			}
		}
		if amt < 10 {
			return strconv.FormatUint(amt, 10) + "." + strconv.FormatUint(tenths, 10) + letter(exp)
		}
	}
	if !floor && rounding+tenths > 0 {
		amt++
		if amt == base && exp < len(unitLetters) {
			return "1.0" + letter(exp+1)
		}
	}
	return strconv.FormatUint(amt, 10) + letter(exp)
}
