package interp

import (
	"strconv"
	"strings"
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
