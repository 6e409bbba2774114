package fileops

import (
	"context"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Plan is where the sources of cp, mv or install go: into a directory, or
// to one destination.
type Plan struct {
	Sources []string
	Dest    string // the destination file, when !IntoDir
	Dir     string // the target directory, when IntoDir
	IntoDir bool
}

// TargetOptions are -t DIR (--target-directory) and -T
// (--no-target-directory), as cp, mv, ln and install take them.
type TargetOptions struct {
	Dir      string // -t DIR
	HasDir   bool
	NoTarget bool // -T
}

// Take records opt when it is one of the target options.
func (t *TargetOptions) Take(opt builtins.Opt) bool {
	switch opt.Key {
	case "target-directory":
		t.Dir, t.HasDir = opt.Value, true
	case "no-target-directory":
		t.NoTarget = true
	default:
		return false
	}
	return true
}

// PlanTargets reads SOURCE... DEST / -t DIR / -T operands as cp, mv and
// install do. ok is false when an error was printed (status 1).
func PlanTargets(c *builtins.Call, q quote.Quoter, operands []string, t TargetOptions) (Plan, bool) {
	targetDir, hasTargetDir, noTarget := t.Dir, t.HasDir, t.NoTarget
	if hasTargetDir && noTarget {
		UsageErr(c, "cannot combine --target-directory (-t) and --no-target-directory (-T)")
		return Plan{}, false
	}
	if len(operands) == 0 {
		UsageErr(c, "missing file operand")
		return Plan{}, false
	}
	if hasTargetDir {
		fi, err := c.Stat(targetDir)
		if err == nil && !fi.IsDir() {
			err = errNotDir
		}
		if err != nil {
			c.Errorf("target directory %s: %s", q.AF(targetDir), builtins.ErrText(err))
			return Plan{}, false
		}
		return Plan{Sources: operands, Dir: targetDir, IntoDir: true}, true
	}
	if len(operands) == 1 {
		UsageErr(c, "missing destination file operand after %s", q.AF(operands[0]))
		return Plan{}, false
	}
	if noTarget {
		if len(operands) > 2 {
			UsageErr(c, "extra operand %s", q.AF(operands[2]))
			return Plan{}, false
		}
		return Plan{Sources: operands[:1], Dest: operands[1]}, true
	}
	last := operands[len(operands)-1]
	fi, err := c.Stat(last)
	if err == nil && fi.IsDir() {
		return Plan{Sources: operands[:len(operands)-1], Dir: last, IntoDir: true}, true
	}
	if len(operands) > 2 {
		if err == nil {
			err = errNotDir
		}
		c.Errorf("target %s: %s", q.AF(last), builtins.ErrText(err))
		return Plan{}, false
	}
	return Plan{Sources: operands[:1], Dest: last}, true
}

// Each calls do with every source and its destination, in order, until
// ctx is done. It reports whether every call was made and succeeded.
func (p Plan) Each(ctx context.Context, do func(src, dst string) bool) bool {
	ok := true
	for _, src := range p.Sources {
		if ctx.Err() != nil {
			return false
		}
		dst := p.Dest
		if p.IntoDir {
			dst = Into(p.Dir, src)
		}
		if !do(src, dst) {
			ok = false
		}
	}
	return ok
}

// Into returns where src lands inside the target directory dir.
func Into(dir, src string) string {
	return joinPath(dir, LastComponent(src))
}

// LastComponent is the last component of a file name, trailing slashes
// removed ("a/b/" gives "b"; "/" gives "/").
func LastComponent(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" {
		if name == "" {
			return ""
		}
		return "/"
	}
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		return t[i+1:]
	}
	return t
}
