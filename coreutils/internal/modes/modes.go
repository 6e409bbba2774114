// Package modes handles file permission bits the way GNU coreutils does:
// chmod-style mode arguments (octal, or symbolic clauses like u+x,go-w,a=rX)
// compiled and applied as gnulib's modechange does, for chmod, mkdir -m,
// install -m and find -perm; and the mode strings of ls -l, stat and find
// ("drwxr-xr-x").
package modes

import (
	"errors"
	"io/fs"
)

// Unix permission bits, as mode_t.
const (
	setUID  = 0o4000
	setGID  = 0o2000
	sticky  = 0o1000
	rwxU    = 0o700
	rwxG    = 0o070
	rwxO    = 0o007
	allBits = 0o7777
)

// ErrInvalid reports a mode string that is neither octal nor symbolic.
var ErrInvalid = errors.New("invalid mode")

type change struct {
	op        byte // '=', '+', '-'
	flag      int  // ordinary, copy existing, x if any x
	affected  uint32
	value     uint32
	mentioned uint32
}

const (
	flagOrdinary = iota
	flagCopy
	flagXIfAnyX
)

// Change is a compiled mode argument.
type Change struct {
	changes []change
}

// Parse compiles a mode the way gnulib's mode_compile does.
func Parse(s string) (*Change, error) {
	if s != "" && s[0] >= '0' && s[0] <= '7' {
		var v uint32
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '7' {
				return nil, ErrInvalid
			}
			v = v*8 + uint32(s[i]-'0')
			if v > allBits {
				return nil, ErrInvalid
			}
		}
		mentioned := uint32(allBits)
		if len(s) < 5 {
			// Unmentioned setuid/setgid bits of directories are kept.
			mentioned = sticky | 0o777 | v&(setUID|setGID)
		}
		return &Change{changes: []change{{op: '=', flag: flagOrdinary, affected: allBits, value: v, mentioned: mentioned}}}, nil
	}
	m := &Change{}
	p := 0
	for {
		var affected uint32
	who:
		for ; p < len(s); p++ {
			switch s[p] {
			case 'u':
				affected |= setUID | rwxU
			case 'g':
				affected |= setGID | rwxG
			case 'o':
				affected |= sticky | rwxO
			case 'a':
				affected |= allBits
			default:
				break who
			}
		}
		if p >= len(s) || (s[p] != '=' && s[p] != '+' && s[p] != '-') {
			return nil, ErrInvalid
		}
		for p < len(s) && (s[p] == '=' || s[p] == '+' || s[p] == '-') {
			op := s[p]
			p++
			ch := change{op: op, affected: affected, flag: flagCopy}
			if p < len(s) && (s[p] == 'u' || s[p] == 'g' || s[p] == 'o') {
				switch s[p] {
				case 'u':
					ch.value = rwxU
				case 'g':
					ch.value = rwxG
				case 'o':
					ch.value = rwxO
				}
				p++
			} else {
				ch.flag = flagOrdinary
			perms:
				for ; p < len(s); p++ {
					switch s[p] {
					case 'r':
						ch.value |= 0o444
					case 'w':
						ch.value |= 0o222
					case 'x':
						ch.value |= 0o111
					case 'X':
						ch.flag = flagXIfAnyX
					case 's':
						ch.value |= setUID | setGID
					case 't':
						ch.value |= sticky
					default:
						break perms
					}
				}
			}
			if affected != 0 {
				ch.mentioned = affected & ch.value
			} else {
				ch.mentioned = ch.value
			}
			m.changes = append(m.changes, ch)
		}
		if p == len(s) {
			return m, nil
		}
		if s[p] != ',' {
			return nil, ErrInvalid
		}
		p++
	}
}

// Apply returns the mode bits (07777) that result from applying the
// change to old, for a directory or not, with the given umask (used where
// a clause names no "who"), as gnulib's mode_adjust does.
func (m *Change) Apply(old uint32, dir bool, umask uint32) uint32 {
	newmode := old & allBits
	for _, ch := range m.changes {
		var omit uint32
		if dir {
			omit = (setUID | setGID) &^ ch.mentioned
		}
		value := ch.value
		switch ch.flag {
		case flagCopy:
			value &= newmode
			var v uint32
			if value&0o444 != 0 {
				v |= 0o444
			}
			if value&0o222 != 0 {
				v |= 0o222
			}
			if value&0o111 != 0 {
				v |= 0o111
			}
			value |= v
		case flagXIfAnyX:
			if newmode&0o111 != 0 || dir {
				value |= 0o111
			}
		}
		if ch.affected != 0 {
			value &= ch.affected &^ omit
		} else {
			value &= ^umask &^ omit
		}
		switch ch.op {
		case '=':
			preserved := omit
			if ch.affected != 0 {
				preserved |= ^ch.affected
			}
			newmode = newmode&preserved | value
		case '+':
			newmode |= value
		case '-':
			newmode &^= value
		}
	}
	return newmode & allBits
}

// Perm returns the permission, setuid, setgid and sticky bits of m as a
// Unix mode (07777).
func Perm(m fs.FileMode) uint32 {
	bits := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		bits |= setUID
	}
	if m&fs.ModeSetgid != 0 {
		bits |= setGID
	}
	if m&fs.ModeSticky != 0 {
		bits |= sticky
	}
	return bits
}

// FromPerm converts Unix permission bits (07777) to an fs.FileMode's.
func FromPerm(bits uint32) fs.FileMode {
	m := fs.FileMode(bits & 0o777)
	if bits&setUID != 0 {
		m |= fs.ModeSetuid
	}
	if bits&setGID != 0 {
		m |= fs.ModeSetgid
	}
	if bits&sticky != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// TypeChar is the file type letter of ls -l: '-' for a regular file, '?'
// for a type Go does not know.
func TypeChar(m fs.FileMode) byte {
	switch {
	case m.IsDir():
		return 'd'
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	case m&fs.ModeIrregular != 0:
		return '?'
	}
	return '-'
}

// UnixMode is the st_mode value (type bits and permissions) of m.
func UnixMode(m fs.FileMode) uint32 {
	v := Perm(m)
	switch TypeChar(m) {
	case 'd':
		v |= 0o040000
	case 'l':
		v |= 0o120000
	case 'p':
		v |= 0o010000
	case 's':
		v |= 0o140000
	case 'c':
		v |= 0o020000
	case 'b':
		v |= 0o060000
	default:
		v |= 0o100000
	}
	return v
}

// FileType names a file's type as gnulib's file_type does (stat %F, rm's
// prompts): "regular empty file", "directory", "symbolic link"...
func FileType(fi fs.FileInfo) string {
	switch TypeChar(fi.Mode()) {
	case '-':
		if fi.Size() == 0 {
			return "regular empty file"
		}
		return "regular file"
	case 'd':
		return "directory"
	case 'l':
		return "symbolic link"
	case 'p':
		return "fifo"
	case 's':
		return "socket"
	case 'c':
		return "character special file"
	case 'b':
		return "block special file"
	}
	return "weird file"
}

// String renders permission bits as ls does, without the type letter
// ("rwxr-xr-x", "rwsr-S--T").
func String(bits uint32) string {
	var b [9]byte
	writePerm(b[:], bits)
	return string(b[:])
}

// ModeString is the ten-character mode of ls -l ("drwxr-xr-x").
func ModeString(m fs.FileMode) string {
	var b [10]byte
	b[0] = TypeChar(m)
	writePerm(b[1:], Perm(m))
	return string(b[:])
}

func writePerm(b []byte, bits uint32) {
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if bits&(1<<uint(8-i)) != 0 {
			b[i] = rwx[i]
		} else {
			b[i] = '-'
		}
	}
	special := func(i int, on bool, lower, upper byte) {
		if !on {
			return
		}
		if b[i] == 'x' {
			b[i] = lower
		} else {
			b[i] = upper
		}
	}
	special(2, bits&setUID != 0, 's', 'S')
	special(5, bits&setGID != 0, 's', 'S')
	special(8, bits&sticky != 0, 't', 'T')
}
