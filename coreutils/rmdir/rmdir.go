// Package rmdir implements rmdir: remove empty directories.
package rmdir

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure to remove a non-empty directory
  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b'
                    is similar to 'rmdir a/b a'

  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
      --version     output version information and exit
`

var spec = builtins.Options{List: []builtins.Option{
	{Long: "ignore-fail-on-non-empty"},
	{Short: 'p', Long: "parents"},
	{Short: 'v', Long: "verbose"},
}}

type remover struct {
	c       *builtins.Call
	q       quote.Quoter
	out     *fileops.Output
	ignore  bool
	verbose bool
}

// Run is the rmdir command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	r := &remover{c: c, q: quote.New(c), out: fileops.NewOutput(c)}
	parents := false
	for _, o := range opts {
		switch o.Key {
		case "ignore-fail-on-non-empty":
			r.ignore = true
		case "parents":
			parents = true
		case "verbose":
			r.verbose = true
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	ok := true
	for _, dir := range operands {
		if ctx.Err() != nil {
			ok = false
			break
		}
		r.announce(dir)
		if err := r.rmdir(dir); err != nil {
			if r.ignorable(err) {
				continue
			}
			c.Errorf("failed to remove %s: %s", r.q.AF(dir), builtins.ErrText(err))
			ok = false
			continue
		}
		if parents && !r.removeParents(dir) {
			ok = false
		}
	}
	return r.out.FinishOK(ok)
}

func (r *remover) announce(dir string) {
	if r.verbose {
		r.out.WriteString(r.c.Name() + ": removing directory, " + r.q.AF(dir) + "\n")
	}
}

func (r *remover) ignorable(err error) bool {
	return r.ignore && (errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST))
}

// rmdir removes one empty directory, with rmdir(2)'s errors.
func (r *remover) rmdir(dir string) error {
	c := r.c
	fi, err := c.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	switch path.Base(strings.TrimRight(dir, "/")) {
	case ".":
		return syscall.EINVAL
	case "..":
		return syscall.ENOTEMPTY
	}
	if strings.Trim(dir, "/") == "" {
		return syscall.EBUSY
	}
	err = c.FS.Remove(c.Abs(dir))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// removeParents removes the ancestors of dir named in it, innermost first.
func (r *remover) removeParents(dir string) bool {
	dir = strings.TrimRight(dir, "/")
	for {
		slash := strings.LastIndexByte(dir, '/')
		if slash < 0 {
			return true
		}
		for slash > 0 && dir[slash] == '/' {
			slash--
		}
		dir = dir[:slash+1]
		r.announce(dir)
		if err := r.rmdir(dir); err != nil {
			if r.ignorable(err) {
				return true
			}
			r.c.Errorf("failed to remove directory %s: %s", r.q.AF(dir), builtins.ErrText(err))
			return false
		}
	}
}
