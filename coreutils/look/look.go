// Package look implements util-linux look: print the lines of a sorted
// file that begin with a string, found by the same binary search, so an
// unsorted file gives the same (partial) answer as the real tool.
package look

import (
	"bytes"
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `
Usage:
 look [options] <string> [<file>...]

Display lines beginning with a specified string.

Options:
 -a, --alternative        use the alternative dictionary
 -d, --alphanum           compare only blanks and alphanumeric characters
 -f, --ignore-case        ignore case differences when comparing
 -t, --terminate <char>   define the string-termination character

 -h, --help               display this help
 -V, --version            display version

For more details see look(1).
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "alternative"}, {Short: 'd', Long: "alphanum"},
	{Short: 'f', Long: "ignore-case"}, {Short: 't', Long: "terminate", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
}}

// The dictionaries look reads when no file is named.
const (
	wordsFile = "/usr/share/dict/words"
	web2File  = "/usr/share/dict/web2"
)

type looker struct {
	key         []byte
	fold, alnum bool
}

// Run is the look command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	l := looker{}
	file := wordsFile
	var term byte
	for _, o := range opts {
		switch o.Key {
		case "alternative":
			file = web2File
		case "alphanum":
			l.alnum = true
		case "ignore-case":
			l.fold = true
		case "terminate":
			term = o.Value[0]
		case "help":
			return textfmt.Help(c, helpText)
		case "version":
			fmt.Fprintf(c.Stdout, "look from util-linux 2.38.1\n")
			return 0
		}
	}
	switch len(operands) {
	case 1:
		l.fold, l.alnum = true, true
	case 2:
		file = operands[1]
	default:
		c.Errorf("bad usage")
		return c.TryHelp(1)
	}
	l.key = []byte(operands[0])
	if term != 0 {
		if i := bytes.IndexByte(l.key, term); i >= 0 {
			l.key = l.key[:i+1]
		}
	}
	if l.fold {
		l.key = bytes.ToLower(l.key)
	}
	if l.alnum {
		// The key loses what the lines lose.
		l.key = bytes.Map(func(r rune) rune {
			if r < 0x80 && (isAlnum(byte(r)) || r == ' ' || r == '\t') {
				return r
			}
			return -1
		}, l.key)
	}
	f, err := c.Open(file)
	if err != nil {
		return c.FileError(file, err, 1)
	}
	data, err := c.ReadAll(ctx, f)
	f.Close()
	if err != nil {
		return c.FileError(file, err, 1)
	}
	out := textfmt.NewOutput(c.Stdout)
	found := l.look(data, out)
	status := 1
	if found {
		status = 0
	}
	return out.Finish(c, status)
}

// Results of comparing the key with a line.
const (
	less = iota
	equal
	greater
)

// compare compares the key with the line at data[p:], as look.c does:
// the line's first len(key) kept bytes against the key.
func (l *looker) compare(data []byte, p int) int {
	buf := make([]byte, 0, len(l.key))
	for ; p < len(data) && data[p] != '\n' && len(buf) < len(l.key); p++ {
		ch := data[p]
		if !l.alnum || isAlnum(ch) || ch == ' ' || ch == '\t' {
			if l.fold && ch >= 'A' && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			buf = append(buf, ch)
		}
	}
	// strncmp against the key: a shorter line ends with NUL.
	for i := range l.key {
		var b byte
		if i < len(buf) {
			b = buf[i]
		}
		switch {
		case b > l.key[i]:
			return less
		case b < l.key[i]:
			return greater
		}
	}
	return equal
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func skipLine(data []byte, p int) int {
	for p < len(data) {
		p++
		if data[p-1] == '\n' {
			break
		}
	}
	return p
}

// look runs the binary search, the linear search and the printing.
func (l *looker) look(data []byte, out *textfmt.Output) bool {
	front, back := 0, len(data)
	p := skipLine(data, front+(back-front)/2)
	for p != back {
		if l.compare(data, p) == greater {
			front = p
		} else {
			back = p
		}
		p = skipLine(data, front+(back-front)/2)
	}
	back = len(data)
	for ; front < back; front = skipLine(data, front) {
		switch l.compare(data, front) {
		case equal:
			for front < back && l.compare(data, front) == equal {
				end := bytes.IndexByte(data[front:], '\n')
				if end < 0 {
					end = back - front
				}
				out.Write(data[front : front+end])
				out.WriteByte('\n')
				front += end + 1
			}
			return true
		case less:
			return false
		}
	}
	return false
}
