package fileops

import (
	"bufio"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
)

// Prompter asks yes/no questions on standard error and reads the answers
// from standard input, one line each, as GNU's yesno() does when standard
// input is not a terminal.
type Prompter struct {
	c *builtins.Call
	r *bufio.Reader
}

// NewPrompter returns a prompter for the call.
func NewPrompter(c *builtins.Call) *Prompter { return &Prompter{c: c} }

// Ask prints "NAME: question" and reports whether the answer starts with
// y or Y. End of input means no.
func (p *Prompter) Ask(format string, args ...any) bool {
	fmt.Fprintf(p.c.Stderr, "%s: %s", p.c.Name(), fmt.Sprintf(format, args...))
	if p.c.Stdin == nil {
		return false
	}
	if p.r == nil {
		p.r = bufio.NewReaderSize(p.c.Stdin, 4096)
	}
	line, err := p.r.ReadString('\n')
	if line == "" && err != nil {
		return false
	}
	return line[0] == 'y' || line[0] == 'Y'
}
