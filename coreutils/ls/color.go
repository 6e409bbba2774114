package ls

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/internal/printf"
)

// Indicator slots of LS_COLORS.
const (
	cLeft = iota
	cRight
	cEnd
	cReset
	cNorm
	cFile
	cDir
	cLink
	cFifo
	cSock
	cBlk
	cChr
	cMissing
	cOrphan
	cExec
	cDoor
	cSetuid
	cSetgid
	cSticky
	cOtherWritable
	cStickyOtherWritable
	cCap
	cMultiHardlink
	cClrToEOL
	nIndicators
)

var indicatorNames = [nIndicators]string{"lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd", "mi", "or", "ex", "do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl"}

// colorTable is a parsed LS_COLORS (or ls's built-in defaults).
type colorTable struct {
	ind        [nIndicators]*string
	exts       []extColor
	linkTarget bool // ln=target
	used       bool // the reset sequence has been printed
}

type extColor struct {
	pattern string // a glob such as "*.tar"
	seq     string
}

func strp(s string) *string { return &s }

// newColorTable returns the built-in table of GNU ls.
func newColorTable() *colorTable {
	t := &colorTable{}
	defaults := map[int]string{
		cLeft: "\033[", cRight: "m", cReset: "0", cDir: "01;34", cLink: "01;36",
		cFifo: "33", cSock: "01;35", cBlk: "01;33", cChr: "01;33", cExec: "01;32",
		cDoor: "01;35", cSetuid: "37;41", cSetgid: "30;43", cSticky: "37;44",
		cOtherWritable: "34;42", cStickyOtherWritable: "30;42", cClrToEOL: "\033[K",
	}
	for k, v := range defaults {
		t.ind[k] = strp(v)
	}
	return t
}

// terminal types dircolors knows; with none of them, no COLORTERM and no
// LS_COLORS, GNU ls does not color at all.
var knownTerms = []string{"Eterm", "ansi", "*color*", "con[0-9]*x[0-9]*", "cons25", "console", "cygwin", "*direct*", "dtterm", "gnome", "hurd", "jfbterm", "konsole", "kterm", "linux", "linux-c", "mlterm", "putty", "rxvt*", "screen*", "st", "terminator", "tmux*", "vt100", "xterm*"}

// loadColors builds the table from the environment; nil means no color.
func loadColors(getenv func(string) string) *colorTable {
	t := newColorTable()
	spec := getenv("LS_COLORS")
	if spec == "" {
		if getenv("COLORTERM") != "" {
			return t
		}
		term := getenv("TERM")
		for _, p := range knownTerms {
			if term != "" && glob.Match(p, term, 0) {
				return t
			}
		}
		return nil
	}
	for _, item := range strings.Split(spec, ":") {
		key, val, ok := strings.Cut(item, "=")
		if !ok {
			continue
		}
		seq := unescapeColor(val)
		if strings.HasPrefix(key, "*") {
			t.exts = append(t.exts, extColor{pattern: key, seq: seq})
			continue
		}
		for i, n := range indicatorNames {
			if n == key {
				if i == cLink && val == "target" {
					t.linkTarget = true
				} else {
					t.ind[i] = strp(seq)
				}
			}
		}
	}
	return t
}

// unescapeColor decodes the escapes dircolors allows in values.
func unescapeColor(s string) string {
	if !strings.ContainsAny(s, `\^`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if l, ok := printf.Letter(s[i]); ok {
				b.WriteByte(l)
				continue
			}
			switch d := s[i]; d {
			case '?':
				b.WriteByte(127)
			case '_':
				b.WriteByte(' ')
			case 'x', 'X':
				j := i + 1
				for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
					j++
				}
				v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
				b.WriteByte(byte(v))
				i = j - 1
			default:
				if d >= '0' && d <= '7' {
					j := i
					for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
						j++
					}
					v, _ := strconv.ParseUint(s[i:j], 8, 8)
					b.WriteByte(byte(v))
					i = j - 1
				} else {
					b.WriteByte(d)
				}
			}
		case c == '^' && i+1 < len(s):
			i++
			if s[i] == '?' {
				b.WriteByte(127)
			} else {
				b.WriteByte(s[i] & 0x1f)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (t *colorTable) colored(i int) bool {
	s := t.ind[i]
	return s != nil && *s != "" && *s != "0" && *s != "00"
}

// pick returns the SGR sequence for a file: mode is what the name itself
// is (lstat), target the mode a symlink leads to (ok false: broken).
func (t *colorTable) pick(name string, mode fs.FileMode, exists bool, targetMode fs.FileMode, targetOK bool) *string {
	var k int
	switch {
	case !exists:
		k = cMissing
	case mode&fs.ModeSymlink != 0:
		if !targetOK && t.ind[cOrphan] != nil {
			k = cOrphan
		} else if targetOK && t.linkTarget {
			return t.pick(name, targetMode, true, 0, false)
		} else {
			k = cLink
		}
	case mode.IsDir():
		k = cDir
		sticky, ow := mode&fs.ModeSticky != 0, mode&0o002 != 0
		switch {
		case sticky && ow && t.colored(cStickyOtherWritable):
			k = cStickyOtherWritable
		case ow && !sticky && t.colored(cOtherWritable):
			k = cOtherWritable
		case sticky && !ow && t.colored(cSticky):
			k = cSticky
		}
	case mode&fs.ModeNamedPipe != 0:
		k = cFifo
	case mode&fs.ModeSocket != 0:
		k = cSock
	case mode&fs.ModeCharDevice != 0:
		k = cChr
	case mode&fs.ModeDevice != 0:
		k = cBlk
	default:
		k = cFile
		switch {
		case mode&fs.ModeSetuid != 0 && t.colored(cSetuid):
			k = cSetuid
		case mode&fs.ModeSetgid != 0 && t.colored(cSetgid):
			k = cSetgid
		case mode&0o111 != 0 && t.colored(cExec):
			k = cExec
		}
		if k == cFile {
			if s := t.extension(name); s != nil {
				return s
			}
		}
	}
	return t.ind[k]
}

func (t *colorTable) extension(name string) *string {
	for i := len(t.exts) - 1; i >= 0; i-- {
		if glob.Match(t.exts[i].pattern, name, 0) {
			return &t.exts[i].seq
		}
	}
	lower := strings.ToLower(name)
	for i := len(t.exts) - 1; i >= 0; i-- {
		if glob.Match(strings.ToLower(t.exts[i].pattern), lower, 0) {
			return &t.exts[i].seq
		}
	}
	return nil
}

func (t *colorTable) str(i int) string {
	if t.ind[i] == nil {
		return ""
	}
	return *t.ind[i]
}

// start returns the bytes that open color seq (with the one-time reset
// before the first colored name).
func (t *colorTable) start(seq string) string {
	var b strings.Builder
	if !t.used {
		t.used = true
		if t.ind[cEnd] != nil {
			b.WriteString(*t.ind[cEnd])
		} else {
			b.WriteString(t.str(cLeft) + t.str(cReset) + t.str(cRight))
		}
	}
	b.WriteString(t.str(cLeft) + seq + t.str(cRight))
	return b.String()
}

// end closes a colored name.
func (t *colorTable) end() string {
	if t.ind[cEnd] != nil {
		return *t.ind[cEnd]
	}
	return t.str(cLeft) + t.str(cReset) + t.str(cRight)
}
