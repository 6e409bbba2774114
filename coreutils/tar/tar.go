// Package tar implements GNU tar 1.34's create (-c), extract (-x) and list
// (-t) modes over the sandbox filesystem, with gzip, bzip2 (-j), xz (-J)
// and zstd (--zstd) compression, chosen by suffix with -a.
//
// Archives are written in GNU format (long names as ././@LongLink
// records), padded to GNU's 10240-byte records. Extraction follows GNU's
// safety rules: leading "/" and "../" prefixes are removed (and reported
// once), members whose names contain ".." are refused, and symbolic links
// whose targets are absolute or contain ".." are first extracted as empty
// placeholder files and only made into links once every other member is
// in place, so that no member can be written through them. The sandbox
// has no hard links: a hard-link member is extracted as a copy of its
// target. Owners are not restored (the sandbox user owns every file); the
// sandbox user is not root, so the umask applies to extracted modes unless
// -p is given.
package tar

import (
	"context"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
	"github.com/bashbox/bashbox/coreutils/internal/files/datetime"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

const tryHelp = "Try 'tar --help' or 'tar --usage' for more information.\n"

// exit statuses, as GNU tar's.
const (
	exitOK      = 0
	exitDiffers = 1
	exitFailure = 2
	exitUsage   = 64
)

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'c', Long: "create"},
	{Short: 'x', Long: "extract"},
	{Long: "get"},
	{Short: 't', Long: "list"},
	{Short: 'A', Long: "catenate"},
	{Long: "concatenate"},
	{Short: 'd', Long: "diff"},
	{Long: "compare"},
	{Long: "delete"},
	{Short: 'r', Long: "append"},
	{Short: 'u', Long: "update"},
	{Long: "test-label"},

	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'C', Long: "directory", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "verbose"},
	{Short: 'z', Long: "gzip"},
	{Long: "gunzip"},
	{Long: "ungzip"},
	{Short: 'a', Long: "auto-compress"},
	{Long: "no-auto-compress"},
	{Short: 'j', Long: "bzip2"},
	{Short: 'J', Long: "xz"},
	{Long: "zstd"},
	{Long: "lzma"},
	{Long: "lzip"},
	{Long: "lzop"},
	{Short: 'Z', Long: "compress"},
	{Long: "uncompress"},
	{Short: 'I', Long: "use-compress-program", Arg: builtins.RequiredArg},
	{Long: "strip-components", Arg: builtins.RequiredArg},
	{Long: "exclude", Arg: builtins.RequiredArg},
	{Short: 'X', Long: "exclude-from", Arg: builtins.RequiredArg},
	{Long: "exclude-vcs"},
	{Long: "exclude-backups"},
	{Short: 'T', Long: "files-from", Arg: builtins.RequiredArg},
	{Long: "null"},
	{Long: "no-null"},
	{Short: 'p', Long: "preserve-permissions"},
	{Long: "same-permissions"},
	{Long: "no-same-permissions"},
	{Long: "same-owner"},
	{Long: "no-same-owner"},
	{Long: "numeric-owner"},
	{Long: "owner", Arg: builtins.RequiredArg},
	{Long: "group", Arg: builtins.RequiredArg},
	{Long: "mode", Arg: builtins.RequiredArg},
	{Long: "mtime", Arg: builtins.RequiredArg},
	{Short: 'O', Long: "to-stdout"},
	{Short: 'k', Long: "keep-old-files"},
	{Long: "keep-newer-files"},
	{Long: "skip-old-files"},
	{Long: "overwrite"},
	{Long: "overwrite-dir"},
	{Long: "no-overwrite-dir"},
	{Short: 'U', Long: "unlink-first"},
	{Long: "recursive-unlink"},
	{Long: "keep-directory-symlink"},
	{Short: 'm', Long: "touch"},
	{Short: 'h', Long: "dereference"},
	{Long: "sort", Arg: builtins.RequiredArg},
	{Long: "wildcards"},
	{Long: "no-wildcards"},
	{Long: "wildcards-match-slash"},
	{Long: "no-wildcards-match-slash"},
	{Long: "anchored"},
	{Long: "no-anchored"},
	{Long: "ignore-case"},
	{Long: "no-ignore-case"},
	{Short: 'P', Long: "absolute-names"},
	{Long: "recursion"},
	{Long: "no-recursion"},
	{Long: "remove-files"},
	{Short: 'H', Long: "format", Arg: builtins.RequiredArg},
	{Long: "posix"},
	{Short: 'o'},
	{Long: "old-archive"},
	{Long: "portability"},
	{Short: 'b', Long: "blocking-factor", Arg: builtins.RequiredArg},
	{Short: 'B', Long: "read-full-records"},
	{Short: 'i', Long: "ignore-zeros"},
	{Long: "one-file-system"},
	{Long: "full-time"},
	{Long: "utc"},
	{Long: "totals", Arg: builtins.OptionalArg},
	{Long: "warning", Arg: builtins.RequiredArg},
	{Long: "checkpoint", Arg: builtins.OptionalArg},
	{Long: "atime-preserve", Arg: builtins.OptionalArg},
	{Long: "delay-directory-restore"},
	{Long: "no-delay-directory-restore"},
	{Long: "force-local"},
	{Long: "acls"},
	{Long: "no-acls"},
	{Long: "xattrs"},
	{Long: "no-xattrs"},
	{Long: "selinux"},
	{Long: "no-selinux"},
	{Long: "show-transformed-names"},
	{Long: "show-stored-names"},
	{Long: "ignore-failed-read"},
	{Long: "help"},
	{Short: '?'},
	{Long: "usage"},
	{Long: "version"},
}}

// Options taking an argument, for the old bundled form ("tar czf x.tgz").
var argLetters = "fCXTIHb"

type member struct {
	name string // as given
	dir  string // -C directory in effect, relative to c.Dir ("" for none)
}

type tarCmd struct {
	ctx context.Context
	c   *builtins.Call

	mode    byte // 'c', 'x', 't'
	archive string
	verbose int

	gzip, auto    bool
	compressLabel string        // an unsupported compressor asked for
	codec         *codec.Format // -j, -J, --zstd

	strip       int
	excludes    []string
	filesFrom   []string
	nullSep     bool
	samePerms   bool
	numeric     bool
	owner       string
	ownerID     int
	ownerSet    bool
	group       string
	groupID     int
	groupSet    bool
	mtime       *time.Time
	toStdout    bool
	old         oldFiles
	touch       bool
	deref       bool
	sortName    bool
	wildcards   bool
	anchored    *bool
	ignoreCase  bool
	absolute    bool
	noRecursion bool
	removeFiles bool
	fullTime    bool
	keepDirLink bool
	format      string

	members []member // file operands, with their -C directories
	lastDir string   // the -C directory in effect at the end

	loc          *time.Location
	quoter       quote.Quoter
	flushVerbose func() error
	fatalDone    bool
	status       int
	ugswidth     int
}

type oldFiles int

const (
	oldDefault oldFiles = iota
	oldKeep
	oldSkip
	oldOverwrite
)

// Run is the tar command.
func Run(ctx context.Context, c *builtins.Call) int {
	t := &tarCmd{ctx: ctx, c: c, archive: "-", ugswidth: 19}
	t.loc = timefmt.Location(c.LookupEnv)
	t.quoter = quote.New(c)
	if st, done := t.parse(expandOld(c.Args[1:])); done {
		return st
	}
	switch t.mode {
	case 'c':
		t.create()
	case 'x', 't':
		t.read()
	}
	if t.status == exitFailure && !t.fatalDone {
		t.errorf("Exiting with failure status due to previous errors")
	}
	return t.status
}

// expandOld turns GNU tar's traditional first argument ("czvf") into
// separate options, each option's argument taken from the following words.
func expandOld(args []string) []string {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || args[0] == "" {
		return args
	}
	letters := args[0]
	rest := args[1:]
	var out []string
	for i := 0; i < len(letters); i++ {
		out = append(out, "-"+letters[i:i+1])
		if strings.IndexByte(argLetters, letters[i]) >= 0 && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}

func (t *tarCmd) errorf(format string, args ...any) {
	if t.flushVerbose != nil {
		t.flushVerbose()
	}
	fmt.Fprintf(t.c.Stderr, "tar: %s\n", fmt.Sprintf(format, args...))
}

// fail reports a non-fatal error and remembers the failure status.
func (t *tarCmd) fail(format string, args ...any) {
	t.errorf(format, args...)
	t.status = exitFailure
}

func (t *tarCmd) fatal(format string, args ...any) {
	t.errorf(format, args...)
	t.errorf("Error is not recoverable: exiting now")
	t.status = exitFailure
	t.fatalDone = true
}

func (t *tarCmd) usageErr(status int, format string, args ...any) (int, bool) {
	t.errorf(format, args...)
	io.WriteString(t.c.Stderr, tryHelp)
	return status, true
}

func (t *tarCmd) q(s string) string { return t.quoter.Q(s) }

// parse reads the command line, keeping -C in order with the operands.
func (t *tarCmd) parse(args []string) (int, bool) {
	dir := ""
	var modeErr bool
	setMode := func(m byte) {
		if t.mode != 0 && t.mode != m {
			modeErr = true
		}
		t.mode = m
	}
	var unsupported string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, op := range args[i+1:] {
				t.members = append(t.members, member{op, dir})
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			t.members = append(t.members, member{a, dir})
			continue
		}
		opts, _, err := spec.Parse([]string{a})
		if err != nil && strings.Contains(err.Error(), "requires an argument") && i+1 < len(args) {
			opts, _, err = spec.Parse([]string{a, args[i+1]})
			i++
		}
		if err != nil {
			return t.usageErr(exitUsage, "%s", err.Error())
		}
		for _, o := range opts {
			switch o.Key {
			case "help", "?":
				io.WriteString(t.c.Stdout, help)
				return exitOK, true
			case "usage":
				io.WriteString(t.c.Stdout, usage)
				return exitOK, true
			case "version":
				return t.c.Version(), true
			case "create":
				setMode('c')
			case "extract", "get":
				setMode('x')
			case "list":
				setMode('t')
			case "catenate", "concatenate", "diff", "compare", "delete", "append", "update", "test-label":
				setMode('?')
				unsupported = o.Key
			case "file":
				t.archive = o.Value
			case "directory":
				if dir == "" || path.IsAbs(o.Value) {
					dir = o.Value
				} else {
					dir = path.Join(dir, o.Value)
				}
			case "verbose":
				t.verbose++
			case "gzip", "gunzip", "ungzip":
				t.gzip = true
			case "auto-compress":
				t.auto = true
			case "no-auto-compress":
				t.auto = false
			case "bzip2":
				t.codec = codec.Bzip2
			case "xz":
				t.codec = codec.Xz
			case "zstd":
				t.codec = codec.Zstd
			case "lzma", "lzip", "lzop", "compress", "uncompress", "use-compress-program":
				t.compressLabel = o.Key
			case "strip-components":
				n, err := strconv.Atoi(o.Value)
				if err != nil || n < 0 {
					return t.usageErr(exitFailure, "%s: Invalid number of elements", o.Value)
				}
				t.strip = n
			case "exclude":
				t.excludes = append(t.excludes, o.Value)
			case "exclude-from":
				pats, err := t.readList(o.Value, false)
				if err != nil {
					t.fatal("%s: Cannot open: %s", o.Value, builtins.ErrText(err))
					return t.status, true
				}
				t.excludes = append(t.excludes, pats...)
			case "exclude-vcs":
				t.excludes = append(t.excludes, vcsPatterns...)
			case "exclude-backups":
				t.excludes = append(t.excludes, ".#*", "*~", "#*#")
			case "files-from":
				t.filesFrom = append(t.filesFrom, o.Value)
				t.members = append(t.members, member{"\x00T" + o.Value, dir})
			case "null":
				t.nullSep = true
			case "no-null":
				t.nullSep = false
			case "preserve-permissions", "same-permissions":
				t.samePerms = true
			case "no-same-permissions":
				t.samePerms = false
			case "numeric-owner":
				t.numeric = true
			case "owner", "group":
				name, id, ok := parseOwner(o.Value)
				if !ok {
					_, bad, _ := strings.Cut(o.Value, ":")
					t.fatal("%s: Invalid owner or group ID", bad)
					return t.status, true
				}
				if o.Key == "owner" {
					t.owner, t.ownerID, t.ownerSet = name, id, true
				} else {
					t.group, t.groupID, t.groupSet = name, id, true
				}
			case "mtime":
				tm, err := datetime.Parse(o.Value, time.Now(), t.loc)
				if err != nil {
					// GNU accepts a file name: its mtime is used.
					fi, serr := t.c.Stat(o.Value)
					if serr != nil {
						t.errorf("Substituting %s for unknown date format %s", "-9223372036854775807", t.q(o.Value))
						break
					}
					tm = fi.ModTime()
				}
				t.mtime = &tm
			case "to-stdout":
				t.toStdout = true
			case "keep-old-files":
				t.old = oldKeep
			case "skip-old-files":
				t.old = oldSkip
			case "overwrite":
				t.old = oldOverwrite
			case "keep-newer-files", "overwrite-dir", "no-overwrite-dir", "unlink-first", "recursive-unlink":
				// The default replacement rules cover these closely enough.
			case "keep-directory-symlink":
				t.keepDirLink = true
			case "touch":
				t.touch = true
			case "dereference":
				t.deref = true
			case "sort":
				switch o.Value {
				case "none", "inode":
					t.sortName = false
				case "name":
					t.sortName = true
				default:
					t.errorf("invalid argument %s for %s", t.q(o.Value), t.q("--sort"))
					io.WriteString(t.c.Stderr, "Valid arguments are:\n  - ‘none’\n  - ‘name’\n  - ‘inode’\n")
					io.WriteString(t.c.Stderr, "Usage: tar [OPTION...] [FILE]...\n"+tryHelp)
					return exitFailure, true
				}
			case "wildcards":
				t.wildcards = true
			case "no-wildcards":
				t.wildcards = false
			case "anchored", "no-anchored":
				v := o.Key == "anchored"
				t.anchored = &v
			case "ignore-case":
				t.ignoreCase = true
			case "no-ignore-case":
				t.ignoreCase = false
			case "absolute-names":
				t.absolute = true
			case "recursion":
				t.noRecursion = false
			case "no-recursion":
				t.noRecursion = true
			case "remove-files":
				t.removeFiles = true
			case "format":
				switch o.Value {
				case "gnu", "oldgnu", "ustar", "posix", "pax", "v7":
					t.format = o.Value
				default:
					return t.usageErr(exitFailure, "%s: Invalid archive format", o.Value)
				}
			case "posix":
				t.format = "posix"
			case "o", "old-archive", "portability":
				t.format = "v7"
			case "blocking-factor":
				if n, err := strconv.Atoi(o.Value); err != nil || n <= 0 {
					return t.usageErr(exitFailure, "%s: Invalid blocking factor", o.Value)
				}
			case "full-time":
				t.fullTime = true
			case "utc":
				t.loc = time.UTC
			}
		}
	}
	if modeErr {
		return t.usageErr(exitFailure, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
	}
	if t.mode == 0 {
		return t.usageErr(exitFailure, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	}
	if t.mode == '?' {
		t.errorf("--%s: this mode is not supported by bashbox's tar (only -c, -x and -t)", unsupported)
		return exitFailure, true
	}
	if t.compressLabel != "" {
		t.errorf("--%s: only gzip, bzip2, xz and zstd compression are supported by bashbox's tar", t.compressLabel)
		return exitFailure, true
	}
	t.lastDir = dir
	if t.mode == 'c' && len(t.members) == 0 {
		return t.usageErr(exitFailure, "Cowardly refusing to create an empty archive")
	}
	return 0, false
}

var vcsPatterns = []string{
	"CVS", "RCS", "SCCS", ".git", ".gitignore", ".gitattributes", ".gitmodules",
	".arch-ids", "{arch}", "=RELEASE-ID", "=meta-update", "=update", ".bzr",
	".bzrignore", ".bzrtags", ".hg", ".hgignore", ".hgrags", "_darcs",
}

// parseOwner reads --owner/--group's NAME, NAME:ID or ID.
func parseOwner(s string) (string, int, bool) {
	name, idText, hasID := strings.Cut(s, ":")
	if hasID {
		id, err := strconv.Atoi(idText)
		if err != nil || id < 0 {
			return "", 0, false
		}
		return name, id, true
	}
	if s == "" {
		return "", 0, false
	}
	if id, err := strconv.Atoi(strings.TrimPrefix(s, "+")); err == nil && id >= 0 {
		if id == 0 {
			return "root", 0, true
		}
		return "", id, true
	}
	return name, -1, true
}

// readList reads a -T or -X file: one name a line (or NUL-separated).
func (t *tarCmd) readList(name string, null bool) ([]string, error) {
	data, err := textio.ReadAll(t.ctx, t.c, name)
	if err != nil {
		return nil, err
	}
	sep := "\n"
	if null {
		sep = "\x00"
	}
	var out []string
	for _, l := range strings.Split(string(data), sep) {
		if !null {
			l = strings.TrimSuffix(l, "\r")
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// path resolves a name relative to a -C directory.
func (t *tarCmd) path(dir, name string) string {
	if dir == "" || path.IsAbs(name) {
		return name
	}
	if name == "." {
		return dir
	}
	return dir + "/" + name
}

const usage = `Usage: tar [-AcdrtuxGnSkUWOmpsMBiajJzZhPlRvwo?] [-g FILE] [-C DIR] [-T FILE]
            [-X FILE] [-f ARCHIVE] [-F NAME] [-L NUMBER] [-b BLOCKS]
            [-H FORMAT] [-V TEXT] [-I PROG] [-K MEMBER-NAME] [-N DATE-OR-FILE]
            [--create] [--extract] [--get] [--list] [--directory=DIR]
            [--exclude=PATTERN] [--exclude-from=FILE] [--files-from=FILE]
            [--file=ARCHIVE] [--gzip] [--strip-components=NUMBER]
            [--to-stdout] [--keep-old-files] [--overwrite] [--verbose]
            [--help] [--usage] [--version] [FILE]...
`

const help = `Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:
  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -x, --extract, --get       extract files from an archive

 Operation modifiers:
  -f, --file=ARCHIVE         use archive file or device ARCHIVE ('-' is
                             standard input or output)
  -C, --directory=DIR        change to directory DIR
  -v, --verbose              verbosely list files processed
  -z, --gzip, --gunzip, --ungzip   filter the archive through gzip
  -a, --auto-compress        use archive suffix to determine the compression
                             program
      --strip-components=NUMBER   strip NUMBER leading components from file
                             names on extraction
      --exclude=PATTERN      exclude files, given as a PATTERN
  -X, --exclude-from=FILE    exclude patterns listed in FILE
      --exclude-vcs          exclude version control system directories
  -T, --files-from=FILE      get names to extract or create from FILE
      --null                 -T reads null-terminated names
      --no-recursion         avoid descending automatically in directories
      --wildcards            use wildcards for member names
  -P, --absolute-names       don't strip leading '/'s from file names
  -h, --dereference          follow symlinks; archive the files they point to
      --remove-files         remove files after adding them to the archive
      --sort=ORDER           directory sorting order: none (default), name or
                             inode

 Overwrite control:
  -k, --keep-old-files       don't replace existing files when extracting,
                             treat them as errors
      --skip-old-files       don't replace existing files when extracting,
                             silently skip over them
      --overwrite            overwrite existing files when extracting
      --keep-directory-symlink   preserve existing symlinks to directories when
                             extracting
  -O, --to-stdout            extract files to standard output

 Handling of file attributes:
      --owner=NAME           force NAME as owner for added files
      --group=NAME           force NAME as group for added files
      --mtime=DATE-OR-FILE   set mtime for added files from DATE-OR-FILE
  -m, --touch                don't extract file modified time
  -p, --preserve-permissions, --same-permissions
                             extract information about file permissions
                             (default for superuser)
      --no-same-permissions  apply the user's umask when extracting permissions
                             from the archive (default for ordinary users)
      --no-same-owner        extract files as yourself (default for ordinary
                             users)
      --numeric-owner        always use numbers for user/group names

 Archive format selection:
  -H, --format=FORMAT        create archive of the given format: gnu (default),
                             oldgnu, pax, posix, ustar, v7

 Informative output:
      --full-time            print file time to its full resolution
      --utc                  print file modification times in UTC

  -?, --help                 give this help list
      --usage                give a short usage message
      --version              print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.

The sandbox has no hard links: hard-link members are extracted as copies.
Only gzip compression is available.
`
