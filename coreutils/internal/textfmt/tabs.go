package textfmt

import (
	"errors"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// TabStops is the tab stop list of expand and unexpand (-t).
type TabStops struct {
	list      []uint64
	extend    uint64 // "/N": every multiple of N after the last stop
	increment uint64 // "+N": every N columns after the last stop
	size      uint64 // uniform tab size, when one stop was given
	// MaxWidth is the widest gap between stops.
	MaxWidth uint64
}

// Parse adds the stops of one -t argument. The error text is complete
// (quoting done with quote).
func (t *TabStops) Parse(s string, quote func(string) string) error {
	s = strings.TrimPrefix(s, "\x00")
	have := false
	var val uint64
	extend, increment := false, false
	numStart := 0
	flush := func() error {
		if !have {
			return nil
		}
		switch {
		case extend:
			if t.extend != 0 {
				return errors.New("'/' specifier only allowed with the last value")
			}
			t.extend = val
		case increment:
			if t.increment != 0 {
				return errors.New("'+' specifier only allowed with the last value")
			}
			t.increment = val
		default:
			if t.extend != 0 {
				return errors.New("'/' specifier only allowed with the last value")
			}
			if t.increment != 0 {
				return errors.New("'+' specifier only allowed with the last value")
			}
			t.add(val)
		}
		return nil
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ',' || ch == ' ' || ch == '\t':
			if err := flush(); err != nil {
				return err
			}
			have = false
		case ch == '/':
			if have {
				return errors.New("'/' specifier not at start of number: " + quote(s[i:]))
			}
			extend, increment = true, false
		case ch == '+':
			if have {
				return errors.New("'+' specifier not at start of number: " + quote(s[i:]))
			}
			increment, extend = true, false
		case ch >= '0' && ch <= '9':
			if !have {
				val, have, numStart = 0, true, i
			}
			d := uint64(ch - '0')
			if val > (^uint64(0)-d)/10 {
				j := numStart
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				return errors.New("tab stop is too large " + quote(s[numStart:j]))
			}
			val = val*10 + d
		default:
			return errors.New("tab size contains invalid character(s): " + quote(s[i:]))
		}
	}
	return flush()
}

func (t *TabStops) add(v uint64) {
	prev := uint64(0)
	if n := len(t.list); n > 0 {
		prev = t.list[n-1]
	}
	if v >= prev && v-prev > t.MaxWidth {
		t.MaxWidth = v - prev
	}
	t.list = append(t.list, v)
}

// Finish validates the stops and settles the uniform size.
func (t *TabStops) Finish() error {
	var prev uint64
	for i, v := range t.list {
		if v == 0 {
			return errors.New("tab size cannot be 0")
		}
		if i > 0 && v <= prev {
			return errors.New("tab sizes must be ascending")
		}
		prev = v
	}
	if t.increment != 0 && t.extend != 0 {
		return errors.New("'/' specifier is mutually exclusive with '+'")
	}
	if t.extend > t.MaxWidth {
		t.MaxWidth = t.extend
	}
	if t.increment > t.MaxWidth {
		t.MaxWidth = t.increment
	}
	switch {
	case len(t.list) == 0 && t.extend == 0 && t.increment == 0:
		t.size = 8
	case len(t.list) == 1 && t.extend == 0 && t.increment == 0:
		t.size = t.list[0]
	case len(t.list) == 0 && t.extend != 0:
		t.size = t.extend
	case len(t.list) == 0 && t.increment != 0:
		t.size = t.increment
	}
	if t.size > t.MaxWidth {
		t.MaxWidth = t.size
	}
	return nil
}

// Next returns the tab stop after column; *idx caches the position in the
// list and last is true when no stop follows.
func (t *TabStops) Next(column uint64, idx *int) (next uint64, last bool) {
	if t.size != 0 {
		return column + (t.size - column%t.size), false
	}
	for ; *idx < len(t.list); *idx++ {
		if column < t.list[*idx] {
			return t.list[*idx], false
		}
	}
	if t.extend != 0 {
		return column + (t.extend - column%t.extend), false
	}
	if t.increment != 0 {
		end := t.list[len(t.list)-1]
		return column + (t.increment - (column-end)%t.increment), false
	}
	return 0, true
}

// ObsoleteTabs rewrites the obsolete "-N[,M...]" tab stop operands of
// expand and unexpand into -t options whose value starts with a NUL byte
// (which no real argument holds), so that unexpand can tell them from -t.
func ObsoleteTabs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			out = append(out, "-t\x00"+a[1:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// TabsHelp is the -t paragraph of expand's and unexpand's --help.
const TabsHelp = `  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
`

// Set adds the stops of a -t argument, reporting a bad one as GNU does;
// false means the command exits 1.
func (t *TabStops) Set(c *builtins.Call, value string) bool {
	if err := t.Parse(value, func(s string) string { return Quote(c, s) }); err != nil {
		c.Errorf("%s", err.Error())
		return false
	}
	return true
}

// Done is Finish reporting a bad list; false means the command exits 1.
func (t *TabStops) Done(c *builtins.Call) bool {
	if err := t.Finish(); err != nil {
		c.Errorf("%s", err.Error())
		return false
	}
	return true
}
