package interp

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// readOpts is a parsed read command line.
type readOpts struct {
	raw     bool
	nchars  int // -n or -N; -1 when absent
	exact   bool
	delim   byte
	array   string
	prompt  string
	names   []string
	fd      int  // -u; -1 when absent
	handled bool // options the interpreter's read lacks were used
}

func parseRead(args []string) (readOpts, bool) {
	o := readOpts{nchars: -1, delim: '\n', fd: -1}
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'r':
				o.raw = true
			case 's', 'e':
			case 'n', 'N', 'd', 'a', 'p', 't', 'u':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return o, false
					}
					i++
					val = args[i]
				}
				switch c {
				case 'n', 'N':
					n, err := strconv.Atoi(val)
					if err != nil || n < 0 {
						return o, false
					}
					o.nchars, o.exact, o.handled = n, c == 'N', true
				case 'd':
					o.delim, o.handled = 0, true
					if val != "" {
						o.delim = val[0]
					}
				case 'a':
					o.array = val
				case 'p':
					o.prompt = val
				case 'u':
					fd, err := strconv.Atoi(val)
					if err != nil || fd < 0 {
						return o, false
					}
					if fd >= 3 {
						o.fd, o.handled = fd, true
					}
				}
				j = len(a)
			default:
				return o, false
			}
		}
	}
	o.names = args[i:]
	return o, true
}

// readRoute implements read's -n, -N and -d, which the interpreter lacks:
// the input is read here, a byte at a time so that nothing past the
// delimiter is consumed, and the variables are assigned through eval.
func (sh *Shell) readRoute(stdin io.Reader, stderr io.Writer, ifs string, args []string) ([]string, bool) {
	o, ok := parseRead(args)
	if !ok || !o.handled {
		return nil, false
	}
	if o.fd >= 3 {
		f, ok := sh.fds.get(o.fd)
		if !ok {
			fmt.Fprintf(stderr, "bash: read: %d: invalid file descriptor: Bad file descriptor\n", o.fd)
			return []string{"false"}, true
		}
		stdin = f
	}
	var buf []byte
	one := make([]byte, 1)
	status := 0
	for {
		if o.nchars >= 0 && utf8.RuneCount(buf) >= o.nchars {
			break
		}
		if stdin == nil {
			status = 1
			break
		}
		n, err := stdin.Read(one)
		if n == 0 || err != nil && n == 0 {
			status = 1
			break
		}
		c := one[0]
		if c == o.delim && !o.exact {
			break
		}
		if c == '\\' && !o.raw && !o.exact {
			if n, _ := stdin.Read(one); n == 1 {
				if one[0] != '\n' {
					buf = append(buf, one[0])
				}
			}
			continue
		}
		buf = append(buf, c)
	}
	line := string(buf)
	var assigns []string
	switch {
	case o.exact:
		name := "REPLY"
		if len(o.names) > 0 {
			name = o.names[0]
		}
		assigns = append(assigns, name+"="+singleQuote(line))
	case o.array != "":
		var elems []string
		for _, f := range splitIFS(line, ifs, -1) {
			elems = append(elems, singleQuote(f))
		}
		assigns = append(assigns, o.array+"=("+strings.Join(elems, " ")+")")
	case len(o.names) == 0:
		assigns = append(assigns, "REPLY="+singleQuote(line))
	default:
		fields := splitIFS(line, ifs, len(o.names))
		for i, name := range o.names {
			v := ""
			if i < len(fields) {
				v = fields[i]
			}
			assigns = append(assigns, name+"="+singleQuote(v))
		}
	}
	src := strings.Join(assigns, "; ")
	if status != 0 {
		src += "; false"
	}
	return []string{"eval", src}, true
}

// splitIFS splits s into at most n fields by IFS as read does: IFS
// whitespace is trimmed and collapses; the last field keeps the rest.
func splitIFS(s, ifs string, n int) []string {
	isWS := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	isSep := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	var fields []string
	i := 0
	for i < len(s) && isWS(s[i]) {
		i++
	}
	for i < len(s) {
		if n > 0 && len(fields) == n-1 {
			rest := s[i:]
			for len(rest) > 0 && isWS(rest[len(rest)-1]) {
				rest = rest[:len(rest)-1]
			}
			fields = append(fields, rest)
			return fields
		}
		j := i
		for j < len(s) && !isSep(s[j]) {
			j++
		}
		fields = append(fields, s[i:j])
		for j < len(s) && isWS(s[j]) {
			j++
		}
		if j < len(s) && isSep(s[j]) && !isWS(s[j]) {
			j++
			for j < len(s) && isWS(s[j]) {
				j++
			}
		}
		i = j
	}
	return fields
}
