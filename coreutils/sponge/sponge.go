// Package sponge implements moreutils sponge: soak up all of standard
// input, then write it to a file (or standard output), so a pipeline can
// read and rewrite the same file.
package sponge

import (
	"context"
	"fmt"
	"os"

	"github.com/bashbox/bashbox/builtins"
)

var options = builtins.Options{List: []builtins.Option{{Short: 'a'}, {Short: 'h'}}}

// Run is the sponge command.
func Run(ctx context.Context, c *builtins.Call) int {
	appendMode := false
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		// moreutils reports the bad option and carries on.
		c.Errorf("%s", err.Error())
		opts, operands = nil, nonOptions(c.Args[1:])
	}
	for _, o := range opts {
		switch o.Key {
		case "a":
			appendMode = true
		case "h":
			fmt.Fprintf(c.Stderr, "sponge [-a] <file>: soak up all input from stdin and write it to <file>\n")
			return 0
		}
	}
	data, err := c.ReadAll(ctx, c.Stdin)
	if err != nil {
		c.Errorf("failed to read from stdin: %s", builtins.ErrText(err))
		return 1
	}
	if len(operands) == 0 {
		if _, err := c.Stdout.Write(data); err != nil && !builtins.IsBrokenPipe(err) {
			fmt.Fprintf(c.Stderr, "error writing buffer to output file: %s\n", builtins.ErrText(err))
			return 1
		}
		return 0
	}
	// Only the first operand is written, as moreutils does.
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := c.OpenFile(operands[0], flag, 0o666&^c.Umask)
	if err != nil {
		fmt.Fprintf(c.Stderr, "error opening output file: %s\n", builtins.ErrText(err))
		return 1
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		fmt.Fprintf(c.Stderr, "error writing buffer to output file: %s\n", builtins.ErrText(werr))
		return 1
	}
	return 0
}

// nonOptions is what getopt leaves as operands after a bad option.
func nonOptions(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
		}
	}
	return out
}
