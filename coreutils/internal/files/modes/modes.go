// Package modes parses file mode changes as chmod(1) takes them (octal
// numbers and symbolic clauses like u+x,go-w,a=rX) and applies them to a
// 12-bit permission value, the way gnulib's modechange does.
package modes

import "errors"

// ErrInvalid is a mode that does not parse.
var ErrInvalid = errors.New("invalid mode")

const (
	setUID    = 0o4000
	setGID    = 0o2000
	sticky    = 0o1000
	userBits  = 0o4700
	groupBits = 0o2070
	otherBits = 0o1007
	allBits   = 0o7777
)

type change struct {
	op       byte   // '+', '-', '='
	who      uint32 // affected bits (0 when "who" was omitted: all, less the umask)
	value    uint32 // bits, for letter perms
	copyFrom byte   // 'u', 'g', 'o' for copies; 0 otherwise
	condX    bool   // X
	octal    bool
	digits   int // octal digit count
}

// Change is a parsed mode argument.
type Change struct {
	changes []change
}

// Parse reads a mode argument.
func Parse(s string) (*Change, error) {
	if s == "" {
		return nil, ErrInvalid
	}
	if isOctal(s) {
		var v uint32
		for i := 0; i < len(s); i++ {
			v = v*8 + uint32(s[i]-'0')
			if v > allBits {
				return nil, ErrInvalid
			}
		}
		return &Change{[]change{{op: '=', who: allBits, value: v, octal: true, digits: len(s)}}}, nil
	}
	c := &Change{}
	i := 0
	for {
		var who uint32
		whoGiven := false
		for i < len(s) {
			switch s[i] {
			case 'u':
				who |= userBits
			case 'g':
				who |= groupBits
			case 'o':
				who |= otherBits
			case 'a':
				who |= allBits
			default:
				goto ops
			}
			whoGiven = true
			i++
		}
	ops:
		if i >= len(s) || s[i] != '+' && s[i] != '-' && s[i] != '=' {
			return nil, ErrInvalid
		}
		for i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] == '=') {
			ch := change{op: s[i]}
			if whoGiven {
				ch.who = who
			}
			i++
			if i < len(s) && (s[i] == 'u' || s[i] == 'g' || s[i] == 'o') {
				ch.copyFrom = s[i]
				i++
			} else {
				for i < len(s) {
					switch s[i] {
					case 'r':
						ch.value |= 0o444
					case 'w':
						ch.value |= 0o222
					case 'x':
						ch.value |= 0o111
					case 'X':
						ch.condX = true
					case 's':
						ch.value |= setUID | setGID
					case 't':
						ch.value |= sticky
					default:
						goto done
					}
					i++
				}
			}
		done:
			c.changes = append(c.changes, ch)
		}
		if i == len(s) {
			return c, nil
		}
		if s[i] != ',' {
			return nil, ErrInvalid
		}
		i++
	}
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

// Apply returns the new permission bits for a file whose bits are old;
// umask applies to clauses that name no "who".
func (c *Change) Apply(old uint32, isDir bool, umask uint32) uint32 {
	mode := old & allBits
	for _, ch := range c.changes {
		if ch.octal {
			v := ch.value
			if isDir && ch.digits < 5 {
				// Directories keep set-user/group-ID unless the number
				// says otherwise.
				v |= mode & (setUID | setGID)
			}
			mode = v
			continue
		}
		who := ch.who
		effective := who
		if who == 0 {
			who = allBits
			effective = allBits &^ umask
		}
		var value uint32
		if ch.copyFrom != 0 {
			var bits uint32
			switch ch.copyFrom {
			case 'u':
				bits = mode >> 6 & 7
			case 'g':
				bits = mode >> 3 & 7
			case 'o':
				bits = mode & 7
			}
			value = bits<<6 | bits<<3 | bits
		} else {
			value = ch.value
			if ch.condX && (isDir || mode&0o111 != 0) {
				value |= 0o111
			}
		}
		// s and t only mean something for the classes they belong to.
		value &= who
		if who&0o700 == 0 {
			value &^= setUID
		}
		if who&0o070 == 0 {
			value &^= setGID
		}
		if who&0o007 == 0 {
			value &^= sticky
		}
		value &= effective
		switch ch.op {
		case '+':
			mode |= value
		case '-':
			mode &^= value
		case '=':
			clear := who
			if ch.who == 0 {
				clear = allBits
			}
			if isDir {
				// '=' leaves a directory's set-ID bits alone unless it
				// names them.
				clear &^= (setUID | setGID) &^ (ch.value & (setUID | setGID))
			}
			mode = mode&^clear | value
		}
	}
	return mode
}

// String renders bits as ls does, without the type letter ("rwxr-xr-x").
func String(m uint32) string {
	b := []byte("rwxrwxrwx")
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) == 0 {
			b[i] = '-'
		}
	}
	set := func(i int, on bool, lower, upper byte) {
		if !on {
			return
		}
		if b[i] == 'x' {
			b[i] = lower
		} else {
			b[i] = upper
		}
	}
	set(2, m&setUID != 0, 's', 'S')
	set(5, m&setGID != 0, 's', 'S')
	set(8, m&sticky != 0, 't', 'T')
	return string(b)
}
