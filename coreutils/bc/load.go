package bc

import "strconv"

// function is a bc function: main is function 0. Its code is the byte
// code GNU bc's loader produces, so that run-time error addresses match.
type function struct {
	name    string
	defined bool
	void    bool
	code    []byte
	labels  map[int]int
	params  []param // in the loader's (reversed) order
	autos   []param
	native  func(v *vm, args []num) num
}

// param is a parameter or auto variable: a simple variable index, or an
// array index (array true); byRef marks *name[] parameters.
type param struct {
	id    int
	array bool
	byRef bool
}

// loader turns the textual code the parser generates into byte code, as
// GNU bc's load_code does.
type loader struct {
	prog     *program
	fn       int // function being loaded
	saveFn   int
	inString bool
	inConst  bool
	disabled func() bool // true after an error: nothing more is loaded
}

func (ld *loader) add(b byte) {
	if ld.disabled() {
		return
	}
	f := ld.prog.funcs[ld.fn]
	f.code = append(f.code, b)
}

func readInt(s string, i *int) int {
	neg := false
	if *i < len(s) && s[*i] == '-' {
		neg = true
		*i++
	}
	v := 0
	for *i < len(s) && s[*i] >= '0' && s[*i] <= '9' {
		v = v*10 + int(s[*i]-'0')
		*i++
	}
	if neg {
		return -v
	}
	return v
}

func (ld *loader) addIndex(v int) {
	if v < 128 {
		ld.add(byte(v))
	} else {
		ld.add(byte(v>>8&0xff | 0x80))
		ld.add(byte(v & 0xff))
	}
}

// load processes one generated code string.
func (ld *loader) load(code string) {
	for i := 0; i < len(code); {
		if ld.disabled() {
			return
		}
		c := code[i]
		if ld.inString {
			if c == '"' {
				ld.inString = false
			}
			ld.add(c)
			i++
			continue
		}
		if ld.inConst {
			switch {
			case c == '\n':
			case c == ':':
				ld.inConst = false
				ld.add(c)
			case c == '.':
				ld.add(c)
			case c >= 'A':
				ld.add(c + 10 - 'A')
			default:
				ld.add(c - '0')
			}
			i++
			continue
		}
		switch c {
		case '"':
			ld.inString = true
		case 'N':
			i++
			lab := readInt(code, &i)
			f := ld.prog.funcs[ld.fn]
			if f.labels == nil {
				f.labels = map[int]int{}
			}
			f.labels[lab] = len(f.code)
		case 'B', 'J', 'Z':
			ld.add(c)
			i++
			lab := readInt(code, &i)
			ld.add(byte(lab & 0xff))
			ld.add(byte(lab >> 8))
		case 'F':
			i++
			fn := readInt(code, &i)
			ld.prog.clearFunc(fn)
			f := ld.prog.funcs[fn]
			// parameters up to '.', autos up to '['
			i++ // ','
			for i < len(code) && code[i] != '.' {
				if code[i] == ',' {
					i++
					continue
				}
				byRef := false
				if code[i] == '*' {
					byRef = true
					i++
				}
				v := readInt(code, &i)
				p := param{id: v, byRef: byRef}
				if v < 0 {
					p.id, p.array = -v, true
				}
				f.params = append([]param{p}, f.params...)
			}
			i++ // '.'
			for i < len(code) && code[i] != '[' {
				if code[i] == ',' {
					i++
					continue
				}
				v := readInt(code, &i)
				p := param{id: v}
				if v < 0 {
					p.id, p.array = -v, true
				}
				f.autos = append([]param{p}, f.autos...)
			}
			ld.saveFn = ld.fn
			ld.fn = fn
		case ']':
			ld.prog.funcs[ld.fn].defined = true
			ld.fn = ld.saveFn
		case 'C':
			ld.add(c)
			i++
			fn := readInt(code, &i)
			ld.addIndex(fn)
			if i < len(code) && code[i] == ',' {
				i++
			}
			for i < len(code) && code[i] != ':' {
				ld.add(code[i])
				i++
			}
			ld.add(':')
		case 'c':
			ld.add(c)
			i++
			ld.add(code[i])
		case 'K':
			ld.add(c)
			ld.inConst = true
		case 'd', 'i', 'l', 's', 'A', 'M', 'L', 'S':
			ld.add(c)
			i++
			ld.addIndex(readInt(code, &i))
			// the ':' after the number is skipped below
		case '\n':
		default:
			ld.add(c)
		}
		i++
	}
}

func itoa(v int) string { return strconv.Itoa(v) }
