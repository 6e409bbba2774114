// Package mv implements mv: move (rename) files. A move across volumes
// copies the tree (modes and times kept) and then removes the source.
package mv

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"
)

const help = `Usage: PROG [OPTION]... [-T] SOURCE DEST
  or:  PROG [OPTION]... SOURCE... DIRECTORY
  or:  PROG [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]       make a backup of each existing destination file
  -b                           like --backup but does not accept an argument
  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
If you specify more than one of -i, -f, -n, only the final one takes effect.
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE
                                 argument
  -S, --suffix=SUFFIX          override the usual backup suffix
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
`

var spec = lazy.Value[builtins.Options]{New: func() builtins.Options {
	return builtins.Options{List: append([]builtins.Option{
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'n', Long: "no-clobber"},
		{Long: "strip-trailing-slashes"},
		{Short: 't', Long: "target-directory", Arg: builtins.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'u', Long: "update"},
		{Short: 'v', Long: "verbose"},
	}, fileops.BackupOptionList...)}
}}

type mover struct {
	c       *builtins.Call
	ctx     context.Context
	q       quote.Quoter
	out     *fileops.Output
	prompt  *fileops.Prompter
	inter   fileops.Interactive
	update  bool
	verbose bool
	backup  fileops.Backup
}

// Run is the mv command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec.Get(), help)
	if done {
		return status
	}
	m := &mover{c: c, ctx: ctx, q: quote.New(c), out: fileops.NewOutput(c), prompt: fileops.NewPrompter(c)}
	var target fileops.TargetOptions
	var backup fileops.BackupOptions
	for _, o := range opts {
		if backup.Take(o) || target.Take(o) {
			continue
		}
		switch o.Key {
		case "force":
			m.inter = fileops.IAlwaysYes
		case "interactive":
			m.inter = fileops.IAskUser
		case "no-clobber":
			m.inter = fileops.IAlwaysNo
		case "strip-trailing-slashes":
		case "update":
			m.update = true
		case "verbose":
			m.verbose = true
		}
	}
	var ok bool
	if m.backup, ok = backup.Resolve(c); !ok {
		return 1
	}
	plan, ok := fileops.PlanTargets(c, m.q, operands, target)
	if !ok {
		return 1
	}
	return m.out.FinishOK(plan.Each(ctx, m.move))
}

func (m *mover) move(src, dst string) bool {
	c, q := m.c, m.q
	sfi, err := fileops.Lstat(c, src)
	if err != nil {
		c.Errorf("cannot stat %s: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	psrc := fileops.Physical(c.FS, c.Dir, src, false)
	pdst := fileops.Physical(c.FS, c.Dir, dst, false)
	dfi, derr := fileops.Lstat(c, dst)
	dstExists := derr == nil
	if !dstExists && !sfi.IsDir() && strings.HasSuffix(dst, "/") {
		c.Errorf("cannot move %s to %s: %s", q.AF(src), q.AF(dst), "Not a directory")
		return false
	}
	if dstExists {
		if psrc == pdst || fileops.SameLinkedFile(sfi, dfi) {
			c.Errorf("%s and %s are the same file", q.AF(src), q.AF(dst))
			return false
		}
		if m.update && !sfi.IsDir() && !dfi.ModTime().Before(sfi.ModTime()) {
			return true
		}
		switch m.inter {
		case fileops.IAlwaysNo:
			return true
		case fileops.IAskUser:
			if !m.prompt.Ask("overwrite %s? ", q.AF(dst)) {
				return true
			}
		}
		if dfi.IsDir() && !sfi.IsDir() {
			c.Errorf("cannot overwrite directory %s with non-directory", q.AF(dst))
			return false
		}
		if !dfi.IsDir() && sfi.IsDir() {
			c.Errorf("cannot overwrite non-directory %s with directory %s", q.AF(dst), q.AF(src))
			return false
		}
	}
	if sfi.IsDir() && fileops.IsUnder(pdst, psrc) {
		c.Errorf("cannot move %s to a subdirectory of itself, %s", q.AF(src), q.AF(dst))
		return false
	}
	backupNote := ""
	if dstExists && m.backup.Type != fileops.BackupNone && !dfi.IsDir() {
		name, err := m.backup.Make(c, dst)
		if err != nil {
			c.Errorf("cannot backup %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
		backupNote = " (backup: " + q.AF(name) + ")"
		dstExists = false
	}
	err = c.FS.Rename(c.Abs(src), c.Abs(dst))
	if err != nil && errors.Is(err, syscall.EEXIST) && dstExists && dfi.IsDir() && sfi.IsDir() {
		// rename(2) replaces an empty directory; a host volume's rename
		// refuses to, so clear the way first.
		entries, rerr := c.ReadDir(dst)
		switch {
		case rerr == nil && len(entries) == 0:
			if rerr = c.FS.Remove(c.Abs(dst)); rerr == nil {
				err = c.FS.Rename(c.Abs(src), c.Abs(dst))
			}
		case rerr == nil:
			err = syscall.ENOTEMPTY
		}
	}
	if err == nil {
		if m.verbose {
			m.out.WriteString("renamed " + q.AF(src) + " -> " + q.AF(dst) + backupNote + "\n")
		}
		return true
	}
	if errors.Is(err, syscall.EXDEV) {
		return m.moveAcross(src, dst, sfi, dstExists, dfi)
	}
	c.Errorf("cannot move %s to %s: %s", q.AF(src), q.AF(dst), builtins.ErrText(err))
	return false
}

// moveAcross copies src to dst on another volume, then removes src.
func (m *mover) moveAcross(src, dst string, sfi fs.FileInfo, dstExists bool, dfi fs.FileInfo) bool {
	c, q := m.c, m.q
	if dstExists {
		// rename(2) would replace the destination; clear it first (an
		// empty directory only, as rename allows).
		var err error
		if dfi.IsDir() {
			var entries []fs.FileInfo
			entries, err = c.ReadDir(dst)
			if err == nil && len(entries) > 0 {
				err = syscall.ENOTEMPTY
			}
		}
		if err == nil {
			err = c.FS.Remove(c.Abs(dst))
		}
		if err != nil {
			c.Errorf("cannot move %s to %s: %s", q.AF(src), q.AF(dst), builtins.ErrText(err))
			return false
		}
	}
	cp := &fileops.Copier{C: c, Ctx: m.ctx, Q: q, Out: m.out.Writer, Recursive: true,
		Deref: fileops.DerefNever, PreserveMode: true, PreserveTimes: true, MoveMode: true, Verbose: m.verbose}
	if !cp.Copy(src, dst) {
		return false
	}
	rm := &fileops.Remover{C: c, Ctx: m.ctx, Q: q, Out: m.out.Writer, Recursive: true, Force: true, Verbose: m.verbose}
	return rm.Remove(src)
}
