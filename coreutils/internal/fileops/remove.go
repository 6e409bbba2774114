package fileops

import (
	"bufio"
	"context"
	"io/fs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Remover removes files and trees with GNU rm's semantics.
type Remover struct {
	C      *builtins.Call
	Ctx    context.Context
	Q      quote.Quoter
	Out    *bufio.Writer
	Prompt *Prompter

	Recursive    bool
	Force        bool // ignore missing files
	EmptyDirs    bool // -d
	Verbose      bool
	Ask          bool // -i: prompt for every removal
	PreserveRoot bool

	ops int
}

// Remove removes one command-line operand and reports success.
func (r *Remover) Remove(name string) bool {
	c, q := r.C, r.Q
	if base := LastComponent(name); base == "." || base == ".." {
		c.Errorf("refusing to remove %s or %s directory: skipping %s", q.AF("."), q.AF(".."), q.AF(name))
		return false
	}
	fi, err := Lstat(c, name)
	if err != nil {
		if r.Force && builtins.IsNotExist(err) {
			return true
		}
		c.Errorf("cannot remove %s: %s", q.AF(name), builtins.ErrText(err))
		return false
	}
	if r.Recursive && r.PreserveRoot && fi.IsDir() && Physical(c.FS, c.Dir, name, false) == "/" {
		if name == "/" {
			c.Errorf("it is dangerous to operate recursively on %s", q.AF("/"))
		} else {
			c.Errorf("it is dangerous to operate recursively on %s (same as %s)", q.AF(name), q.AF("/"))
		}
		c.Errorf("use --no-preserve-root to override this failsafe")
		return false
	}
	ok, _ := r.remove(name, fi)
	return ok
}

// remove removes name; kept reports that something was left in place
// because the user declined, so that its directories are kept quietly.
func (r *Remover) remove(name string, fi fs.FileInfo) (ok, kept bool) {
	c, q := r.C, r.Q
	r.ops++
	if r.ops&1023 == 0 && r.Ctx != nil && r.Ctx.Err() != nil {
		return false, true
	}
	if !fi.IsDir() {
		if r.Ask && !r.Prompt.Ask("remove %s %s? ", modes.FileType(fi), q.AF(name)) {
			return true, false
		}
		ok = r.unlink(name, false)
		return ok, !ok
	}
	if !r.Recursive {
		if !r.EmptyDirs {
			c.Errorf("cannot remove %s: %s", q.AF(name), "Is a directory")
			return false, false
		}
		if r.Ask && !r.Prompt.Ask("remove directory %s? ", q.AF(name)) {
			return true, false
		}
		return r.unlink(name, true), false
	}
	entries, err := c.ReadDir(name)
	if err != nil {
		c.Errorf("cannot remove %s: %s", q.AF(name), builtins.ErrText(err))
		return false, false
	}
	if r.Ask && len(entries) > 0 && !r.Prompt.Ask("descend into directory %s? ", q.AF(name)) {
		return true, true
	}
	ok = true
	for _, e := range entries {
		eok, ekept := r.remove(JoinPath(name, e.Name()), e)
		ok = ok && eok
		kept = kept || ekept || !eok
	}
	if kept {
		// Something inside failed or was not visited: the directory
		// stays too, quietly.
		return ok, true
	}
	if r.Ask && !r.Prompt.Ask("remove directory %s? ", q.AF(name)) {
		return true, false
	}
	ok = r.unlink(name, true)
	return ok, !ok
}

func (r *Remover) unlink(name string, dir bool) bool {
	c, q := r.C, r.Q
	if err := c.FS.Remove(c.Abs(name)); err != nil {
		if r.Force && builtins.IsNotExist(err) {
			return true
		}
		c.Errorf("cannot remove %s: %s", q.AF(name), builtins.ErrText(err))
		return false
	}
	if r.Verbose && r.Out != nil {
		if dir {
			r.Out.WriteString("removed directory " + q.AF(name) + "\n")
		} else {
			r.Out.WriteString("removed " + q.AF(name) + "\n")
		}
	}
	return true
}
