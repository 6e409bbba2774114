// Package sdiff implements GNU sdiff's side-by-side comparison. Like the
// real sdiff, which runs diff with the side-by-side options, it hands the
// comparison to the sandbox's diff (GNU diff 3.8's -y output); its own
// options map onto diff's (-w is the width here, -W ignores white space).
package sdiff

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/diff"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/internal/lazy"
)

const helpText = `Usage: sdiff [OPTION]... FILE1 FILE2
Side-by-side merge of differences between FILE1 and FILE2.

Mandatory arguments to long options are mandatory for short options too.
  -o, --output=FILE            operate interactively, sending output to FILE

  -i, --ignore-case            consider upper- and lower-case to be the same
  -E, --ignore-tab-expansion   ignore changes due to tab expansion
  -Z, --ignore-trailing-space  ignore white space at line end
  -b, --ignore-space-change    ignore changes in the amount of white space
  -W, --ignore-all-space       ignore all white space
  -B, --ignore-blank-lines     ignore changes whose lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes all whose lines match RE
      --strip-trailing-cr      strip trailing carriage return on input
  -a, --text                   treat all files as text

  -w, --width=NUM              output at most NUM (default 130) print columns
  -l, --left-column            output only the left column of common lines
  -s, --suppress-common-lines  do not output common lines

  -t, --expand-tabs            expand tabs to spaces in output
      --tabsize=NUM            tab stops at every NUM (default 8) print columns

  -d, --minimal                try hard to find a smaller set of changes
  -H, --speed-large-files      assume large files, many scattered small changes
      --diff-program=PROGRAM   use PROGRAM to compare files

      --help                   display this help and exit
  -v, --version                output version information and exit

If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "ignore-case"}, {Short: 'E', Long: "ignore-tab-expansion"},
	{Short: 'Z', Long: "ignore-trailing-space"}, {Short: 'b', Long: "ignore-space-change"},
	{Short: 'W', Long: "ignore-all-space"}, {Short: 'B', Long: "ignore-blank-lines"},
	{Short: 'I', Long: "ignore-matching-lines", Arg: builtins.RequiredArg},
	{Long: "strip-trailing-cr"}, {Short: 'a', Long: "text"},
	{Short: 'w', Long: "width", Arg: builtins.RequiredArg}, {Short: 'l', Long: "left-column"},
	{Short: 's', Long: "suppress-common-lines"}, {Short: 't', Long: "expand-tabs"},
	{Long: "tabsize", Arg: builtins.RequiredArg}, {Short: 'd', Long: "minimal"},
	{Short: 'H', Long: "speed-large-files"}, {Long: "diff-program", Arg: builtins.RequiredArg},
	{Long: "help"}, {Short: 'v', Long: "version"},
}}

// diffFlag maps sdiff's options onto diff's.
var diffFlag = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"ignore-case": "-i", "ignore-tab-expansion": "-E", "ignore-trailing-space": "-Z",
		"ignore-space-change": "-b", "ignore-all-space": "-w", "ignore-blank-lines": "-B",
		"strip-trailing-cr": "--strip-trailing-cr", "text": "-a", "left-column": "--left-column",
		"suppress-common-lines": "--suppress-common-lines", "expand-tabs": "-t",
		"minimal": "-d", "speed-large-files": "-H",
	}
}}

func tryHelp(c *builtins.Call) int { return c.TryHelpNamed(2) }

// Run is the sdiff command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		return tryHelp(c)
	}
	args := []string{"diff", "-y"}
	output := ""
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText)
		case "version":
			fmt.Fprintf(c.Stdout, "sdiff (GNU diffutils) 3.8\n")
			return 0
		case "output":
			output = o.Value
		case "ignore-matching-lines":
			args = append(args, "-I", o.Value)
		case "width":
			args = append(args, "--width="+o.Value)
		case "tabsize":
			args = append(args, "--tabsize="+o.Value)
		case "diff-program":
			// The comparison is always the sandbox's own diff.
		default:
			args = append(args, diffFlag.Get()[o.Key])
		}
	}
	switch len(operands) {
	case 0:
		c.Errorf("missing operand after '%s'", c.Name())
		return tryHelp(c)
	case 1:
		c.Errorf("missing operand after '%s'", operands[0])
		return tryHelp(c)
	case 2:
	default:
		c.Errorf("extra operand '%s'", operands[2])
		return tryHelp(c)
	}
	if output != "" {
		// The interactive merge needs an editor and a terminal dialogue.
		c.Errorf("--output (interactive merging) is not available in the sandbox")
		return 2
	}
	sub := c.Sub(append(append(args, "--"), operands...))
	return diff.Run(ctx, sub)
}
