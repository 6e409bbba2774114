// Package rm implements rm: remove files or directories.
package rm

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively; less intrusive than -i,
                          while still giving protection against most mistakes
      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or
                          always (-i); without WHEN, prompt always
      --one-file-system  when removing a hierarchy recursively, skip any
                          directory that is on a file system different from
                          that of the corresponding command line argument
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default)
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help        display this help and exit
      --version     output version information and exit

By default, rm does not remove directories.  Use the --recursive (-r or -R)
option to remove each listed directory, too, along with all of its contents.
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'f', Long: "force"},
	{Short: 'i'},
	{Short: 'I'},
	{Long: "interactive", Arg: builtins.OptionalArg},
	{Long: "one-file-system"},
	{Long: "no-preserve-root"},
	{Long: "preserve-root", Arg: builtins.OptionalArg},
	{Short: 'r', Long: "recursive"},
	{Short: 'R'},
	{Short: 'd', Long: "dir"},
	{Short: 'v', Long: "verbose"},
	{Long: "presume-input-tty"},
}}

const (
	never = iota
	once
	always
)

var interactiveChoices = []argmatch.Choice{
	{Names: []string{"never", "no", "none"}, Value: never},
	{Names: []string{"once"}, Value: once},
	{Names: []string{"always", "yes"}, Value: always},
}

// Run is the rm command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	q := quote.New(c)
	out := fileops.NewOutput(c)
	r := &fileops.Remover{C: c, Ctx: ctx, Q: q, Out: out.Writer, Prompt: fileops.NewPrompter(c), PreserveRoot: true}
	interactive := never
	for _, o := range opts {
		switch o.Key {
		case "force":
			interactive = never
			r.Force = true
		case "i":
			interactive = always
		case "I":
			interactive = once
		case "interactive":
			if !o.Has {
				interactive = always
				break
			}
			v, ok := argmatch.Get(c, o.Value, "--interactive", interactiveChoices, 1)
			if !ok {
				return 1
			}
			interactive = v
		case "no-preserve-root":
			r.PreserveRoot = false
		case "preserve-root":
			if o.Has && o.Value != "all" {
				c.Errorf("unrecognized --preserve-root argument: %s", q.AF(o.Value))
				return 1
			}
			r.PreserveRoot = true
		case "recursive", "R":
			r.Recursive = true
		case "dir":
			r.EmptyDirs = true
		case "verbose":
			r.Verbose = true
		}
	}
	if len(operands) == 0 {
		if r.Force {
			return 0
		}
		return fileops.UsageErr(c, "missing operand")
	}
	r.Ask = interactive == always
	if interactive == once && (r.Recursive || len(operands) > 3) {
		n := len(operands)
		args := "arguments"
		if n == 1 {
			args = "argument"
		}
		var ok bool
		if r.Recursive {
			ok = r.Prompt.Ask("remove %d %s recursively? ", n, args)
		} else {
			ok = r.Prompt.Ask("remove %d %s? ", n, args)
		}
		if !ok {
			return 0
		}
	}
	ok := true
	for _, name := range operands {
		if ctx.Err() != nil {
			ok = false
			break
		}
		if !r.Remove(name) {
			ok = false
		}
	}
	return out.FinishOK(ok)
}
