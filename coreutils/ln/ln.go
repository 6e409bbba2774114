// Package ln implements ln: make links between files. Hard links are
// real: within one volume, in memory or on the host directory of a
// read-write volume; across volumes they fail with EXDEV, as across
// filesystems.
package ln

import (
	"context"
	"io/fs"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"
)

const help = `Usage: PROG [OPTION]... [-T] TARGET LINK_NAME
  or:  PROG [OPTION]... TARGET
  or:  PROG [OPTION]... TARGET... DIRECTORY
  or:  PROG [OPTION]... -t DIRECTORY TARGET...
In the 1st form, create a link to TARGET with the name LINK_NAME.
In the 2nd form, create a link to TARGET in the current directory.
In the 3rd and 4th forms, create links to each TARGET in DIRECTORY.
Create hard links by default, symbolic links with --symbolic.

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]      make a backup of each existing destination file
  -b                          like --backup but does not accept an argument
  -f, --force                 remove existing destination files
  -i, --interactive           prompt whether to remove destinations
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -S, --suffix=SUFFIX         override the usual backup suffix
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help        display this help and exit
      --version     output version information and exit
`

var spec = lazy.Value[builtins.Options]{New: func() builtins.Options {
	return builtins.Options{List: append([]builtins.Option{
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'L', Long: "logical"},
		{Short: 'n', Long: "no-dereference"},
		{Short: 'P', Long: "physical"},
		{Short: 'r', Long: "relative"},
		{Short: 's', Long: "symbolic"},
		{Short: 't', Long: "target-directory", Arg: builtins.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'v', Long: "verbose"},
	}, fileops.BackupOptionList...)}
}}

type linker struct {
	c                           *builtins.Call
	ctx                         context.Context
	q                           quote.Quoter
	out                         *fileops.Output
	prompt                      *fileops.Prompter
	force, interactive          bool
	logical, noDeref            bool
	relative, symbolic, verbose bool
	backup                      fileops.Backup
}

// Run is the ln command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec.Get(), help)
	if done {
		return status
	}
	l := &linker{c: c, ctx: ctx, q: quote.New(c), out: fileops.NewOutput(c), prompt: fileops.NewPrompter(c)}
	var target fileops.TargetOptions
	var backup fileops.BackupOptions
	for _, o := range opts {
		if backup.Take(o) || target.Take(o) {
			continue
		}
		switch o.Key {
		case "force":
			l.force, l.interactive = true, false
		case "interactive":
			l.force, l.interactive = false, true
		case "logical":
			l.logical = true
		case "physical":
			l.logical = false
		case "no-dereference":
			l.noDeref = true
		case "relative":
			l.relative = true
		case "symbolic":
			l.symbolic = true
		case "verbose":
			l.verbose = true
		}
	}
	q := l.q
	var good bool
	if l.backup, good = backup.Resolve(c); !good {
		return 1
	}
	if l.relative && !l.symbolic {
		c.Errorf("cannot do --relative without --symbolic")
		return 1
	}
	if target.HasDir && target.NoTarget {
		c.Errorf("cannot combine --target-directory and --no-target-directory")
		return 1
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing file operand")
	}
	// ln's operands differ from cp's and mv's: one operand links into ".",
	// -n does not follow a symlink to a directory, and the messages differ.
	var plan fileops.Plan
	switch {
	case target.HasDir:
		fi, err := c.Stat(target.Dir)
		if err != nil {
			c.Errorf("failed to access %s: %s", q.AF(target.Dir), builtins.ErrText(err))
			return 1
		}
		if !fi.IsDir() {
			c.Errorf("target %s is not a directory", q.AF(target.Dir))
			return 1
		}
		plan = fileops.Plan{Sources: operands, Dir: target.Dir, IntoDir: true}
	case target.NoTarget:
		if len(operands) == 1 {
			return fileops.UsageErr(c, "missing destination file operand after %s", q.AF(operands[0]))
		}
		if len(operands) > 2 {
			return fileops.UsageErr(c, "extra operand %s", q.AF(operands[2]))
		}
		plan = fileops.Plan{Sources: operands[:1], Dest: operands[1]}
	case len(operands) == 1:
		plan = fileops.Plan{Sources: operands, Dir: ".", IntoDir: true}
	default:
		last := operands[len(operands)-1]
		isDir := false
		fi, err := c.Stat(last)
		if err == nil && fi.IsDir() {
			isDir = true
			if l.noDeref {
				if lfi, lerr := c.Lstat(last); lerr == nil && lfi.Mode()&fs.ModeSymlink != 0 {
					isDir = false
				}
			}
		}
		switch {
		case isDir:
			plan = fileops.Plan{Sources: operands[:len(operands)-1], Dir: last, IntoDir: true}
		case len(operands) > 2:
			if err == nil {
				err = fileops.ErrNotDir
			}
			c.Errorf("target %s: %s", q.AF(last), builtins.ErrText(err))
			return 1
		default:
			plan = fileops.Plan{Sources: operands[:1], Dest: last}
		}
	}
	return l.out.FinishOK(plan.Each(ctx, l.link))
}

func (l *linker) link(src, dst string) bool {
	c, q := l.c, l.q
	var sfi fs.FileInfo
	if !l.symbolic {
		var err error
		sfi, err = meta.Stat(c, src, l.logical)
		if err != nil {
			c.Errorf("failed to access %s: %s", q.AF(src), builtins.ErrText(err))
			return false
		}
		if sfi.IsDir() {
			c.Errorf("%s: hard link not allowed for directory", q.F(src))
			return false
		}
	}
	target := src
	if l.relative {
		target = l.relativeTarget(src, dst)
	}
	backupName := ""
	dfi, derr := c.Lstat(dst)
	if derr == nil {
		replace := l.force || l.interactive || l.backup.Type != fileops.BackupNone
		if dfi.IsDir() && replace {
			c.Errorf("%s: cannot overwrite directory", q.F(dst))
			return false
		}
		if replace && fileops.Physical(c.FS, c.Dir, src, true) == fileops.Physical(c.FS, c.Dir, dst, false) {
			c.Errorf("%s and %s are the same file", q.AF(src), q.AF(dst))
			return false
		}
		if l.interactive {
			if !l.prompt.Ask("replace %s? ", q.AF(dst)) {
				return true
			}
		}
		if l.backup.Type != fileops.BackupNone {
			name, err := l.backup.Make(c, dst)
			if err != nil {
				c.Errorf("cannot backup %s: %s", q.AF(dst), builtins.ErrText(err))
				return false
			}
			backupName = name
		} else if replace {
			if err := c.FS.Remove(c.Abs(dst)); err != nil {
				c.Errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
				return false
			}
		} else {
			l.failed(dst, src, fileops.ErrExist)
			return false
		}
	}
	if l.symbolic {
		if err := c.FS.SymlinkIfPossible(target, c.Abs(dst)); err != nil {
			l.failed(dst, target, err)
			return false
		}
		l.report(backupName, dst, "->", target)
		return true
	}
	if !l.hardLink(src, dst, sfi) {
		return false
	}
	l.report(backupName, dst, "=>", src)
	return true
}

// report is the -v line: "'b' -> 'a'", with "'b~' ~ " before it when a
// backup was made.
func (l *linker) report(backup, dst, arrow, target string) {
	if !l.verbose {
		return
	}
	if backup != "" {
		l.out.WriteString(l.q.AF(backup) + " ~ ")
	}
	l.out.WriteString(l.q.AF(dst) + " " + arrow + " " + l.q.AF(target) + "\n")
}

func (l *linker) failed(dst, src string, err error) {
	c, q := l.c, l.q
	switch {
	case l.symbolic:
		c.Errorf("failed to create symbolic link %s: %s", q.AF(dst), builtins.ErrText(err))
	case builtins.IsNotExist(err) || !isExist(err):
		c.Errorf("failed to create hard link %s => %s: %s", q.AF(dst), q.AF(src), builtins.ErrText(err))
	default:
		c.Errorf("failed to create hard link %s: %s", q.AF(dst), builtins.ErrText(err))
	}
}

func isExist(err error) bool { return builtins.ErrText(err) == "File exists" }

// hardLink makes dst another name of src: of the symlink itself when sfi
// is one (-P), else of the file it leads to.
func (l *linker) hardLink(src, dst string, sfi fs.FileInfo) bool {
	c := l.c
	from := src
	if sfi.Mode()&fs.ModeSymlink == 0 {
		from = fileops.Physical(c.FS, c.Dir, src, true)
	}
	if err := c.Link(from, dst); err != nil {
		l.failed(dst, src, err)
		return false
	}
	return true
}

// relativeTarget is ln -r: src relative to the directory dst is in.
func (l *linker) relativeTarget(src, dst string) string {
	c := l.c
	cn := fileops.Canon{FS: c.FS, Dir: c.Dir, Mode: fileops.CanMissing}
	from, err := cn.Resolve(src)
	if err != nil {
		return src
	}
	parent := path.Dir(strings.TrimRight(dst, "/"))
	to, err := cn.Resolve(parent)
	if err != nil {
		return src
	}
	return fileops.RelPath(to, from)
}
