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

// reinitialize prepares for the next patch in the patch file.
func (p *patcher) reinitialize() {
	p.first, p.newfirst, p.ptrnLines, p.replLines = 0, 0, 0, 0
	p.pend = -1
	p.pmax = 0
	p.indent = 0
	p.stripCR = false
	p.input = nil
	p.lastFrozen = 0
	if !p.explicitInname {
		p.inname = ""
	}
	p.inOffset, p.outOffset = 0, 0
	p.diffType = p.forcedType
	p.revision = ""
	p.reverse = p.reverseFlag
	p.skipRest = false
}

func (p *patcher) mainLoop() int {
	somefailed := false
	applyEmpty := p.inname != "" && p.outfile != ""
	haveGitDiff := false
	if applyEmpty {
		p.fileType = typeReg
		p.inerrUnknown = true
	}
	for first := true; ; first = false {
		if !first {
			p.reinitialize()
			applyEmpty = false
		}
		if err := p.ctx.Err(); err != nil {
			p.fatal("%s", "interrupted")
		}
		iterBase := p.pbase
		if !p.thereIsAnotherPatch(!(p.inname != "" || p.posix)) && !applyEmpty {
			break
		}
		hunk, failed := 0, 0
		mismatch := false
		outname := ""
		hasOutname := false
		skipReject := false
		if p.skipRest {
			somefailed = true
		}
		if haveGitDiff != p.gitDiff {
			if haveGitDiff {
				p.flushOutputs()
				p.inerrUnknown = true
			}
			haveGitDiff = !haveGitDiff
		}
		if !p.skipRest && p.fileType == 0 {
			p.say("File %s: can't change file type from 0%o to 0%o.\n", p.quote(p.inname),
				unixType(p.pmode[b2i(p.reverse)]), unixType(p.pmode[b2i(!p.reverse)]))
			p.skipRest = true
			somefailed = true
		}
		if !p.skipRest {
			switch {
			case p.outfile != "":
				outname = p.outfile
			case p.pchCopy() || p.pchRename():
				outname = p.pname[b2i(!p.reverse)]
			default:
				outname = p.inname
			}
			hasOutname = true
		}
		if p.gitDiff && !p.skipRest {
			// A file modified a second time by concatenated git diffs:
			// write out what is pending first.
			if p.hasQueued(outname) {
				p.flushOutputs()
				p.inerrUnknown = true
			}
		}
		if !p.skipRest {
			if !p.getInputFile(p.inname, outname) {
				p.skipRest = true
				somefailed = true
			}
		}
		p.obuf = &bytes.Buffer{}
		p.afterNewline, p.zeroOutput = true, true
		if p.diffType == edDiff {
			somefailed = p.doEdScript(outname, somefailed) || somefailed
		} else {
			if !p.skipRest && p.diffType == gitBinaryDiff {
				p.say("File %s: git binary diffs are not supported.\n", p.quote(outname))
				p.skipRest = true
				somefailed = true
			}
			p.obuf = &bytes.Buffer{}
			p.afterNewline, p.zeroOutput = true, true
			if !p.skipRest {
				p.scanInput(p.inname)
				if p.verbosity != silent {
					renamed := p.inname != outname
					skipRename := !renamed && p.pchRename()
					verb := "patching"
					if p.dryRun {
						verb = "checking"
					}
					kind := "file"
					if p.fileType&typeLink != 0 {
						kind = "symbolic link"
					}
					sep := "\n"
					if renamed || skipRename {
						sep = " "
					}
					p.say("%s %s %s%s", verb, kind, p.quote(outname), sep)
					if renamed || skipRename {
						already := ""
						if skipRename {
							already = "already "
						}
						how := "read"
						if p.pchCopy() {
							how = "copied"
						} else if p.pchRename() {
							how = "renamed"
						}
						from := p.inname
						if skipRename {
							from = p.pname[b2i(p.inname == p.pname[nameOld])]
						}
						p.say("(%s%s from %s)\n", already, how, from)
					}
					if p.verbosity == verbose {
						p.say("Using Plan A...\n")
					}
				}
			}
			applyAnyway := false
			for p.anotherHunk(p.diffType, p.reverse) {
				where := 0
				fuzz := 0
				prefixCtx, suffixCtx := p.prefixContext, p.suffixContext
				ctx := max(prefixCtx, suffixCtx)
				mymaxfuzz := min(p.maxFuzz, ctx)
				hunk++
				if !p.skipRest {
					for {
						where = p.locateHunk(fuzz)
						if where == 0 || fuzz != 0 || p.inOffset != 0 {
							mismatch = true
						}
						if hunk == 1 && where == 0 && !(p.force || applyAnyway) && p.reverse == p.reverseFlag {
							p.pchSwap()
							where = p.locateHunk(fuzz)
							word := "Reversed (or previously applied)"
							if p.reverse {
								word = "Unreversed"
							}
							if where != 0 && p.okToReverse("%s patch detected!", word) {
								p.reverse = !p.reverse
							} else {
								p.pchSwap()
								if where != 0 {
									applyAnyway = true
									fuzz--
									where = 0
								}
							}
						}
						if p.skipRest || where != 0 {
							break
						}
						fuzz++
						if fuzz > mymaxfuzz {
							break
						}
					}
				}
				newwhere := where
				if where == 0 {
					newwhere = p.first
				}
				newwhere += p.outOffset
				if p.skipRest ||
					(where == 1 && p.saysNonexistent[b2i(p.reverse)] == 2 && p.instat.size != 0) ||
					where == 0 || !p.applyHunk(where) {
					if !skipReject {
						p.abortHunk(outname, failed == 0, p.reverse)
					}
					failed++
					if p.verbosity == verbose || (!p.skipRest && p.verbosity != silent) {
						state := "FAILED"
						if p.skipRest {
							state = "ignored"
						}
						endings := ""
						if !p.skipRest && p.checkLineEndings(newwhere) {
							endings = " (different line endings)"
						}
						p.say("Hunk #%d %s at %d%s.\n", hunk, state, newwhere, endings)
					}
				} else if p.verbosity == verbose || (p.verbosity != silent && (fuzz != 0 || p.inOffset != 0)) {
					p.say("Hunk #%d succeeded at %d", hunk, newwhere)
					if fuzz != 0 {
						p.say(" with fuzz %d", fuzz)
					}
					if p.inOffset != 0 {
						s := "s"
						if p.inOffset == 1 {
							s = ""
						}
						p.say(" (offset %d line%s)", p.inOffset, s)
					}
					p.say(".\n")
				}
			}
			if !p.skipRest {
				p.spewOutput()
				if p.ofile != nil {
					p.ofile.Write(p.obuf.Bytes())
				}
			}
		}

		if !p.skipRest && p.outfile == "" {
			backup := p.makeBackups || (p.backupIfMismatch && (mismatch || failed != 0))
			if p.zeroOutput && (p.removeEmpty || (p.saysNonexistent[b2i(!p.reverse)] == 2 && !p.posix) || p.fileType&typeLink != 0) {
				if !p.dryRun {
					p.deleteFileLater(outname, backup)
				}
			} else {
				if !p.zeroOutput && p.saysNonexistent[b2i(!p.reverse)] == 2 && (p.removeEmpty || !p.posix) {
					mismatch = true
					somefailed = true
					if p.verbosity != silent {
						p.say("Not deleting file %s as content differs from patch\n", p.quote(outname))
					}
				}
				if !p.dryRun {
					oldMode := p.pmode[b2i(p.reverse)]
					newMode := p.pmode[b2i(!p.reverse)]
					setMode := newMode != 0 && oldMode != newMode
					if failed < hunk || p.diffType == edDiff || setMode || p.pchCopy() || p.pchRename() {
						var mode fs.FileMode
						explicitMode := false
						switch {
						case setMode:
							mode, explicitMode = newMode.Perm(), true
						case p.inerr == nil:
							mode, explicitMode = p.instat.mode.Perm(), true
						default:
							mode = 0o666
						}
						data := p.obuf.Bytes()
						if p.diffType == edDiff && p.edResult != nil {
							data = p.edResult
						}
						var setTimeTo *stamp
						if newTime := p.ptimestamp[b2i(!p.reverse)]; (p.setTime || p.setUTC) && newTime.sec != -1 {
							oldTime := p.ptimestamp[b2i(p.reverse)]
							switch {
							case !p.force && p.inerr == nil && p.saysNonexistent[b2i(p.reverse)] != 2 && oldTime.sec != -1 &&
								(oldTime.sec != p.instat.mtime.Unix() || oldTime.nsec != int64(p.instat.mtime.Nanosecond())):
								p.say("Not setting time of file %s (time mismatch)\n", p.quote(outname))
							case !p.force && (mismatch || failed != 0):
								p.say("Not setting time of file %s (contents mismatch)\n", p.quote(outname))
							default:
								setTimeTo = &newTime
							}
						}
						p.outputFile(data, outname, mode, explicitMode, backup)
						if setTimeTo != nil && !p.gitDiff {
							t := time.Unix(setTimeTo.sec, setTimeTo.nsec)
							p.c.FS.Chtimes(p.abs(outname), t, t)
						}
						if p.pchRename() {
							p.deleteFileLater(p.inname, backup)
						}
					} else if backup {
						// GNU checks the identity of its temporary output here,
						// so even a file already patched in this run is backed up.
						p.createBackup(outname, true, true)
					}
				}
			}
		}
		if p.diffType != edDiff && failed != 0 && !skipReject {
			somefailed = true
			s := "s"
			if hunk == 1 {
				s = ""
			}
			state := "FAILED"
			if p.skipRest {
				state = "ignored"
			}
			p.say("%d out of %d hunk%s %s", failed, hunk, s, state)
			if hasOutname && (!p.hasRejName || p.rejName != "-") {
				rej := p.rejName
				if !p.hasRejName {
					rej = outname + ".rej"
				}
				if !p.dryRun {
					p.say(" -- saving rejects to file %s\n", p.quote(rej))
					p.saveRejects(rej)
				} else {
					p.say("\n")
				}
			} else {
				p.say("\n")
			}
		}
		p.rej = nil
		if hunk == 0 && p.pbase == iterBase && p.diffType != edDiff {
			// Nothing was consumed: GNU patch would go round this
			// patch forever.
			break
		}
	}
	p.flushOutputs()
	p.runDeletions()
	if p.ofile != nil {
		if p.ofileName == "-" {
			p.out.Flush()
			p.c.Stdout.Write(p.ofile.Bytes())
		} else if err := p.writeFile(p.ofileName, p.ofile.Bytes(), 0o600, false); err != nil {
			p.pfatal(err, "Can't create file %s", p.quote(p.ofileName))
		}
	}
	if somefailed {
		return 1
	}
	return 0
}
