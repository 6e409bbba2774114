// Package jq implements jq on the gojq library, with jq 1.6's command
// line, output format (key order, number format, colours), messages and
// exit statuses. Inputs are read through the sandbox filesystem, and env
// and $ENV show the sandbox environment only.
//
// gojq keeps objects as Go maps, without key order; jq keeps insertion
// order. The filter is rewritten before compiling so that every operation
// that builds an object (assignment, update-assignment, setpath, delpaths,
// construction, +, *, add, from_entries, ...) records the order of what it
// makes, and every iteration (.[], .., paths, to_entries, ...) follows it
// (rewrite.go, order.go): output, iteration and -S match jq. Objects
// gojq makes behind our back get the order of an object with the same
// keys seen before, else input order, then filter order, then sorted.
// Other differences: "Cannot index T with K" names the filter's last
// literal key (gojq does not report it); gojq's messages are kept for
// errors jq 1.6 words differently beyond the common type errors; --stream
// parses each whole input before emitting its events; modules (-L,
// import) are not supported.
package jq

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/internal/lazyre"
)

const help = `Usage:	%[1]s [options] <jq filter> [file...]
	%[1]s [options] --args <jq filter> [strings...]
	%[1]s [options] --jsonargs <jq filter> [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

The simplest filter is ., which copies jq's input to its output
unmodified (except for formatting, but note that IEEE754 is used
for number representation internally, with all that that implies).

Example:

	$ echo '{"foo": 0}' | jq .
	{
		"foo": 0
	}

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use ` + "`null`" + ` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r, without a newline after each output;
  -a               output non-ASCII characters as \uXXXX escapes;
  -R               read raw strings, not JSON texts;
  -C               colorize JSON;
  -M               monochrome (don't colorize JSON);
  -S               sort keys of objects on output;
  -f file          read the filter from file;
  --tab            use tabs for indentation;
  --indent n       use n spaces for indentation (max 7 spaces);
  --seq            write a record separator before each output;
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  --               terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
`

var namedGroup = lazyre.New(`\(\?<([A-Za-z_][A-Za-z0-9_]*)>`)

// shortOf gives the long options that are the same as a short one.
var shortOf = map[string]rune{
	"slurp": 's', "raw-input": 'R', "null-input": 'n', "compact-output": 'c', "raw-output": 'r',
	"join-output": 'j', "ascii-output": 'a', "sort-keys": 'S', "color-output": 'C',
	"monochrome-output": 'M', "exit-status": 'e', "from-file": 'f', "help": 'h',
}

// haltZero is process's status for halt with exit status 0.
const haltZero = -1 << 20

const usageHint = "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n"

// source is one input: a file or standard input.
type source struct {
	name string // as in messages: "<stdin>" or the path
	path string
}

type jq struct {
	ctx    context.Context
	c      *builtins.Call
	out    *bufio.Writer
	enc    *encoder
	order  *keyOrder
	ops    *gojqOps
	raw    bool // -r
	join   bool // -j
	ascii  bool
	seq    bool
	stream bool  // --stream: inputs become path/leaf events
	events []any // events of the last input not yet read
	rawIn  bool  // -R
	slurp  bool
	srcs   []source
	cur    int
	dec    *decoder
	ahead  *ahead        // decoding the current source ahead, or nil
	lines  *bufio.Reader // raw input
	rawN   int           // raw lines read from the current source
	posSet bool          // an input was read
	last   inputPos      // where the last input was read
	// inputErr: a file could not be read (exit 2 at the end).
	inputErr bool
	// parseErr: invalid JSON input.
	parseErr  error
	indexKeys []string
	// held is what was charged to the memory budget for the current
	// input, pending what is not charged yet (see memory.go).
	held, pending int64
	mem           sizer       // what was charged, each container once
	states        []stateSite // each reduce and foreach's updates
	orders        int         // key orders charged (see hold)
	sites         []ownedSet  // what each in-place reduce alone holds
	userDefs      map[string]bool
}

// Run is the jq command.
func Run(ctx context.Context, c *builtins.Call) int {
	j := &jq{ctx: ctx, c: c, order: newKeyOrder()}
	j.out = bufio.NewWriterSize(c.Stdout, 64<<10)
	defer func() {
		// The helper decoding ahead ends with the call, even one that
		// ended early (halt, first(inputs), a panic).
		if j.ahead != nil {
			j.ahead.close()
		}
	}()
	status := j.run()
	if err := j.out.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		if status == 0 {
			fmt.Fprintf(c.Stderr, "jq: error: writing output failed: %s\n", builtins.ErrText(err))
			return 2
		}
	}
	return status
}

func (j *jq) usageErr(format string, args ...any) int {
	fmt.Fprintf(j.c.Stderr, "jq: "+format+"\n", args...)
	io.WriteString(j.c.Stderr, usageHint)
	return 2
}

func (j *jq) run() int {
	c := j.c
	args := c.Args[1:]
	var (
		program     *string
		files       []string
		positional  []any
		named       = map[string]any{}
		namedOrder  []string
		varNames    []string
		varValues   []any
		fromFile    bool
		nullInput   bool
		exitStatus  bool
		compact     bool
		tab         bool
		indent      = 2
		sortKeys    bool
		color       bool
		argsMode    int // 1: --args, 2: --jsonargs
		furtherArgs bool
	)
	addVar := func(name string, v any) {
		if _, ok := named[name]; !ok {
			namedOrder = append(namedOrder, name)
		}
		named[name] = v
		varNames = append(varNames, "$"+name)
		varValues = append(varValues, v)
	}
	for i := 0; i < len(args); i++ {
		text := args[i]
		if furtherArgs || text == "-" || !strings.HasPrefix(text, "-") {
			if program == nil {
				p := text
				program = &p
				continue
			}
			switch argsMode {
			case 1:
				positional = append(positional, text)
			case 2:
				v, err := j.parseOne(text)
				if err != nil {
					return j.usageErr("Invalid JSON text passed to --jsonargs")
				}
				positional = append(positional, v)
			default:
				files = append(files, text)
			}
			continue
		}
		if text == "--" {
			furtherArgs = true
			continue
		}
		need := func(n int, msg string) bool {
			if i+n >= len(args) {
				j.usageErr("%s", msg)
				return false
			}
			return true
		}
		letters := text[1:]
		long, isLong := strings.CutPrefix(text, "--")
		if ch, ok := shortOf[long]; isLong && ok {
			letters = string(ch)
		} else if isLong {
			switch long {
			case "tab":
				tab = true
			case "stream":
				j.stream = true
			case "seq":
				j.seq = true
			case "unbuffered", "stream-errors":
			case "args":
				argsMode = 1
			case "jsonargs":
				argsMode = 2
			case "indent":
				if !need(1, "--indent takes one parameter") {
					return 2
				}
				n, err := strconv.Atoi(args[i+1])
				if err != nil || n < -1 || n > 7 {
					return j.usageErr("--indent takes a number between -1 and 7")
				}
				indent = n
				if n == -1 {
					tab = true
				}
				i++
			case "arg":
				if !need(2, "--arg takes two parameters (e.g. --arg varname value)") {
					return 2
				}
				addVar(args[i+1], args[i+2])
				i += 2
			case "argjson":
				if !need(2, "--argjson takes two parameters (e.g. --argjson varname text)") {
					return 2
				}
				v, err := j.parseOne(args[i+2])
				if err != nil {
					return j.usageErr("invalid JSON text passed to --argjson")
				}
				addVar(args[i+1], v)
				i += 2
			case "slurpfile", "rawfile":
				opt := text[2:]
				if !need(2, "--"+opt+" takes two parameters (e.g. --"+opt+" varname filename)") {
					return 2
				}
				data, err := j.readFile(args[i+2])
				if err != nil {
					fmt.Fprintf(c.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", opt, args[i+1], args[i+2], args[i+2], builtins.ErrText(err))
					return 2
				}
				if opt == "rawfile" {
					addVar(args[i+1], string(data))
				} else {
					d := &decoder{data: data, order: j.order}
					vals := []any{}
					for d.more() {
						v, err := d.next()
						if err != nil {
							fmt.Fprintf(c.Stderr, "jq: Bad JSON in --%s %s %s: %s\n", opt, args[i+1], args[i+2], err)
							return 2
						}
						vals = append(vals, v)
					}
					addVar(args[i+1], vals)
				}
				i += 2
			case "version":
				return c.Version()
			default:
				return j.usageErr("Unknown option %s", text)
			}
			continue
		}
		// Grouped short options, or a long one that is the same as one.
		for _, ch := range letters {
			switch ch {
			case 's':
				j.slurp = true
			case 'R':
				j.rawIn = true
			case 'n':
				nullInput = true
			case 'c':
				compact = true
			case 'r':
				j.raw = true
			case 'j':
				j.raw, j.join = true, true
			case 'a':
				j.ascii = true
			case 'S':
				sortKeys = true
			case 'C':
				color = true
			case 'M':
				color = false
			case 'e':
				exitStatus = true
			case 'f':
				fromFile = true
			case 'h':
				fmt.Fprintf(c.Stdout, help, "jq")
				return 0
			default:
				return j.usageErr("Unknown option %s", text)
			}
		}
	}
	if program == nil {
		p := "."
		program = &p
	}
	src := *program
	if fromFile {
		data, err := j.readFile(src)
		if err != nil {
			fmt.Fprintf(c.Stderr, "jq: error: Could not open %s: %s\n", src, builtins.ErrText(err))
			return 2
		}
		src = string(data)
	}
	argsObj := map[string]any{"positional": positional, "named": named}
	if positional == nil {
		argsObj["positional"] = []any{}
	}
	j.order.record(argsObj, []string{"positional", "named"})
	j.order.record(named, namedOrder)
	varNames = append(varNames, "$ARGS")
	varValues = append(varValues, argsObj)

	query, err := gojq.Parse(src)
	if err != nil {
		io.WriteString(c.Stderr, compileMessage(src, err))
		return 3
	}
	j.scanQuery(query)
	// jq keeps the insertion order of object keys, gojq does not: the
	// filter is rewritten to keep it (rewrite.go).
	rw := &orderRewriter{order: j.order, userDefs: j.userDefs}
	rw.query(query)
	defs, err := gojq.Parse(orderedDefs)
	if err != nil {
		panic(err) // a constant
	}
	rw.query(defs)
	each, err := gojq.Parse(eachDef)
	if err != nil {
		panic(err)
	}
	query.FuncDefs = append(append(each.FuncDefs, defs.FuncDefs...), query.FuncDefs...)
	j.states = make([]stateSite, rw.states)
	j.sites = make([]ownedSet, rw.sites)
	j.ops = newGojqOps()
	// env and $ENV list the environment in its order.
	var envKeys []string
	for _, kv := range c.Env {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			envKeys = append(envKeys, k)
		}
	}
	j.order.recordFilter(envKeys)
	if strings.Contains(src, "$__loc__") {
		i := strings.Index(src, "$__loc__")
		loc := map[string]any{"file": "<top-level>", "line": 1 + strings.Count(src[:i], "\n")}
		j.order.recordFilter([]string{"file", "line"})
		varNames = append(varNames, "$__loc__")
		varValues = append(varValues, loc)
	}
	code, err := gojq.Compile(query,
		gojq.WithFunction("__bb_to_entries", 0, 0, j.toEntries),
		gojq.WithFunction("__bb_keys_unsorted", 0, 0, j.keysUnsorted),
		gojq.WithFunction("__bb_tojson", 0, 0, func(v any, _ []any) any { return j.compact(v) }),
		gojq.WithFunction("__bb_input_line_number", 0, 0, func(any, []any) any {
			if j.dec == nil {
				return 0
			}
			return j.dec.lineAt(j.dec.pos)
		}),
		gojq.WithFunction("__bb_errmsg", 0, 0, func(v any, _ []any) any {
			if s, ok := v.(string); ok {
				return j.translate(s)
			}
			return v
		}),
		gojq.WithFunction("__bb_add", 2, 2, j.opAdd),
		gojq.WithFunction("__bb_mul", 2, 2, j.opMul),
		gojq.WithFunction("__bb_addall", 0, 0, j.opAddAll),
		gojq.WithFunction("__bb_order", 1, 1, j.opOrder),
		gojq.WithFunction("__bb_inherit", 1, 1, j.opInherit),
		gojq.WithFunction("__bb_fromjson", 0, 0, j.opFromJSON),
		gojq.WithFunction("__bb_elem", 0, 0, j.opElem),
		gojq.WithFunction("__bb_state", 1, 1, j.opState),
		gojq.WithFunction("__bb_update", 5, 5, j.opUpdate),
		gojq.WithFunction("__bb_begin", 1, 1, j.opBegin),
		gojq.WithFunction("__bb_end", 1, 1, j.opBegin),
		gojq.WithFunction("__bb_input_filename", 0, 0, func(any, []any) any {
			if !j.last.set || j.srcs[min(j.cur, len(j.srcs)-1)].path == "-" {
				return nil
			}
			return j.srcs[min(j.cur, len(j.srcs)-1)].name
		}),
		gojq.WithFunction("__bb_debug", 0, 0, func(v any, _ []any) any {
			j.out.Flush()
			io.WriteString(c.Stderr, "[\"DEBUG:\","+j.compact(v)+"]\n")
			return v
		}),
		gojq.WithFunction("__bb_stderr", 0, 0, func(v any, _ []any) any {
			j.out.Flush()
			io.WriteString(c.Stderr, j.compact(v))
			return v
		}),
		gojq.WithVariables(varNames),
		gojq.WithEnvironLoader(func() []string { return append([]string(nil), c.Env...) }),
		gojq.WithInputIter(j))
	if err != nil {
		io.WriteString(c.Stderr, compileMessage(src, err))
		return 3
	}

	if compact || indent == 0 && !tab {
		indent = 0
		tab = false
	}
	if tab && indent == 0 {
		indent = 1
	}
	j.enc = &encoder{w: j.out, indent: indent, tab: tab, sort: sortKeys, ascii: j.ascii, color: color, order: j.order}
	if compact {
		j.enc.indent, j.enc.tab = 0, false
	}

	if len(files) == 0 {
		j.srcs = []source{{name: "<stdin>", path: "-"}}
	} else {
		for _, f := range files {
			j.srcs = append(j.srcs, source{name: f, path: f})
		}
	}

	ret := 0
	j.order.keepAll()
	switch {
	case nullInput:
		ret = j.process(code, nil, varValues)
	case j.slurp:
		var v any
		if j.rawIn {
			var b strings.Builder
			for j.cur < len(j.srcs) {
				if data, ok := j.openSource(); ok {
					b.Write(data)
				}
				j.cur++
			}
			v = b.String()
		} else {
			all := []any{}
			for {
				x, ok := j.Next()
				if !ok {
					break
				}
				if _, isErr := x.(error); isErr {
					break
				}
				if err := j.hold(valueSize(x)); err != nil {
					fmt.Fprintf(c.Stderr, "jq: error: %s\n", builtins.ErrText(err))
					return 2
				}
				all = append(all, x)
			}
			v = all
		}
		if j.parseErr == nil {
			ret = j.process(code, v, varValues)
		}
	default:
		for !j.inputErr {
			if j.ctx.Err() != nil {
				return 130
			}
			v, ok := j.Next()
			if !ok {
				break
			}
			if _, isErr := v.(error); isErr {
				break
			}
			ret = j.process(code, v, varValues)
			j.order.endInput()
			j.release()
			if ret < 0 {
				break
			}
		}
	}
	if ret == haltZero {
		return 0
	}
	if ret < 0 {
		return -ret
	}
	if j.parseErr != nil {
		fmt.Fprintf(c.Stderr, "parse error: %s\n", j.parseErr)
		ret = 4
	}
	if j.inputErr {
		ret = 2
	}
	if ret >= 10 {
		if exitStatus {
			return ret - 10
		}
		return 0
	}
	return ret
}

func (j *jq) compact(v any) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	e := &encoder{w: w, order: j.order}
	e.encode(v)
	w.Flush()
	return b.String()
}

// process runs the filter on one input and prints the results. It
// returns jq 1.6's status: 0, 5 (error), 11 (last output false or
// null), 14 (no output); a negative status ends jq at once (halt).
func (j *jq) process(code *gojq.Code, input any, vars []any) int {
	ret := 14
	iter := code.RunWithContext(j.ctx, input, vars...)
	for n := 0; ; n++ {
		if n&1023 == 0 && j.ctx.Err() != nil {
			return -130
		}
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var he *gojq.HaltError
			if errors.As(err, &he) {
				return j.halt(he)
			}
			if j.ctx.Err() != nil {
				return -130
			}
			if _, isParse := err.(*parseError); isParse {
				// input hit invalid JSON: reported at the end.
				return ret
			}
			msg, notString := j.runtimeMessage(err)
			j.out.Flush()
			if notString {
				fmt.Fprintf(j.c.Stderr, "jq: error (at %s) (not a string): %s\n", j.position(), msg)
			} else {
				fmt.Fprintf(j.c.Stderr, "jq: error (at %s): %s\n", j.position(), msg)
			}
			return 5
		}
		if s, isStr := v.(string); isStr && j.raw && !j.ascii {
			j.out.WriteString(s)
			ret = 0
		} else {
			if v == nil || v == false {
				ret = 11
			} else {
				ret = 0
			}
			if j.seq {
				j.out.WriteByte(0x1e)
			}
			j.enc.encode(v)
		}
		if !j.join {
			j.out.WriteByte('\n')
		}
		if j.out.Buffered() > 32<<10 {
			if err := j.out.Flush(); err != nil {
				if builtins.IsBrokenPipe(err) {
					return -141
				}
				return -2
			}
		}
	}
	return ret
}

// halt implements halt and halt_error: a string is written to standard
// error as is, another value as JSON with a newline.
func (j *jq) halt(he *gojq.HaltError) int {
	j.out.Flush()
	if v := he.Value(); v != nil {
		if s, ok := v.(string); ok {
			io.WriteString(j.c.Stderr, s)
		} else {
			io.WriteString(j.c.Stderr, j.compact(v)+"\n")
		}
	}
	if code := he.ExitCode(); code != 0 {
		return -code
	}
	return haltZero
}
