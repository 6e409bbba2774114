package find

import (
	"io/fs"
	"strings"
)

// unixMode returns the permission, setuid, setgid and sticky bits of m
// as a Unix mode (07777).
func unixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

// typeChar is the letter -type uses for m's file type.
func typeChar(m fs.FileMode) byte {
	switch {
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m.IsDir():
		return 'd'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	case m&fs.ModeIrregular != 0:
		return 'U'
	}
	return 'f'
}

// modeString renders m as ls -l does: "drwxr-xr-x".
func modeString(m fs.FileMode) string {
	var b [10]byte
	t := typeChar(m)
	switch t {
	case 'f':
		b[0] = '-'
	case 'U':
		b[0] = '?'
	default:
		b[0] = t
	}
	u := unixMode(m)
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if u&(1<<(8-i)) != 0 {
			b[1+i] = rwx[i]
		} else {
			b[1+i] = '-'
		}
	}
	special := func(pos int, bit uint32, set, unset byte) {
		if u&bit != 0 {
			if b[pos] == 'x' {
				b[pos] = set
			} else {
				b[pos] = unset
			}
		}
	}
	special(3, 0o4000, 's', 'S')
	special(6, 0o2000, 's', 'S')
	special(9, 0o1000, 't', 'T')
	return string(b[:])
}

// parseMode reads an octal or symbolic mode (chmod syntax) and returns
// the mode it gives when applied to 0, as find's -perm computes it.
func parseMode(s string) (uint32, bool) {
	if s == "" {
		return 0, false
	}
	if s[0] >= '0' && s[0] <= '7' {
		var v uint32
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '7' {
				return 0, false
			}
			v = v*8 + uint32(s[i]-'0')
			if v > 0o7777 {
				return 0, false
			}
		}
		return v, true
	}
	var mode uint32
	for _, clause := range strings.Split(s, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
			i++
		}
		if who == 0 {
			who = 0o7777
		}
		if i >= len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, false
			}
			i++
			var perm uint32
			if i < len(clause) && strings.IndexByte("ugo", clause[i]) >= 0 {
				var src uint32
				switch clause[i] {
				case 'u':
					src = (mode >> 6) & 7
				case 'g':
					src = (mode >> 3) & 7
				case 'o':
					src = mode & 7
				}
				perm = src<<6 | src<<3 | src
				i++
			} else {
				for i < len(clause) && strings.IndexByte("rwxXst", clause[i]) >= 0 {
					switch clause[i] {
					case 'r':
						perm |= 0o444
					case 'w':
						perm |= 0o222
					case 'x':
						perm |= 0o111
					case 'X':
						if mode&0o111 != 0 {
							perm |= 0o111
						}
					case 's':
						perm |= 0o6000
					case 't':
						perm |= 0o1000
					}
					i++
				}
			}
			perm &= who
			switch op {
			case '+':
				mode |= perm
			case '-':
				mode &^= perm
			case '=':
				mode = mode&^(who&0o777|who&0o7000) | perm
			}
		}
	}
	return mode, true
}
