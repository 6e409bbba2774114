package fileops

import (
	"errors"
	"io/fs"
)

// Umask is the file creation mask the sandbox behaves as if it had (the
// usual 022: the reference GNU tools run with it).
const Umask = 0o022

// Unix permission bits, as mode_t.
const (
	sUID  = 0o4000
	sGID  = 0o2000
	sVTX  = 0o1000
	rwxU  = 0o700
	rwxG  = 0o070
	rwxO  = 0o007
	allRW = 0o7777
)

type modeChange struct {
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

// ModeSpec is a compiled chmod-style mode: octal or symbolic
// ("u+x,g-w", "a=rX").
type ModeSpec struct {
	changes []modeChange
}

// ErrInvalidMode reports a mode string that is neither octal nor symbolic.
var ErrInvalidMode = errors.New("invalid mode")

// ParseMode compiles a mode the way gnulib's mode_compile does.
func ParseMode(s string) (*ModeSpec, error) {
	if s != "" && s[0] >= '0' && s[0] <= '7' {
		var v uint32
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '7' {
				return nil, ErrInvalidMode
			}
			v = v*8 + uint32(s[i]-'0')
			if v > allRW {
				return nil, ErrInvalidMode
			}
		}
		mentioned := uint32(allRW)
		if len(s) < 5 {
			// Unmentioned setuid/setgid bits of directories are kept.
			mentioned = sVTX | 0o777 | v&(sUID|sGID)
		}
		return &ModeSpec{changes: []modeChange{{op: '=', flag: flagOrdinary, affected: allRW, value: v, mentioned: mentioned}}}, nil
	}
	m := &ModeSpec{}
	p := 0
	for {
		var affected uint32
	who:
		for ; p < len(s); p++ {
			switch s[p] {
			case 'u':
				affected |= sUID | rwxU
			case 'g':
				affected |= sGID | rwxG
			case 'o':
				affected |= sVTX | rwxO
			case 'a':
				affected |= allRW
			default:
				break who
			}
		}
		if p >= len(s) || (s[p] != '=' && s[p] != '+' && s[p] != '-') {
			return nil, ErrInvalidMode
		}
		for p < len(s) && (s[p] == '=' || s[p] == '+' || s[p] == '-') {
			op := s[p]
			p++
			ch := modeChange{op: op, affected: affected, flag: flagCopy}
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
						ch.value |= sUID | sGID
					case 't':
						ch.value |= sVTX
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
			return nil, ErrInvalidMode
		}
		p++
	}
}

// Apply returns the mode bits (07777) that result from applying the spec
// to old, for a directory or not, with the given umask (used where the
// spec names no "who").
func (m *ModeSpec) Apply(old uint32, dir bool, umask uint32) uint32 {
	newmode := old & allRW
	for _, ch := range m.changes {
		var omit uint32
		if dir {
			omit = (sUID | sGID) &^ ch.mentioned
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
	return newmode & allRW
}

// ToFileMode converts Unix permission bits to an fs.FileMode's.
func ToFileMode(bits uint32) fs.FileMode {
	m := fs.FileMode(bits & 0o777)
	if bits&sUID != 0 {
		m |= fs.ModeSetuid
	}
	if bits&sGID != 0 {
		m |= fs.ModeSetgid
	}
	if bits&sVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// FromFileMode returns the Unix permission bits of an fs.FileMode.
func FromFileMode(m fs.FileMode) uint32 {
	bits := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		bits |= sUID
	}
	if m&fs.ModeSetgid != 0 {
		bits |= sGID
	}
	if m&fs.ModeSticky != 0 {
		bits |= sVTX
	}
	return bits
}
