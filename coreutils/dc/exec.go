package dc

import (
	"math/big"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

// frame is a macro being run.
type frame struct {
	text string
	pos  int
}

func isDigit(ch byte) bool { return ch >= '0' && ch <= '9' || ch >= 'A' && ch <= 'F' }

// readNumber parses a number at text[pos:] in the input base.
func (m *machine) readNumber(text string, pos int) (bcnum.Num, int) {
	neg := false
	if text[pos] == '_' {
		neg = true
		pos++
	}
	ip := new(big.Int)
	base := big.NewInt(int64(m.ibase))
	for pos < len(text) && isDigit(text[pos]) {
		ip.Mul(ip, base)
		ip.Add(ip, big.NewInt(int64(digitVal(text[pos]))))
		pos++
	}
	n := bcnum.Num{V: ip}
	if pos < len(text) && text[pos] == '.' {
		pos++
		num, den := new(big.Int), big.NewInt(1)
		k := 0
		for pos < len(text) && isDigit(text[pos]) {
			num.Mul(num, base)
			num.Add(num, big.NewInt(int64(digitVal(text[pos]))))
			den.Mul(den, base)
			k++
			pos++
		}
		frac, _ := bcnum.Div(bcnum.Num{V: num}, bcnum.Num{V: den}, k)
		n = bcnum.Add(n, frac, 0)
	}
	if neg {
		n.V.Neg(n.V)
	}
	return n, pos
}

func digitVal(ch byte) int {
	if ch <= '9' {
		return int(ch - '0')
	}
	return int(ch-'A') + 10
}

// exec runs text until it ends or q/Q leave it.
func (m *machine) exec(text string, _ int) {
	frames := []frame{{text: text}}
	for len(frames) > 0 && !m.quit {
		if m.ctx.Err() != nil {
			m.quit = true
			return
		}
		f := &frames[len(frames)-1]
		if f.pos >= len(f.text) {
			frames = frames[:len(frames)-1]
			continue
		}
		ch := f.text[f.pos]
		f.pos++
		if isDigit(ch) || ch == '_' || ch == '.' {
			n, p := m.readNumber(f.text, f.pos-1)
			f.pos = p
			m.pushNum(n)
			continue
		}
		run := ""  // a macro to run next
		leave := 0 // frames to leave (q, Q)
		switch ch {
		case ' ', '\t', '\n', '\r':
		case '#':
			for f.pos < len(f.text) && f.text[f.pos] != '\n' {
				f.pos++
			}
		case '[':
			depth, start := 1, f.pos
			for f.pos < len(f.text) && depth > 0 {
				switch f.text[f.pos] {
				case '[':
					depth++
				case ']':
					depth--
				}
				f.pos++
			}
			end := f.pos - 1
			if depth > 0 {
				end = f.pos
			}
			m.push(value{s: f.text[start:end], isStr: true})
		case 's', 'l', 'S', 'L', ':', ';':
			if f.pos >= len(f.text) {
				m.unimplemented(ch)
				break
			}
			r := f.text[f.pos]
			f.pos++
			m.register(ch, r)
		case '<', '>', '=', '!':
			neg := false
			op := ch
			if ch == '!' {
				if f.pos >= len(f.text) || !strings.ContainsRune("<>=", rune(f.text[f.pos])) {
					// Shell escapes are not available in the sandbox.
					m.unimplemented(ch)
					break
				}
				neg, op = true, f.text[f.pos]
				f.pos++
			}
			if f.pos >= len(f.text) {
				break
			}
			r := f.text[f.pos]
			f.pos++
			if !m.need(2) {
				break
			}
			a, b := m.pop(), m.pop()
			if a.isStr || b.isStr {
				m.errorf("non-numeric value")
				break
			}
			c := bcnum.Cmp(a.n, b.n)
			ok := op == '<' && c < 0 || op == '>' && c > 0 || op == '=' && c == 0
			if ok != neg {
				reg := &m.regs[r]
				if len(reg.stack) == 0 {
					m.errorf("register '%c' (0%o) is empty", r, r)
					break
				}
				if top := reg.stack[len(reg.stack)-1]; top.isStr {
					run = top.s
				} else {
					m.push(top)
				}
			}
		case 'x':
			if !m.need(1) {
				break
			}
			v := m.pop()
			if !v.isStr {
				m.push(v)
				break
			}
			run = v.s
		case '?':
			line, _ := m.stdin.ReadString('\n')
			run = line
		case 'q':
			leave = 2
		case 'Q':
			ns, ok := m.nums(1)
			if !ok {
				break
			}
			leave = int(ns[0].ToLong())
			if leave <= 0 {
				m.errorf("Q command requires a number >= 1")
				leave = 0
			}
		default:
			m.command(ch)
		}
		if leave > 0 {
			if ch == 'q' && len(frames) <= 2 {
				m.quit = true
				return
			}
			frames = frames[:max(len(frames)-leave, 0)]
			if len(frames) == 0 && ch == 'Q' {
				return
			}
			continue
		}
		if run != "" {
			if f.pos >= len(f.text) {
				// A tail call replaces the finished macro.
				frames[len(frames)-1] = frame{text: run}
			} else {
				frames = append(frames, frame{text: run})
			}
		}
	}
}

// register runs the register commands s l S L : ; on register r.
func (m *machine) register(op, r byte) {
	reg := &m.regs[r]
	switch op {
	case 's':
		if !m.need(1) {
			return
		}
		v := m.pop()
		if len(reg.stack) == 0 {
			reg.stack = append(reg.stack, v)
		} else {
			reg.stack[len(reg.stack)-1] = v
		}
	case 'S':
		if !m.need(1) {
			return
		}
		reg.stack = append(reg.stack, m.pop())
		reg.array = nil
	case 'l':
		if len(reg.stack) == 0 {
			m.pushNum(bcnum.Zero)
			return
		}
		m.push(reg.stack[len(reg.stack)-1])
	case 'L':
		if len(reg.stack) == 0 {
			m.errorf("stack register '%c' (0%o) is empty", r, r)
			return
		}
		m.push(reg.stack[len(reg.stack)-1])
		reg.stack = reg.stack[:len(reg.stack)-1]
		reg.array = nil
	case ':':
		if !m.need(2) {
			return
		}
		idx, v := m.pop(), m.pop()
		i := idx.n.ToLong()
		if idx.isStr || i < 0 || i > 2048*1024 {
			m.errorf("array index must be a nonnegative integer")
			return
		}
		if reg.array == nil {
			reg.array = map[int64]value{}
		}
		reg.array[i] = v
	case ';':
		if !m.need(1) {
			return
		}
		idx := m.pop()
		i := idx.n.ToLong()
		if idx.isStr || i < 0 {
			m.errorf("array index must be a nonnegative integer")
			return
		}
		if v, ok := reg.array[i]; ok {
			m.push(v)
		} else {
			m.pushNum(bcnum.Zero)
		}
	}
}
