// Package patch implements GNU patch (2.7.6): apply a diff file to an
// original. It reads unified, context and normal diffs, git-style diffs
// (new, deleted, renamed and copied files, mode changes) and ed scripts,
// finds each hunk with GNU's offset search and fuzz, writes rejected
// hunks to FILE.rej in GNU's format, detects reversed patches, and makes
// backups as GNU does.
package patch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

const (
	silent = iota
	normalVerbosity
	verbose
)

// options is GNU patch's long option table, in its order.
var options = []builtins.Option{
	{Short: 'b', Long: "backup"},
	{Short: 'B', Long: "prefix", Arg: builtins.RequiredArg},
	{Short: 'c', Long: "context"},
	{Short: 'd', Long: "directory", Arg: builtins.RequiredArg},
	{Short: 'D', Long: "ifdef", Arg: builtins.RequiredArg},
	{Short: 'e', Long: "ed"},
	{Short: 'E', Long: "remove-empty-files"},
	{Short: 'f', Long: "force"},
	{Short: 'F', Long: "fuzz", Arg: builtins.RequiredArg},
	{Short: 'g', Long: "get", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "input", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "ignore-whitespace"},
	{Short: 'n', Long: "normal"},
	{Short: 'N', Long: "forward"},
	{Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Short: 'p', Long: "strip", Arg: builtins.RequiredArg},
	{Short: 'r', Long: "reject-file", Arg: builtins.RequiredArg},
	{Short: 'R', Long: "reverse"},
	{Short: 's', Long: "quiet"},
	{Long: "silent"},
	{Short: 't', Long: "batch"},
	{Short: 'T', Long: "set-time"},
	{Short: 'u', Long: "unified"},
	{Short: 'v', Long: "version"},
	{Short: 'V', Long: "version-control", Arg: builtins.RequiredArg},
	{Short: 'x', Long: "debug", Arg: builtins.RequiredArg},
	{Short: 'Y', Long: "basename-prefix", Arg: builtins.RequiredArg},
	{Short: 'z', Long: "suffix", Arg: builtins.RequiredArg},
	{Short: 'Z', Long: "set-utc"},
	{Long: "dry-run"},
	{Long: "verbose"},
	{Long: "binary"},
	{Long: "help"},
	{Long: "backup-if-mismatch"},
	{Long: "no-backup-if-mismatch"},
	{Long: "posix"},
	{Long: "quoting-style", Arg: builtins.RequiredArg},
	{Long: "reject-format", Arg: builtins.RequiredArg},
	{Long: "read-only", Arg: builtins.RequiredArg},
	{Long: "follow-symlinks"},
}

// fileStat is what patch needs of a file's status.
type fileStat struct {
	mode  fs.FileMode // typeReg or typeLink plus permissions; fs.ModeDir for directories
	size  int64
	mtime time.Time
	other bool // neither a regular file nor a symlink
}

type patcher struct {
	ctx context.Context
	c   *builtins.Call
	out *bufio.Writer // where say() writes
	loc *time.Location

	// options
	strip            int
	reverseFlag      bool
	noreverse        bool
	force, batch     bool
	dryRun           bool
	verbosity        int
	maxFuzz          int
	outfile          string
	rejName          string
	hasRejName       bool
	makeBackups      bool
	backupIfMismatch bool
	posix            bool
	removeEmpty      bool
	canonicalizeWS   bool
	forcedType       diffType
	doDefines        string
	origPrae         string
	origBase         string
	origSuff         string
	versionControl   string
	rejectFormat     diffType
	noStripCR        bool
	setTime, setUTC  bool
	simpleSuffix     string
	explicitInname   bool
	followSymlinks   bool

	// patch input
	pdata        []byte
	ppos         int
	pbase        int
	pbline       int
	pstart       int
	psline       int
	inputLine    int
	lineBuf      []byte
	indent       int
	rfc934       int
	stripCR      bool
	passComments bool

	// current diff
	diffType        diffType
	pname           [3]string
	hasName         [3]bool
	invalidNames    []string
	ptimestr        [2]string
	hasTimestr      [2]bool
	ptimestamp      [2]stamp
	psha1           [2]string
	pmode           [2]fs.FileMode
	pcopy, prename  [2]bool
	gitDiff         bool
	saysNonexistent [2]int
	revision        string
	fileType        fs.FileMode

	// current hunk
	pline                        [][]byte
	pchar                        []byte
	pend                         int
	pmax                         int
	hunkmax                      int
	first, newfirst              int
	ptrnLines, replLines         int
	prefixContext, suffixContext int
	hunkBeg                      int
	cFunction                    string
	hasCFunction                 bool

	// state per file
	inname       string
	inerr        error
	inerrUnknown bool
	instat       fileStat
	reverse      bool
	skipRest     bool
	input        [][]byte // input lines, 1-based (input[0] unused)
	lastFrozen   int
	inOffset     int
	outOffset    int

	// output state
	obuf         *bytes.Buffer
	afterNewline bool
	zeroOutput   bool
	ofile        *bytes.Buffer // -o output accumulated across patches
	ofileName    string

	rej      *bytes.Buffer
	edResult []byte

	// files created by this run (for appending rejects), deferred
	// deletions and git-style deferred outputs
	created     map[string]bool
	deleteLater map[string]bool
	deletions   []deletion
	queued      []queuedOutput
	backedUp    map[string]bool
	rejWritten  bool
}

type deletion struct {
	name   string
	backup bool
	isLink bool
}

type queuedOutput struct {
	data   []byte
	to     string
	mode   fs.FileMode
	backup bool
}

// Run is the patch command.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	cc := *c
	p := &patcher{ctx: ctx, c: &cc, out: textio.NewWriter(c.Stdout), strip: -1, verbosity: normalVerbosity,
		maxFuzz: 2, hunkmax: 125, created: map[string]bool{}, deleteLater: map[string]bool{},
		backedUp: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			fe, ok := r.(*fatalError)
			if !ok {
				panic(r)
			}
			p.out.Flush()
			p.flushOutputs()
			fmt.Fprintf(c.Stderr, "%s: **** %s\n", c.Name(), fe.msg)
			status = 2
		}
	}()
	status = p.run()
	if err := p.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	return status
}

// quote is quotearg in the shell quoting style patch uses.
func (p *patcher) quote(s string) string { return quote.UTF8.Quote(s, quote.Shell) }

func errText(err error) string { return builtins.ErrText(err) }

func (p *patcher) abs(name string) string { return path.Clean(p.c.Abs(name)) }

func (p *patcher) statFile(name string) (fileStat, error) {
	var fi fs.FileInfo
	var err error
	if p.followSymlinks {
		fi, err = p.c.Stat(name)
	} else {
		fi, err = p.c.Lstat(name)
	}
	if err != nil {
		return fileStat{}, err
	}
	st := fileStat{size: fi.Size(), mtime: fi.ModTime(), mode: fi.Mode().Perm()}
	switch {
	case fi.Mode().IsRegular():
		st.mode |= typeReg
	case fi.Mode()&fs.ModeSymlink != 0:
		st.mode |= typeLink
	case fi.IsDir():
		st.mode |= fs.ModeDir
		st.other = true
	default:
		st.other = true
	}
	return st, nil
}

func (p *patcher) run() int {
	c := p.c
	if v, ok := c.LookupEnv("POSIXLY_CORRECT"); ok {
		_ = v
		p.posix = true
	}
	p.backupIfMismatch = !p.posix
	p.simpleSuffix = ".orig"
	if v := c.Getenv("SIMPLE_BACKUP_SUFFIX"); v != "" {
		p.simpleSuffix = v
	}
	if v, ok := c.LookupEnv("PATCH_VERSION_CONTROL"); ok {
		p.versionControl = v
	} else if v, ok := c.LookupEnv("VERSION_CONTROL"); ok {
		p.versionControl = v
	}
	set := builtins.Options{List: options}
	opts, operands, err := set.Parse(c.Args[1:])
	if err != nil {
		return p.usageFail(err.Error())
	}
	var patchName string
	for _, o := range opts {
		switch o.Key {
		case "backup":
			p.makeBackups = true
		case "prefix":
			if o.Value == "" {
				p.fatal("backup prefix is empty")
			}
			p.origPrae = o.Value
		case "context":
			p.forcedType = contextDiff
		case "directory":
			fi, err := c.Stat(o.Value)
			if err == nil && !fi.IsDir() {
				err = errors.New("not a directory")
			}
			if err != nil {
				p.pfatal(err, "Can't change to directory %s", p.quote(o.Value))
			}
			c.Dir = path.Clean(c.Abs(o.Value))
		case "ifdef":
			p.doDefines = o.Value
		case "ed":
			p.forcedType = edDiff
		case "remove-empty-files":
			p.removeEmpty = true
		case "force":
			p.force = true
		case "fuzz":
			p.maxFuzz = p.numericString(o.Value, false, "fuzz factor")
		case "get":
			p.numericString(o.Value, true, "get option value")
		case "input":
			patchName = o.Value
		case "ignore-whitespace":
			p.canonicalizeWS = true
		case "normal":
			p.forcedType = normalDiff
		case "forward":
			p.noreverse = true
		case "output":
			p.outfile = o.Value
		case "strip":
			p.strip = p.numericString(o.Value, false, "strip count")
		case "reject-file":
			p.rejName, p.hasRejName = o.Value, true
		case "reverse":
			p.reverseFlag = true
		case "quiet", "silent":
			p.verbosity = silent
		case "batch":
			p.batch = true
		case "set-time":
			p.setTime = true
		case "unified":
			p.forcedType = uniDiff
		case "version":
			return c.Version()
		case "version-control":
			p.versionControl = o.Value
		case "debug":
			p.numericString(o.Value, true, "debugging option")
		case "basename-prefix":
			if o.Value == "" {
				p.fatal("backup basename prefix is empty")
			}
			p.origBase = o.Value
		case "suffix":
			if o.Value == "" {
				p.fatal("backup suffix is empty")
			}
			p.origSuff = o.Value
		case "set-utc":
			p.setUTC = true
		case "dry-run":
			p.dryRun = true
		case "verbose":
			p.verbosity = verbose
		case "binary":
			p.noStripCR = true
		case "help":
			p.out.WriteString(help)
			return 0
		case "backup-if-mismatch":
			p.backupIfMismatch = true
		case "no-backup-if-mismatch":
			p.backupIfMismatch = false
		case "posix":
			p.posix = true
		case "quoting-style":
			switch o.Value {
			case "literal", "shell", "shell-always", "c", "escape":
			default:
				c.Errorf("invalid argument %s for %s", quoteArg(o.Value), "'quoting style'")
				p.validArgs()
				return p.usageFail("")
			}
		case "reject-format":
			switch o.Value {
			case "context":
				p.rejectFormat = newContextDiff
			case "unified":
				p.rejectFormat = uniDiff
			default:
				return p.usageFail("")
			}
		case "read-only":
			switch o.Value {
			case "ignore", "warn", "fail":
			default:
				return p.usageFail("")
			}
		case "follow-symlinks":
			p.followSymlinks = true
		}
	}
	if len(operands) > 0 {
		p.inname = operands[0]
		p.explicitInname = true
		if len(operands) > 1 {
			patchName = operands[1]
			if len(operands) > 2 {
				c.Errorf("%s: extra operand", p.quote(operands[2]))
				return p.usageFail("")
			}
		}
	}
	p.reverse = p.reverseFlag
	p.diffType = p.forcedType
	p.loc = timefmt.Location(c.LookupEnv)
	if p.setUTC {
		p.loc = time.UTC
	}
	if p.outfile == "-" {
		// The patched text goes to standard output, messages to
		// standard error.
		p.out.Flush()
		p.out = textio.NewWriter(c.Stderr)
	}
	if p.outfile != "" {
		p.ofile = &bytes.Buffer{}
		p.ofileName = p.outfile
		if p.outfile != "-" {
			if err := p.writeFile(p.outfile, nil, 0o600, false); err != nil {
				p.pfatal(err, "Can't create file %s", p.quote(p.outfile))
			}
		}
	}
	p.openPatchFile(patchName)
	return p.mainLoop()
}

func (p *patcher) validArgs() {
	fmt.Fprintf(p.c.Stderr, "Valid arguments are:\n  - 'literal'\n  - 'shell'\n  - 'shell-always'\n  - 'shell-escape'\n  - 'shell-escape-always'\n  - 'c'\n  - 'escape'\n  - 'locale'\n  - 'clocale'\n")
}

func quoteArg(s string) string { return "\u2018" + s + "\u2019" }

func (p *patcher) openPatchFile(name string) {
	var r io.Reader
	if name == "" || name == "-" {
		r = textio.Stdin(p.c)
	} else {
		f, err := p.c.Open(name)
		if err != nil {
			p.pfatal(err, "Can't open patch file %s", p.quote(name))
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			p.pfatal(errors.New("is a directory"), "read error")
		}
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		p.pfatal(err, "read error")
	}
	p.pdata = data
	p.nextIntuitAt(0, 1)
}
