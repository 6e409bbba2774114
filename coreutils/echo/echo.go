// Package echo is /usr/bin/echo (GNU coreutils): what xargs, find -exec and
// env run, since the shell's echo is a builtin they cannot reach.
package echo

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/internal/printf"
)

const help = `Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
      --version  output version information and exit
`

// Run implements echo.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			fmt.Fprint(c.Stdout, help)
			return 0
		case "--version":
			return c.Version()
		}
	}
	newline, escapes := true, false
	// Leading arguments made only of n, e and E letters are options; any
	// other argument starts the text.
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, f := range args[0][1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	w := bufio.NewWriter(c.Stdout)
	for i, a := range args {
		if i > 0 {
			w.WriteByte(' ')
		}
		if escapes {
			text, stop := expand(a)
			w.WriteString(text)
			if stop {
				return flush(c, w)
			}
			continue
		}
		w.WriteString(a)
	}
	if newline {
		w.WriteByte('\n')
	}
	return flush(c, w)
}

func flush(c *builtins.Call, w *bufio.Writer) int {
	if err := w.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		c.Errorf("write error: %s", builtins.ErrText(err))
		return 1
	}
	return 0
}

// expand interprets echo -e escapes; \c ends all output.
func expand(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if l, ok := printf.Letter(s[i]); ok {
			b.WriteByte(l)
			continue
		}
		switch c := s[i]; c {
		case 'c':
			return b.String(), true
		case '\\':
			b.WriteByte('\\')
		case '0':
			n, k := 0, 0
			for k < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				n = n*8 + int(s[i+1]-'0')
				i++
				k++
			}
			b.WriteByte(byte(n))
		case 'x':
			n, k := 0, 0
			for k < 2 && i+1 < len(s) && isHex(s[i+1]) {
				n = n*16 + printf.DigitVal(s[i+1])
				i++
				k++
			}
			if k == 0 {
				b.WriteString(`\x`)
			} else {
				b.WriteByte(byte(n))
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func isHex(c byte) bool {
	d := printf.DigitVal(c)
	return d >= 0 && d < 16
}
