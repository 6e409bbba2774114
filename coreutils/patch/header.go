package patch

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"time"
)

// fetchmode parses a git mode; 0 when it is not one.
func fetchmode(s []byte) fs.FileMode {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	var mode uint32
	start := i
	for ; i < start+6; i++ {
		c := at(s, i)
		if c < '0' || c > '7' {
			return 0
		}
		mode = mode<<3 + uint32(c-'0')
	}
	if at(s, i) == '\r' {
		i++
	}
	if at(s, i) != '\n' {
		return 0
	}
	return gitMode(mode)
}

// gitMode converts a git mode number to an fs.FileMode, with typeReg or
// typeLink as the type; 0 for other types.
func gitMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m >> 12 {
	case 0o10:
		return typeReg | perm
	case 0o12:
		return typeLink | perm
	}
	return 0
}

// File types as patch tracks them (0: unknown).
const (
	typeReg  fs.FileMode = 1 << 31 >> 1 // any bit outside the permission bits
	typeLink fs.FileMode = fs.ModeSymlink
	typeMask             = typeReg | typeLink
)

func sha1SaysNonexistent(sha1 string) int {
	if strings.Trim(sha1, "0") == "" {
		return 2
	}
	if strings.HasPrefix("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", sha1) {
		return 1
	}
	return 0
}

func skipHexDigits(s []byte, i int) int {
	j := i
	for j < len(s) && (isDigit(s[j]) || (s[j] >= 'a' && s[j] <= 'f')) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func skipSpaces(s []byte, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// prefixComponents counts the directory components of name; with
// checkDirs, only those that exist as directories.
func (p *patcher) prefixComponents(name string, checkDirs bool) int {
	count := 0
	for k := 1; k < len(name); k++ {
		if name[k] == '/' && name[k-1] != '/' {
			if checkDirs {
				fi, err := p.c.Stat(name[:k])
				if err != nil || !fi.IsDir() {
					break
				}
			}
			count++
		}
	}
	return count
}

func baseLen(name string) int {
	t := strings.TrimRight(name, "/")
	if t == "" {
		return len(name)
	}
	return len(path.Base(t))
}

// bestName picks among the old, new and index names: fewest directory
// components, then shortest base name, then shortest name, then first.
func (p *patcher) bestName(ignore [3]int) int {
	var components, blen, nlen [3]int
	cmin, bmin, lmin := int(^uint(0)>>1), int(^uint(0)>>1), int(^uint(0)>>1)
	for i := nameOld; i <= nameIndex; i++ {
		if !p.hasName[i] || ignore[i] != 0 {
			continue
		}
		components[i] = p.prefixComponents(p.pname[i], false)
		if cmin < components[i] {
			continue
		}
		cmin = components[i]
		blen[i] = baseLen(p.pname[i])
		if bmin < blen[i] {
			continue
		}
		bmin = blen[i]
		nlen[i] = len(p.pname[i])
		if lmin < nlen[i] {
			continue
		}
		lmin = nlen[i]
	}
	for i := nameOld; i <= nameIndex; i++ {
		if p.hasName[i] && ignore[i] == 0 && p.nameIsValid(p.pname[i]) &&
			components[i] == cmin && blen[i] == bmin && nlen[i] == lmin {
			return i
		}
	}
	return nameNone
}

// filenameIsSafe: relative and free of ".." components.
func filenameIsSafe(name string) bool {
	if strings.HasPrefix(name, "/") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == ".." {
			return false
		}
	}
	return true
}

func (p *patcher) nameIsValid(name string) bool {
	for _, n := range p.invalidNames {
		if n == name {
			return false
		}
	}
	valid := filenameIsSafe(name) || p.c.Dir == "/"
	if !valid {
		p.say("Ignoring potentially dangerous file name %s\n", p.quote(name))
		if len(p.invalidNames) < 2 {
			p.invalidNames = append(p.invalidNames, name)
		}
	}
	return valid
}

// parseCString decodes a double-quoted C string at s[i]; ok is false if
// it is malformed.
func parseCString(s []byte, i int) (string, int, bool) {
	i++
	var out []byte
	for {
		if i >= len(s) || s[i] == 0 {
			return "", i, false
		}
		c := s[i]
		i++
		switch c {
		case '"':
			return string(out), i, true
		case '\\':
		default:
			out = append(out, c)
			continue
		}
		if i >= len(s) {
			return "", i, false
		}
		c = s[i]
		i++
		switch c {
		case 'a':
			c = '\a'
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'v':
			c = '\v'
		case '\\', '"':
		case '0', '1', '2', '3':
			acc := (c - '0') << 6
			c = at(s, i)
			i++
			if c < '0' || c > '7' {
				return "", i, false
			}
			acc |= (c - '0') << 3
			c = at(s, i)
			i++
			if c < '0' || c > '7' {
				return "", i, false
			}
			c = acc | (c - '0')
		default:
			return "", i, false
		}
		out = append(out, c)
	}
}

// stripLeadingSlashes removes strip leading components of name (all of
// them when strip is negative); false when there are too few.
func stripLeadingSlashes(name string, strip int) (string, bool) {
	s := strip
	n := 0
	for k := 0; k < len(name); k++ {
		if name[k] == '/' {
			for k+1 < len(name) && name[k+1] == '/' {
				k++
			}
			if strip < 0 {
				n = k + 1
			} else {
				s--
				if s >= 0 {
					n = k + 1
				}
			}
		}
	}
	if (strip < 0 || s <= 0) && n < len(name) {
		return name[n:], true
	}
	return "", false
}

func (p *patcher) parseName(s []byte, i int) (string, bool, int) {
	i = skipSpaces(s, i)
	var name string
	if at(s, i) == '"' {
		n, end, ok := parseCString(s, i)
		if !ok {
			return "", false, end
		}
		name, i = n, end
	} else {
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		name, i = string(s[i:j]), j
	}
	name, ok := stripLeadingSlashes(name, p.strip)
	return name, ok, i
}

// fetchname reads a file name (and its time stamp) from a header line
// into pname[which]; it returns the time stamp (sec -1 if none).
func (p *patcher) fetchname(at []byte, which int, wantStamp bool) stamp {
	st := stamp{sec: -1}
	name, t, ok := headerName(at, '\t')
	if !ok {
		return st
	}
	if name == "/dev/null" {
		st = stamp{sec: 0}
		if which == nameNew {
			return st
		}
		p.ptimestamp[which] = st
		return st
	}
	name, ok = stripLeadingSlashes(name, p.strip)
	if !ok {
		return st
	}
	u := len(at)
	if u > t && at[u-1] == '\n' {
		u--
	}
	if u > t && at[u-1] == '\r' {
		u--
	}
	timestr := string(at[t:u])
	if t < len(at) && at[t] != '\n' {
		st = p.parseStamp(at[t:])
	}
	p.pname[which], p.hasName[which] = name, true
	p.ptimestr[which], p.hasTimestr[which] = timestr, true
	if which == nameOld {
		p.ptimestamp[which] = st
	}
	return st
}

// headerName reads the file name at the start of a header's text: a C
// string in quotes, or the text up to white space. As GNU's fetchname does,
// a name runs on past white space while the stop byte (a tab where a time
// stamp may follow, else the newline) comes later on the line, unless the
// white space itself holds a tab. end is the index past the name.
func headerName(at []byte, stop byte) (name string, end int, ok bool) {
	i := skipSpaces(at, 0)
	if i < len(at) && at[i] == '"' {
		return parseCString(at, i)
	}
	t := i
	for ; t < len(at); t++ {
		if isSpace(at[t]) {
			u := t
			for at[u] != '\t' && u+1 < len(at) && isSpace(at[u+1]) {
				u++
			}
			if at[u] != '\t' && bytes.IndexByte(at[u+1:], stop) >= 0 {
				continue
			}
			break
		}
	}
	return string(at[i:t]), t, true
}

func (p *patcher) fetchnameIndex(at []byte) {
	name, _, ok := headerName(at, '\n')
	if !ok {
		return
	}
	if name == "/dev/null" {
		return
	}
	name, ok = stripLeadingSlashes(name, p.strip)
	if !ok {
		return
	}
	p.pname[nameIndex], p.hasName[nameIndex] = name, true
}

// stamp is a header time stamp; sec -1 when absent or unparsable.
type stamp struct {
	sec  int64
	nsec int64
}

// parseStamp reads the time after a file name in a header. A time
// within the possible time zone offsets of the Epoch means the file does
// not exist.
func (p *patcher) parseStamp(s []byte) stamp {
	str := strings.TrimSpace(string(s))
	loc := p.loc
	if p.setUTC {
		loc = time.UTC
	}
	t, ok := parseHeaderTime(str, loc)
	if !ok {
		return stamp{sec: -1}
	}
	u := t.Unix()
	if !(p.setTime || p.setUTC) && u > -25*3600 && u < 26*3600 {
		return stamp{sec: 0}
	}
	return stamp{sec: u, nsec: int64(t.Nanosecond())}
}

var headerTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05",
	"Mon Jan _2 15:04:05 2006",
	"Mon Jan _2 15:04:05.999999999 2006",
	"Mon Jan _2 15:04:05 -0700 2006",
	"Mon Jan _2 15:04:05 MST 2006",
	"2006-01-02",
}

func parseHeaderTime(s string, loc *time.Location) (time.Time, bool) {
	for _, layout := range headerTimeLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
