// Package yq implements mikefarah's yq v4 on its own library
// (github.com/mikefarah/yq/v4/pkg/yqlib): the same expression language,
// decoders and encoders (YAML, JSON, XML, CSV/TSV, properties, TOML, ...),
// and the command line of yq's eval and eval-all commands.
//
// The library reads files, the environment and runs commands through the
// host's os package. None of that may reach the sandbox, so the command
// reads every input itself through the sandbox filesystem and the
// library's own env, load and system operators are switched off once for
// the process (sandbox.go). env(NAME), strenv(NAME) and load*("file") are
// resolved before evaluation from the call's environment and the sandbox
// filesystem instead. The library's preferences are package globals; the
// command never writes them, it builds each encoder and decoder with its
// own copy, so concurrent calls do not race.
package yq

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mikefarah/yq/v4/pkg/yqlib"
	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// Version is the yq release whose behaviour this command follows.
const Version = "v4.54.3"

// opts is one call's command line.
type opts struct {
	evalAll      bool
	outputFormat string
	inputFormat  string
	indent       int
	unwrap       string // "" when -r was not given
	nullInput    bool
	noDoc        bool
	exitStatus   bool
	inplace      bool
	pretty       bool
	nulSep       bool
	colors       bool
	expression   string
	fromFile     string
	frontMatter  string
	splitExp     string
	version      bool
	help         bool
	tojson       bool
	noEnv        bool
	noFile       bool
	systemOps    bool
	yaml         yqlib.YamlPreferences
	xml          yqlib.XmlPreferences
	csv          yqlib.CsvPreferences
	tsv          yqlib.CsvPreferences
	props        yqlib.PropertiesPreferences
	lua          yqlib.LuaPreferences
	ini          yqlib.INIPreferences
	csvSep       string
}

// Run is the yq command.
func Run(ctx context.Context, c *builtins.Call) int {
	setup()
	args, o, err := parseArgs(c.Args[1:])
	if err != nil {
		return fail(c, err)
	}
	if o.help {
		fmt.Fprint(c.Stdout, usage)
		return 0
	}
	if o.version {
		fmt.Fprintf(c.Stdout, "yq (https://github.com/mikefarah/yq/) version %s\n", Version)
		return 0
	}
	out := bufio.NewWriterSize(c.Stdout, 64<<10)
	y := &yq{ctx: ctx, c: c, o: o}
	var buf bytes.Buffer
	w := textio.CancellableWriter(ctx, out)
	if o.inplace {
		w = &buf
	}
	err = y.run(args, w)
	if ferr := out.Flush(); ferr != nil && err == nil {
		if builtins.IsBrokenPipe(ferr) {
			return 141
		}
		err = ferr
	}
	if err == nil && o.inplace {
		err = y.writeBack(buf.Bytes())
	}
	if err != nil {
		return fail(c, err)
	}
	return 0
}

// fail prints an error as yq (cobra) does and returns yq's status.
func fail(c *builtins.Call, err error) int {
	fmt.Fprintf(c.Stderr, "Error: %s\n", err)
	return 1
}

type yq struct {
	ctx   context.Context
	c     *builtins.Call
	o     *opts
	files []string
}

func parseArgs(argv []string) ([]string, *opts, error) {
	o := &opts{
		yaml:  yqlib.NewDefaultYamlPreferences(),
		xml:   yqlib.NewDefaultXmlPreferences(),
		csv:   yqlib.NewDefaultCsvPreferences(),
		tsv:   yqlib.NewDefaultTsvPreferences(),
		props: yqlib.NewDefaultPropertiesPreferences(),
		lua:   yqlib.NewDefaultLuaPreferences(),
		ini:   yqlib.NewDefaultINIPreferences(),
	}
	fs := pflag.NewFlagSet("yq", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVarP(&o.outputFormat, "output-format", "o", "auto", "")
	fs.StringVarP(&o.inputFormat, "input-format", "p", "auto", "")
	fs.IntVarP(&o.indent, "indent", "I", 2, "")
	fs.StringVarP(&o.unwrap, "unwrapScalar", "r", "", "")
	fs.Lookup("unwrapScalar").NoOptDefVal = "true"
	fs.BoolVarP(&o.nullInput, "null-input", "n", false, "")
	fs.BoolVarP(&o.noDoc, "no-doc", "N", false, "")
	fs.BoolVarP(&o.exitStatus, "exit-status", "e", false, "")
	fs.BoolVarP(&o.inplace, "inplace", "i", false, "")
	fs.BoolVarP(&o.pretty, "prettyPrint", "P", false, "")
	fs.BoolVarP(&o.nulSep, "nul-output", "0", false, "")
	fs.BoolVarP(&o.colors, "colors", "C", false, "")
	var noColors, verbose, nodeInfo bool
	fs.BoolVarP(&noColors, "no-colors", "M", false, "")
	fs.BoolVarP(&verbose, "verbose", "v", false, "")
	fs.BoolVar(&nodeInfo, "debug-node-info", false, "")
	fs.BoolVarP(&o.tojson, "tojson", "j", false, "")
	fs.StringVar(&o.expression, "expression", "", "")
	fs.StringVar(&o.fromFile, "from-file", "", "")
	fs.StringVarP(&o.frontMatter, "front-matter", "f", "", "")
	fs.StringVarP(&o.splitExp, "split-exp", "s", "", "")
	var splitFile string
	fs.StringVar(&splitFile, "split-exp-file", "", "")
	fs.BoolVarP(&o.version, "version", "V", false, "")
	fs.BoolVarP(&o.help, "help", "h", false, "")
	fs.BoolVar(&o.noEnv, "security-disable-env-ops", false, "")
	fs.BoolVar(&o.noFile, "security-disable-file-ops", false, "")
	fs.BoolVar(&o.systemOps, "security-enable-system-operator", false, "")
	var anyPath bool
	fs.BoolVar(&anyPath, "security-allow-write-any-path", false, "")
	fs.StringVar(&o.xml.AttributePrefix, "xml-attribute-prefix", o.xml.AttributePrefix, "")
	fs.StringVar(&o.xml.ContentName, "xml-content-name", o.xml.ContentName, "")
	fs.BoolVar(&o.xml.StrictMode, "xml-strict-mode", o.xml.StrictMode, "")
	fs.BoolVar(&o.xml.KeepNamespace, "xml-keep-namespace", o.xml.KeepNamespace, "")
	fs.BoolVar(&o.xml.UseRawToken, "xml-raw-token", o.xml.UseRawToken, "")
	fs.StringVar(&o.xml.ProcInstPrefix, "xml-proc-inst-prefix", o.xml.ProcInstPrefix, "")
	fs.StringVar(&o.xml.DirectiveName, "xml-directive-name", o.xml.DirectiveName, "")
	fs.BoolVar(&o.xml.SkipProcInst, "xml-skip-proc-inst", o.xml.SkipProcInst, "")
	fs.BoolVar(&o.xml.SkipDirectives, "xml-skip-directives", o.xml.SkipDirectives, "")
	fs.BoolVar(&o.csv.AutoParse, "csv-auto-parse", o.csv.AutoParse, "")
	fs.StringVar(&o.csvSep, "csv-separator", ",", "")
	fs.BoolVar(&o.tsv.AutoParse, "tsv-auto-parse", o.tsv.AutoParse, "")
	fs.StringVar(&o.lua.DocPrefix, "lua-prefix", o.lua.DocPrefix, "")
	fs.StringVar(&o.lua.DocSuffix, "lua-suffix", o.lua.DocSuffix, "")
	fs.BoolVar(&o.lua.UnquotedKeys, "lua-unquoted", o.lua.UnquotedKeys, "")
	fs.BoolVar(&o.lua.Globals, "lua-globals", o.lua.Globals, "")
	fs.BoolVar(&o.ini.PreserveSurroundedQuote, "ini-preserve-quotes", o.ini.PreserveSurroundedQuote, "")
	fs.StringVar(&o.ini.KeyValueDelimiters, "ini-key-value-delimiters", o.ini.KeyValueDelimiters, "")
	fs.StringVar(&o.props.KeyValueSeparator, "properties-separator", o.props.KeyValueSeparator, "")
	fs.BoolVar(&o.props.UseArrayBrackets, "properties-array-brackets", o.props.UseArrayBrackets, "")
	fs.BoolVar(&o.yaml.LeadingContentPreProcessing, "header-preprocess", true, "")
	fs.BoolVar(&o.yaml.FixMergeAnchorToSpec, "yaml-fix-merge-anchor-to-spec", false, "")
	fs.BoolVarP(&o.yaml.CompactSequenceIndent, "yaml-compact-seq-indent", "c", false, "")
	interp := true
	fs.BoolVar(&interp, "string-interpolation", true, "")

	argv, o.evalAll = subcommand(argv)
	if err := fs.Parse(argv); err != nil {
		return nil, nil, err
	}
	if o.help || o.version {
		return nil, o, nil
	}
	if noColors {
		o.colors = false
	}
	if err := o.check(splitFile, interp, nodeInfo, anyPath); err != nil {
		return nil, nil, err
	}
	if fs.Changed("csv-separator") {
		sep, err := csvSeparator(o.csvSep)
		if err != nil {
			return nil, nil, fmt.Errorf("invalid argument %q for \"--csv-separator\" flag: %w", o.csvSep, err)
		}
		o.csv.Separator = sep
	}
	return fs.Args(), o, nil
}

// check refuses what the sandbox cannot do, rather than doing something
// else quietly.
func (o *opts) check(splitFile string, interp, nodeInfo, anyPath bool) error {
	switch {
	case o.splitExp != "" || splitFile != "":
		return errors.New("--split-exp is not supported in the sandbox")
	case o.frontMatter != "" && o.frontMatter != "extract" && o.frontMatter != "process":
		return fmt.Errorf("unknown front matter mode %q: use extract or process", o.frontMatter)
	case o.systemOps:
		return errors.New("the system operator cannot run commands in the sandbox")
	case !interp:
		return errors.New("--string-interpolation=false is not supported in the sandbox")
	case nodeInfo:
		return errors.New("--debug-node-info is not supported in the sandbox")
	case o.indent < 0:
		return errors.New("indent must not be negative")
	}
	_ = anyPath // split-exp is refused, so there is nothing to write
	return nil
}

// csvSeparator reads --csv-separator as yq does: one character, with \t
// and friends spelled out.
func csvSeparator(v string) (rune, error) {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\r`, "\r", `\f`, "\f", `\v`, "\v").Replace(v)
	if len(r) != 1 {
		return 0, fmt.Errorf("[%v] is not a valid character. Must be length 1 was %v", r, len(r))
	}
	return rune(r[0]), nil
}

// subcommand strips yq's eval/e or eval-all/ea subcommand: yq runs eval
// when the first word that is not an option names no subcommand.
func subcommand(argv []string) ([]string, bool) {
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return argv, false
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			if takesValue(a) && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		switch a {
		case "eval", "e":
			return append(append([]string(nil), argv[:i]...), argv[i+1:]...), false
		case "eval-all", "ea":
			return append(append([]string(nil), argv[:i]...), argv[i+1:]...), true
		}
		return argv, false
	}
	return argv, false
}

// takesValue reports whether option word a consumes the next word.
func takesValue(a string) bool {
	if strings.HasPrefix(a, "--") {
		switch a[2:] {
		case "output-format", "input-format", "indent", "expression", "from-file", "front-matter",
			"split-exp", "split-exp-file", "xml-attribute-prefix", "xml-content-name",
			"xml-proc-inst-prefix", "xml-directive-name", "csv-separator", "lua-prefix", "lua-suffix",
			"ini-key-value-delimiters", "properties-separator":
			return true
		}
		return false
	}
	// A short group: the last letter takes the next word when it needs a
	// value and none is attached.
	last := a[len(a)-1]
	return strings.IndexByte("opIfs", last) >= 0 && len(a) == 2
}

func (y *yq) run(args []string, w io.Writer) error {
	o := y.o
	expression, files, err := y.expressionAndFiles(args)
	if err != nil {
		return err
	}
	if o.inplace && (len(files) == 0 || files[0] == "-") {
		return errors.New("write in place flag only applicable when giving an expression and at least one file")
	}
	if o.frontMatter != "" && len(files) == 0 {
		return errors.New("front matter flag only applicable when giving an expression and at least one file")
	}
	if o.nullInput && len(files) > 0 {
		return errors.New("cannot pass files in when using null-input flag")
	}
	y.files = files
	inFmt, outFmt, unwrap, err := o.formats(files)
	if err != nil {
		return err
	}
	encoder, err := o.encoder(outFmt, unwrap)
	if err != nil {
		return err
	}
	decoder, err := o.decoder(inFmt)
	if err != nil {
		return err
	}
	if o.pretty {
		if expression == "" {
			expression = yqlib.PrettyPrintExp
		} else {
			expression = expression + " | " + yqlib.PrettyPrintExp
		}
	}
	node, err := yqlib.ExpressionParser.ParseExpression(expression)
	if err != nil {
		return err
	}
	if err := y.resolve(node, expression); err != nil {
		return err
	}
	printer := yqlib.NewPrinter(encoder, yqlib.NewSinglePrinterWriter(w))
	if o.nulSep {
		printer.SetNulSepOutput(true)
	}
	switch {
	case len(files) == 0 && !o.nullInput:
		fmt.Fprint(y.c.Stdout, usage)
		return nil
	case len(files) == 0:
		err = y.evaluate(printer, node, nullDoc())
	case o.evalAll:
		err = y.evalAll(printer, node, decoder)
	default:
		err = y.evalEach(printer, node, decoder)
	}
	if err == nil && o.exitStatus && !printer.PrintedAnything() {
		return errors.New("no matches found")
	}
	return err
}

func nullDoc() *list.List {
	l := list.New()
	l.PushBack(&yqlib.CandidateNode{Kind: yqlib.ScalarNode, Tag: "!!null"})
	return l
}

// expressionAndFiles splits the operands as yq does: standard input is
// read when no file is named, and the first operand is the expression
// unless it names a file.
func (y *yq) expressionAndFiles(args []string) (string, []string, error) {
	o := y.o
	expression := o.expression
	if !o.nullInput && len(args) <= 1 && !(len(args) == 1 && y.isFile(args[0])) {
		hasDash := false
		for _, a := range args {
			hasDash = hasDash || a == "-"
		}
		if !hasDash {
			args = append(args, "-")
		}
	}
	exprFile := o.fromFile
	if exprFile == "" && len(args) > 0 && strings.HasSuffix(args[0], ".yq") && y.isFile(args[0]) {
		exprFile, args = args[0], args[1:]
	}
	if exprFile != "" {
		b, err := y.readFile(exprFile)
		if err != nil {
			return "", nil, err
		}
		expression = strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	if expression == "" && len(args) > 0 && args[0] != "-" && !y.isFile(args[0]) {
		expression, args = args[0], args[1:]
	}
	return expression, args, nil
}

func (y *yq) isFile(name string) bool {
	fi, err := y.c.Stat(name)
	return err == nil && !fi.IsDir()
}

// formats picks the input and output formats and whether scalars are
// unwrapped, as yq does from the options and the first file's extension.
func (o *opts) formats(files []string) (in, out *yqlib.Format, unwrap bool, err error) {
	first := ""
	if len(files) > 0 {
		first = files[0]
	}
	inName, outName := o.inputFormat, o.outputFormat
	if o.tojson {
		outName = "json"
	}
	autoOut := outName == "" || outName == "auto" || outName == "a"
	if inName == "" || inName == "auto" || inName == "a" {
		inName = yqlib.FormatStringFromFilename(first)
		if _, ferr := yqlib.FormatFromString(inName); ferr != nil {
			inName = "yaml"
		}
		if autoOut {
			outName = inName
		}
	} else if autoOut {
		outName = "yaml"
	}
	if in, err = yqlib.FormatFromString(inName); err != nil {
		return nil, nil, false, err
	}
	if out, err = yqlib.FormatFromString(outName); err != nil {
		return nil, nil, false, err
	}
	unwrap = out == yqlib.YamlFormat || out == yqlib.PropertiesFormat
	if o.unwrap != "" {
		unwrap = o.unwrap != "false"
	}
	return in, out, unwrap, nil
}

// encoder builds the output encoder with this call's preferences.
func (o *opts) encoder(f *yqlib.Format, unwrap bool) (yqlib.Encoder, error) {
	var e yqlib.Encoder
	switch f {
	case yqlib.YamlFormat:
		p := o.yaml
		p.Indent, p.UnwrapScalar, p.ColorsEnabled, p.PrintDocSeparators = o.indent, unwrap, o.colors, !o.noDoc
		e = yqlib.NewYamlEncoder(p)
	case yqlib.KYamlFormat:
		p := yqlib.NewDefaultKYamlPreferences()
		p.Indent, p.UnwrapScalar, p.ColorsEnabled, p.PrintDocSeparators = o.indent, unwrap, o.colors, !o.noDoc
		e = yqlib.NewKYamlEncoder(p)
	case yqlib.JSONFormat:
		p := yqlib.NewDefaultJsonPreferences()
		p.Indent, p.UnwrapScalar, p.ColorsEnabled = o.indent, unwrap, o.colors
		e = yqlib.NewJSONEncoder(p)
	case yqlib.XMLFormat:
		p := o.xml
		p.Indent = o.indent
		e = yqlib.NewXMLEncoder(p)
	case yqlib.PropertiesFormat:
		p := o.props
		p.UnwrapScalar = unwrap
		e = yqlib.NewPropertiesEncoder(p)
	case yqlib.CSVFormat:
		e = yqlib.NewCsvEncoder(o.csv)
	case yqlib.TSVFormat:
		e = yqlib.NewCsvEncoder(o.tsv)
	case yqlib.LuaFormat:
		e = yqlib.NewLuaEncoder(o.lua)
	case yqlib.TomlFormat:
		p := yqlib.NewDefaultTomlPreferences()
		p.ColorsEnabled = o.colors
		e = yqlib.NewTomlEncoderWithPrefs(p)
	case yqlib.HclFormat:
		p := yqlib.NewDefaultHclPreferences()
		p.ColorsEnabled = o.colors
		e = yqlib.NewHclEncoder(p)
	default:
		// Formats without preferences of their own.
		if f.EncoderFactory != nil {
			e = f.EncoderFactory()
		}
	}
	if e == nil {
		return nil, fmt.Errorf("no support for %s output format", f.FormalName)
	}
	return e, nil
}

// decoder builds a fresh input decoder with this call's preferences.
func (o *opts) decoder(f *yqlib.Format) (yqlib.Decoder, error) {
	var d yqlib.Decoder
	switch f {
	case yqlib.YamlFormat, yqlib.KYamlFormat:
		p := o.yaml
		p.EvaluateTogether = o.evalAll
		d = yqlib.NewYamlDecoder(p)
	case yqlib.XMLFormat:
		d = yqlib.NewXMLDecoder(o.xml)
	case yqlib.CSVFormat:
		d = yqlib.NewCSVObjectDecoder(o.csv)
	case yqlib.TSVFormat:
		d = yqlib.NewCSVObjectDecoder(o.tsv)
	case yqlib.LuaFormat:
		d = yqlib.NewLuaDecoder(o.lua)
	case yqlib.INIFormat:
		d = yqlib.NewINIDecoder(o.ini)
	default:
		if f.DecoderFactory != nil {
			d = f.DecoderFactory()
		}
	}
	if d == nil {
		return nil, fmt.Errorf("no support for %s input format", f.FormalName)
	}
	return d, nil
}
