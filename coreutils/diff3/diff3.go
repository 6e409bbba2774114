// Package diff3 implements GNU diff3 (diffutils 3.8): a three-way
// comparison of MYFILE, OLDFILE and YOURFILE on the sandbox's GNU diff
// engine, printed as diff3's report, as ed scripts (-e -E -A -3 -x -X) or
// as a merged file with conflict markers (-m).
package diff3

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: diff3 [OPTION]... MYFILE OLDFILE YOURFILE
Compare three files line by line.

Mandatory arguments to long options are mandatory for short options too.
  -A, --show-all              output all changes, bracketing conflicts

  -e, --ed                    output ed script incorporating changes
                                from OLDFILE to YOURFILE into MYFILE
  -E, --show-overlap          like -e, but bracket conflicts
  -3, --easy-only             like -e, but incorporate only nonoverlapping changes
  -x, --overlap-only          like -e, but incorporate only overlapping changes
  -X                          like -x, but bracket conflicts
  -i                          append 'w' and 'q' commands to ed scripts

  -m, --merge                 output actual merged file, according to
                                -A if no other options are given

  -a, --text                  treat all files as text
      --strip-trailing-cr     strip trailing carriage return on input
  -T, --initial-tab           make tabs line up by prepending a tab
      --diff-program=PROGRAM  use PROGRAM to compare files
  -L, --label=LABEL           use LABEL instead of file name
                                (can be repeated up to three times)

      --help                  display this help and exit
  -v, --version               output version information and exit

The default output format is a somewhat human-readable representation of
the changes.

The -e, -E, -x, -X (and corresponding long) options cause an ed script
to be output instead of the default.

Finally, the -m (--merge) option causes diff3 to do the merge internally
and output the actual merged file.  For unusual input, this is more
robust than using ed.

If a FILE is '-', read standard input.
Exit status is 0 if successful, 1 if conflicts, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'A', Long: "show-all"}, {Short: 'e', Long: "ed"}, {Short: 'E', Long: "show-overlap"},
	{Short: '3', Long: "easy-only"}, {Short: 'x', Long: "overlap-only"}, {Short: 'X'},
	{Short: 'i'}, {Short: 'm', Long: "merge"}, {Short: 'a', Long: "text"},
	{Long: "strip-trailing-cr"}, {Short: 'T', Long: "initial-tab"},
	{Long: "diff-program", Arg: builtins.RequiredArg},
	{Short: 'L', Long: "label", Arg: builtins.RequiredArg},
	{Long: "help"}, {Short: 'v', Long: "version"},
}}

// mode is the output the options select.
type mode struct {
	ed, merge           bool
	flagging, show2nd   bool // bracket conflicts; show OLDFILE's text too
	simpleOnly, overlap bool // -3; -x/-X
	finalWQ, tab        bool
	labels              [3]string
}

func tryHelp(c *builtins.Call) int { return c.TryHelpNamed(2) }

// Run is the diff3 command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		return tryHelp(c)
	}
	var m mode
	nlabels, incompat, stripCR := 0, 0, false
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText)
		case "version":
			fmt.Fprintf(c.Stdout, "diff3 (GNU diffutils) 3.8\n")
			return 0
		case "show-all":
			m.ed, m.flagging, m.show2nd = true, true, true
			incompat++
		case "ed":
			m.ed = true
			incompat++
		case "show-overlap":
			m.ed, m.flagging = true, true
			incompat++
		case "easy-only":
			m.ed, m.simpleOnly = true, true
			incompat++
		case "overlap-only":
			m.ed, m.overlap = true, true
			incompat++
		case "X":
			// diffutils 3.8 prints -X's script without the brackets
			// its help promises, the same as -x.
			m.ed, m.overlap = true, true
			incompat++
		case "i":
			m.finalWQ = true
		case "merge":
			m.merge = true
		case "initial-tab":
			m.tab = true
		case "strip-trailing-cr":
			stripCR = true
		case "label":
			if nlabels == 3 {
				c.Errorf("too many file label options")
				return tryHelp(c)
			}
			m.labels[nlabels] = o.Value
			nlabels++
		}
	}
	if incompat > 1 {
		c.Errorf("incompatible options")
		return tryHelp(c)
	}
	if m.merge && incompat == 0 {
		m.ed, m.flagging, m.show2nd = true, true, true
	}
	if m.finalWQ && m.merge {
		c.Errorf("incompatible options")
		return tryHelp(c)
	}
	switch {
	case len(operands) < 3:
		if len(operands) == 0 {
			c.Errorf("missing operand after '%s'", c.Name())
		} else {
			c.Errorf("missing operand after '%s'", operands[len(operands)-1])
		}
		return tryHelp(c)
	case len(operands) > 3:
		c.Errorf("extra operand '%s'", operands[3])
		return tryHelp(c)
	}
	for i := nlabels; i < 3; i++ {
		m.labels[i] = operands[i]
	}
	var files [3]*gnudiff.File
	stdinUsed := false
	for i, name := range operands {
		var data []byte
		if name == "-" {
			if stdinUsed {
				data = nil
			} else {
				data, err = c.ReadAll(ctx, c.Stdin)
				stdinUsed = true
			}
		} else {
			var f interface{ Close() error }
			fh, oerr := c.Open(name)
			if oerr != nil {
				c.Errorf("%s: %s", name, builtins.ErrText(oerr))
				return 2
			}
			f = fh
			if fi, serr := fh.Stat(); serr == nil && fi.IsDir() {
				f.Close()
				c.Errorf("%s: Is a directory", name)
				return 2
			}
			data, err = c.ReadAll(ctx, fh)
			f.Close()
		}
		if err != nil {
			c.Errorf("%s: %s", name, builtins.ErrText(err))
			return 2
		}
		if stripCR {
			data = []byte(strings.ReplaceAll(string(data), "\r\n", "\n"))
		}
		files[i] = gnudiff.NewFile(data)
	}
	opt := gnudiff.Options{Robust: true, Horizon: 100}
	d0, err := twoWay(ctx, files[0], files[1], opt)
	if err != nil {
		return 2
	}
	d1, err := twoWay(ctx, files[2], files[1], opt)
	if err != nil {
		return 2
	}
	blocks := threeWay(d0, d1, files)
	out := textfmt.NewOutput(c.Stdout)
	status := 0
	switch {
	case m.merge:
		status = m.writeMerge(out, blocks, files)
	case m.ed:
		status = m.writeEd(out, blocks, files)
	default:
		m.writeNormal(out, blocks, files)
	}
	return out.Finish(c, status)
}
