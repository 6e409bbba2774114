// Package sed implements GNU sed 4.9: the stream editor, with GNU's
// extensions (addresses first~step, addr,+N, addr,~N, 0,/re/; the I and M
// regex flags; one-line a/i/c; e F Q R T v W z commands; \U \L \u \l \E in
// replacements), in-place editing, -s, -z and GNU's exact error messages.
// The e command and the e flag of s are refused: the sandbox runs no
// shell commands.
package sed

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const usageText = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`l'" + ` command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
`

const bugText = "E-mail bug reports to: <bug-sed@gnu.org>.\n"

// The order of the long options is GNU's: it shows in the list of
// possibilities of an ambiguous abbreviation.
var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "binary"},
	{Short: 'r', Long: "regexp-extended"},
	{Long: "debug"},
	{Short: 'i', Long: "in-place", Arg: builtins.OptionalArg},
	{Short: 'e', Long: "expression", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "line-length", Arg: builtins.RequiredArg},
	{Short: 'z', Long: "null-data"},
	{Long: "zero-terminated"},
	{Short: 'n', Long: "quiet"},
	{Long: "posix"},
	{Long: "silent"},
	{Long: "sandbox"},
	{Short: 's', Long: "separate"},
	{Short: 'u', Long: "unbuffered"},
	{Long: "version"},
	{Long: "help"},
	{Long: "follow-symlinks"},
	{Short: 'E'},
}}

func usageFail(c *builtins.Call, msg string) int {
	if msg != "" {
		c.Errorf("%s", msg)
	}
	io.WriteString(c.Stderr, usageText)
	return exitBadUsage
}

// Run is the sed command.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return usageFail(c, err.Error())
	}
	stdout := textio.NewWriter(c.Stdout)
	e := &executor{c: c, ctx: ctx, delim: '\n', lineWrap: 70, suffix: "*"}
	e.stdout = &output{name: "stdout", w: stdout}
	e.stdoutW = &output{name: "stdout", w: stdout}
	e.stderrW = &output{name: "stderr", w: bufio.NewWriterSize(c.Stderr, 4096), autoFlush: true}
	e.out = e.stdout
	e.hs.chomped = true
	loc := strings.ToLower(textio.Locale(c, "LC_CTYPE"))
	e.utf8 = loc == "" || strings.Contains(loc, "utf-8") || strings.Contains(loc, "utf8")

	var chunks []chunk
	var ere, sandbox bool
	for _, o := range opts {
		switch o.Key {
		case "help":
			io.WriteString(c.Stdout, usageText+bugText)
			return 0
		case "version":
			return c.Version()
		case "debug":
			c.Errorf("option '--debug' is not supported")
			return exitBadUsage
		case "quiet", "silent":
			e.quiet = true
		case "expression":
			chunks = append(chunks, chunk{text: []byte(o.Value)})
		case "file":
			text, err := readScriptFile(c, o.Value)
			if err != nil {
				c.Errorf("couldn't open file %s: %s", o.Value, builtins.ErrText(err))
				return exitPanic
			}
			chunks = append(chunks, chunk{text: text, isFile: true, name: o.Value})
		case "regexp-extended", "E":
			ere = true
		case "in-place":
			e.inPlace, e.separate = true, true
			switch {
			case !o.Has:
				e.suffix = "*"
			case strings.Contains(o.Value, "*"):
				e.suffix = o.Value
			default:
				e.suffix = "*" + o.Value
			}
		case "line-length":
			e.lineWrap = atoi(o.Value)
		case "null-data", "zero-terminated":
			e.delim = 0
		case "posix":
			e.posix = true
		case "sandbox":
			sandbox = true
		case "separate":
			e.separate = true
		case "unbuffered":
			e.unbuffered = true
		case "follow-symlinks":
			e.follow = true
		case "binary":
		}
	}
	_, posixEnv := c.LookupEnv("POSIXLY_CORRECT")
	e.posixN = e.posix || posixEnv
	if len(chunks) == 0 {
		if len(operands) == 0 {
			return usageFail(c, "")
		}
		chunks = append(chunks, chunk{text: []byte(operands[0])})
		operands = operands[1:]
	}
	if len(operands) == 0 {
		if e.inPlace {
			c.Errorf("no input files")
			return exitPanic
		}
		operands = []string{"-"}
	}
	e.files = operands

	defer func() {
		if r := recover(); r != nil {
			fe, ok := r.(*fatalError)
			if !ok {
				panic(r)
			}
			e.abandon()
			e.flushAll()
			if fe.msg != "" {
				c.Errorf("%s", fe.msg)
			}
			status = fe.status
		}
	}()

	comp := &compiler{ex: e, ere: ere, posix: e.posix, sandbox: sandbox}
	if err := comp.compile(chunks); err != nil {
		e.closeFiles(comp)
		var fe *fatalError
		if errors.As(err, &fe) {
			c.Errorf("%s", fe.msg)
			return fe.status
		}
		c.Errorf("%s", err.Error())
		return exitBadUsage
	}
	if comp.quiet {
		e.quiet = true
	}
	e.cmds = comp.cmds
	e.wfiles = comp.wfiles
	e.rfiles = comp.rfiles
	e.lastLoc = comp.loc
	status = e.run()
	e.closeCurrent()
	if code := e.flushAll(); code != 0 {
		return code
	}
	e.closeFiles(comp)
	return status
}

// flushAll flushes every output; it returns a non-zero status when
// standard output failed.
func (e *executor) flushAll() int {
	code := 0
	for _, o := range e.wfiles {
		o.flush()
	}
	e.stderrW.flush()
	e.stdout.flush()
	if err := e.stdout.err; err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		e.c.Errorf("couldn't flush stdout: %s", builtins.ErrText(err))
		code = exitPanic
	}
	for _, o := range e.wfiles {
		if o.err != nil && code == 0 {
			e.c.Errorf("couldn't write items to %s: %s", o.name, builtins.ErrText(o.err))
			code = exitPanic
		}
	}
	return code
}

func (e *executor) closeFiles(comp *compiler) {
	for _, o := range comp.wfiles {
		if o.f != nil {
			o.flush()
			o.f.Close()
		}
	}
	for _, r := range comp.rfiles {
		if r.f != nil {
			r.f.Close()
		}
	}
}

func readScriptFile(c *builtins.Call, name string) ([]byte, error) {
	r, err := textio.Open(c, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// GNU reads the script with getc: a read error (a directory) just
	// ends the script.
	b, _ := io.ReadAll(r)
	return b, nil
}
