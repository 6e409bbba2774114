package interp

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// bashPrintf formats like bash's printf builtin: the format is reused until
// the arguments run out, numeric arguments accept 'c for a character code,
// and %b, %q and the float verbs work. It returns the exit status.
func bashPrintf(w io.Writer, errw io.Writer, format string, args []string) int {
	status := 0
	var out strings.Builder
	first := true
	for first || len(args) > 0 {
		first = false
		consumed := false
		stop := false
		for i := 0; i < len(format) && !stop; i++ {
			ch := format[i]
			if ch == '\\' {
				s, n, _ := unescape(format[i:], false)
				out.WriteString(s)
				i += n - 1
				continue
			}
			if ch != '%' {
				out.WriteByte(ch)
				continue
			}
			if i+1 < len(format) && format[i+1] == '%' {
				out.WriteByte('%')
				i++
				continue
			}
			// %[flags][width][.prec]verb
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			spec := format[i:j]
			next := func() (string, bool) {
				if len(args) == 0 {
					return "", false
				}
				a := args[0]
				args = args[1:]
				consumed = true
				return a, true
			}
			for _, part := range []string{"width", "prec"} {
				if part == "prec" {
					if j < len(format) && format[j] == '.' {
						spec += "."
						j++
					} else {
						break
					}
				}
				if j < len(format) && format[j] == '*' {
					a, _ := next()
					n, _ := strconv.Atoi(strings.TrimSpace(a))
					spec += strconv.Itoa(n)
					j++
					continue
				}
				k := j
				for k < len(format) && format[k] >= '0' && format[k] <= '9' {
					k++
				}
				spec += format[j:k]
				j = k
			}
			if j >= len(format) {
				fmt.Fprintf(errw, "bash: printf: `%s': missing format character\n", format[i:])
				return 1
			}
			verb := format[j]
			i = j
			arg, _ := next()
			switch verb {
			case 's':
				out.WriteString(fmt.Sprintf(spec+"s", arg))
			case 'b':
				s, _, stopped := unescape(arg, true)
				out.WriteString(fmt.Sprintf(spec+"s", s))
				if stopped {
					stop = true
					args = nil
				}
			case 'q':
				out.WriteString(fmt.Sprintf(spec+"s", shellQuote(arg)))
			case 'c':
				r := ""
				if arg != "" {
					_, size := utf8.DecodeRuneInString(arg)
					r = arg[:size]
				}
				out.WriteString(fmt.Sprintf(spec+"s", r))
			case 'd', 'i':
				n, ok := parseInt(arg)
				if !ok {
					fmt.Fprintf(errw, "bash: printf: %s: invalid number\n", arg)
					status = 1
				}
				out.WriteString(fmt.Sprintf(spec+"d", n))
			case 'u', 'o', 'x', 'X':
				n, ok := parseInt(arg)
				if !ok {
					fmt.Fprintf(errw, "bash: printf: %s: invalid number\n", arg)
					status = 1
				}
				v := verb
				if v == 'u' {
					v = 'd'
				}
				out.WriteString(fmt.Sprintf(spec+string(v), uint64(n)))
			case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
				f, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
				if arg == "" {
					f, err = 0, nil
				} else if n, ok := charCode(arg); ok {
					f, err = float64(n), nil
				}
				if err != nil {
					fmt.Fprintf(errw, "bash: printf: %s: invalid number\n", arg)
					status = 1
				}
				v := verb
				if v == 'F' {
					v = 'f'
				}
				s := fmt.Sprintf(spec+string(v), f)
				if verb == 'a' || verb == 'A' {
					s = fmt.Sprintf(spec+"x", f)
				}
				out.WriteString(s)
			default:
				fmt.Fprintf(errw, "bash: printf: `%c': invalid format character\n", verb)
				io.WriteString(w, out.String())
				return 1
			}
		}
		if !consumed || stop {
			break
		}
	}
	io.WriteString(w, out.String())
	return status
}

func charCode(a string) (int64, bool) {
	if len(a) > 0 && (a[0] == '\'' || a[0] == '"') {
		if len(a) == 1 {
			return 0, true
		}
		r, _ := utf8.DecodeRuneInString(a[1:])
		return int64(r), true
	}
	return 0, false
}

func parseInt(a string) (int64, bool) {
	if n, ok := charCode(a); ok {
		return n, true
	}
	s := strings.TrimSpace(a)
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		// bash accepts 0x.., 0.. (octal) and leading +/-; ParseInt base 0
		// covers those; anything else is invalid but prints the prefix.
		return 0, false
	}
	return n, true
}

// unescape expands backslash escapes at the start of s (format mode) or
// in all of s (%b mode, where \c stops all output). It returns the text,
// the bytes consumed and whether \c was met.
func unescape(s string, all bool) (string, int, bool) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		if s[i] != '\\' || i+1 >= len(s) {
			if !all {
				b.WriteByte(s[i])
				return b.String(), i + 1, false
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		c := s[i+1]
		i += 2
		switch c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\':
			b.WriteByte('\\')
		case '"':
			b.WriteByte('"')
		case '\'':
			b.WriteByte('\'')
		case 'c':
			if all {
				return b.String(), i, true
			}
			b.WriteString("\\c")
		case 'x':
			n, k := digits(s[i:], 16, 2)
			if k == 0 {
				b.WriteString("\\x")
			} else {
				b.WriteByte(byte(n))
				i += k
			}
		case 'u', 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			n, k := digits(s[i:], 16, max)
			if k == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
			} else {
				b.WriteRune(rune(n))
				i += k
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// \NNN in a format, \0NNN in %b.
			start := i - 1
			max := 3
			if all && c == '0' {
				start, max = i, 3
			}
			n, k := digits(s[start:], 8, max)
			b.WriteByte(byte(n))
			i = start + k
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
		if !all {
			return b.String(), i, false
		}
	}
	return b.String(), i, false
}

func digits(s string, base, max int) (int, int) {
	n, k := 0, 0
	for k < len(s) && k < max {
		d := strings.IndexByte("0123456789abcdef", lower(s[k]))
		if d < 0 || d >= base {
			break
		}
		n = n*base + d
		k++
	}
	return n, k
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

// shellQuote quotes s the way bash's printf %q does.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return ansiQuote(s)
		}
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r >= 0x80:
		case strings.ContainsRune("_-./:,=+@%^", r):
		case (r == '~' || r == '#') && i > 0:
		default:
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// singleQuote quotes s for re-parsing by the shell.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
