// Package install implements install: copy files and set attributes.
// Owners and groups (-o, -g) are accepted and ignored: the sandbox does
// not model file ownership.
package install

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"
)

const help = `Usage: PROG [OPTION]... [-T] SOURCE DEST
  or:  PROG [OPTION]... SOURCE... DIRECTORY
  or:  PROG [OPTION]... -t DIRECTORY SOURCE...
  or:  PROG [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]  make a backup of each existing destination file
  -b                  like --backup but does not accept an argument
  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to the destination, do not modify
                        the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   accepted; the sandbox has no file ownership
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   accepted; the sandbox has no file ownership
  -S, --suffix=SUFFIX  override the usual backup suffix
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each directory as it is created
      --help        display this help and exit
      --version     output version information and exit
`

var spec = lazy.Value[builtins.Options]{New: func() builtins.Options {
	return builtins.Options{List: append([]builtins.Option{
		{Short: 'c'},
		{Short: 'C', Long: "compare"},
		{Short: 'd', Long: "directory"},
		{Short: 'D'},
		{Short: 'g', Long: "group", Arg: builtins.RequiredArg},
		{Short: 'm', Long: "mode", Arg: builtins.RequiredArg},
		{Short: 'o', Long: "owner", Arg: builtins.RequiredArg},
		{Short: 'p', Long: "preserve-timestamps"},
		{Short: 't', Long: "target-directory", Arg: builtins.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'v', Long: "verbose"},
	}, fileops.BackupOptionList...)}
}}

type installer struct {
	c        *builtins.Call
	ctx      context.Context
	q        quote.Quoter
	out      *fileops.Output
	mode     uint32
	compare  bool
	preserve bool
	verbose  bool
	backup   fileops.Backup
}

// Run is the install command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec.Get(), help)
	if done {
		return status
	}
	in := &installer{c: c, ctx: ctx, q: quote.New(c), out: fileops.NewOutput(c), mode: 0o755}
	var dirs, leading bool
	var target fileops.TargetOptions
	var modeSpec *modes.Change
	var backup fileops.BackupOptions
	for _, o := range opts {
		if backup.Take(o) || target.Take(o) {
			continue
		}
		switch o.Key {
		case "compare":
			in.compare = true
		case "directory":
			dirs = true
		case "D":
			leading = true
		case "mode":
			m, err := modes.Parse(o.Value)
			if err != nil {
				c.Errorf("invalid mode %s", in.q.Q(o.Value))
				return 1
			}
			modeSpec = m
		case "preserve-timestamps":
			in.preserve = true
		case "verbose":
			in.verbose = true
		}
	}
	if modeSpec != nil {
		in.mode = modeSpec.Apply(0, false, 0)
	}
	var good bool
	if in.backup, good = backup.Resolve(c); !good {
		return 1
	}
	if dirs && target.HasDir {
		return fileops.UsageErr(c, "target directory not allowed when installing a directory")
	}
	ok := true
	if dirs {
		if len(operands) == 0 {
			return fileops.UsageErr(c, "missing file operand")
		}
		mode := uint32(0o755)
		if modeSpec != nil {
			mode = modeSpec.Apply(0, true, 0)
		}
		for _, d := range operands {
			if !in.mkdirs(d, mode, true) {
				ok = false
			}
		}
		return in.out.FinishOK(ok)
	}
	if leading && target.HasDir {
		if !in.mkdirs(target.Dir, 0o755, false) {
			return in.out.FinishOK(false)
		}
	} else if leading && !target.NoTarget && len(operands) == 2 || leading && target.NoTarget && len(operands) >= 2 {
		dst := operands[1]
		parent := dst[:strings.LastIndexByte(strings.TrimRight(dst, "/"), '/')+1]
		if parent != "" && !in.mkdirs(strings.TrimRight(parent, "/"), 0o755, false) {
			return in.out.FinishOK(false)
		}
	}
	plan, good := fileops.PlanTargets(c, in.q, operands, target)
	if !good {
		return in.out.FinishOK(false)
	}
	return in.out.FinishOK(plan.Each(ctx, in.install))
}

// mkdirs creates dir and its missing parents; the last gets mode when
// final is set (install -d), every other one rwxr-xr-x.
func (in *installer) mkdirs(dir string, mode uint32, final bool) bool {
	c, q := in.c, in.q
	prefixes, trimmed := fileops.LeadingDirs(dir)
	if trimmed == "" {
		return true
	}
	prefixes = append(prefixes, trimmed)
	for i, p := range prefixes {
		last := i == len(prefixes)-1 && final
		if last {
			// GNU names the directory -d creates as it was given,
			// trailing slashes and all.
			p = dir
		}
		fi, err := c.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				why := "Not a directory" // an ancestor that is a file
				if last {
					why = "File exists"
				}
				c.Errorf("cannot create directory %s: %s", q.Q(p), why)
				return false
			}
			if last {
				c.FS.Chmod(c.Abs(p), modes.FromPerm(mode))
			}
			continue
		}
		m := uint32(0o755)
		if last {
			m = mode
		}
		if err := c.FS.Mkdir(c.Abs(p), modes.FromPerm(m&0o777)); err != nil {
			c.Errorf("cannot create directory %s: %s", q.Q(p), builtins.ErrText(err))
			return false
		}
		if m&^0o777 != 0 {
			c.FS.Chmod(c.Abs(p), modes.FromPerm(m))
		}
		if in.verbose {
			in.out.WriteString(c.Name() + ": creating directory " + q.AF(p) + "\n")
		}
	}
	return true
}

func (in *installer) install(src, dst string) bool {
	c, q := in.c, in.q
	sfi, err := c.Stat(src)
	if err != nil {
		c.Errorf("cannot stat %s: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	if sfi.IsDir() {
		c.Errorf("omitting directory %s", q.AF(src))
		return false
	}
	dfi, derr := c.Lstat(dst)
	if derr == nil {
		if fileops.Physical(c.FS, c.Dir, src, true) == fileops.Physical(c.FS, c.Dir, dst, true) {
			c.Errorf("%s and %s are the same file", q.AF(src), q.AF(dst))
			return false
		}
		if in.compare && in.unchanged(src, dst, dfi) {
			return true
		}
		if dfi.IsDir() {
			c.Errorf("cannot overwrite directory %s with non-directory", q.AF(dst))
			return false
		}
		if in.backup.Type == fileops.BackupNone {
			if err := c.FS.Remove(c.Abs(dst)); err != nil {
				c.Errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
				return false
			}
			if in.verbose {
				in.out.WriteString("removed " + q.AF(dst) + "\n")
			}
		}
	}
	mode := modes.FromPerm(in.mode)
	cp := &fileops.Copier{C: c, Ctx: in.ctx, Q: q, Out: in.out.Writer, Deref: fileops.DerefAlways,
		PreserveTimes: in.preserve, Mode: &mode, Verbose: in.verbose, Backup: in.backup}
	return cp.Copy(src, dst)
}

// unchanged is install -C: the destination already has the content and
// the mode.
func (in *installer) unchanged(src, dst string, dfi fs.FileInfo) bool {
	c := in.c
	if !dfi.Mode().IsRegular() || modes.Perm(dfi.Mode()) != in.mode {
		return false
	}
	sfi, err := c.Stat(src)
	if err != nil || sfi.Size() != dfi.Size() {
		return false
	}
	a, err := c.Open(src)
	if err != nil {
		return false
	}
	defer a.Close()
	b, err := c.Open(dst)
	if err != nil {
		return false
	}
	defer b.Close()
	bufA, bufB := make([]byte, 64*1024), make([]byte, 64*1024)
	for {
		na, ea := io.ReadFull(a, bufA)
		nb, eb := io.ReadFull(b, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}
