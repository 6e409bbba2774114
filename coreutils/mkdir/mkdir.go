// Package mkdir implements mkdir: make directories.
package mkdir

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
  -Z                   accepted; the sandbox has no security contexts
      --context[=CTX]  accepted; the sandbox has no security contexts
      --help        display this help and exit
      --version     output version information and exit
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'm', Long: "mode", Arg: builtins.RequiredArg},
	{Short: 'p', Long: "parents"},
	{Short: 'v', Long: "verbose"},
	{Short: 'Z'},
	{Long: "context", Arg: builtins.OptionalArg},
}}

// Run is the mkdir command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	q := quote.New(c)
	var parents, verbose bool
	var modeSpec *modes.Change
	for _, o := range opts {
		switch o.Key {
		case "mode":
			m, err := modes.Parse(o.Value)
			if err != nil {
				c.Errorf("invalid mode %s", q.Q(o.Value))
				return 1
			}
			modeSpec = m
		case "parents":
			parents = true
		case "verbose":
			verbose = true
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	mode := uint32(0o777 &^ uint32(c.Umask))
	if modeSpec != nil {
		mode = modeSpec.Apply(0o777, true, uint32(c.Umask))
	}
	out := fileops.NewOutput(c)
	m := &maker{c: c, q: q, out: out, verbose: verbose, explicit: modeSpec != nil}
	ok := true
	for _, dir := range operands {
		if ctx.Err() != nil {
			ok = false
			break
		}
		if parents {
			ok = m.makeParents(dir, mode) && ok
		} else {
			ok = m.make(dir, mode, false) && ok
		}
	}
	return out.FinishOK(ok)
}

type maker struct {
	c        *builtins.Call
	q        quote.Quoter
	out      *fileops.Output
	verbose  bool
	explicit bool
}

func (m *maker) make(dir string, mode uint32, quietExist bool) bool {
	c := m.c
	if err := c.FS.Mkdir(c.Abs(dir), modes.FromPerm(mode&0o777)); err != nil {
		if quietExist {
			if fi, serr := c.Stat(dir); serr == nil && fi.IsDir() {
				return true
			}
		}
		c.Errorf("cannot create directory %s: %s", m.q.Q(dir), builtins.ErrText(err))
		return false
	}
	if m.explicit || mode&^0o777 != 0 {
		if err := c.FS.Chmod(c.Abs(dir), modes.FromPerm(mode)); err != nil {
			c.Errorf("cannot set permissions of directory %s: %s", m.q.Q(dir), builtins.ErrText(err))
			return false
		}
	}
	if m.verbose {
		m.out.WriteString(c.Name() + ": created directory " + m.q.AF(dir) + "\n")
	}
	return true
}

// makeParents is mkdir -p: create the missing leading directories (a=rwx
// less the umask, plus u+wx), then dir itself with mode.
func (m *maker) makeParents(dir string, mode uint32) bool {
	c := m.c
	if fi, err := c.Stat(dir); err == nil && fi.IsDir() {
		return true
	}
	// Components, kept as the user wrote them for messages.
	prefixes, trimmed := fileops.LeadingDirs(dir)
	if trimmed == "" {
		return true
	}
	parentMode := uint32(0o777&^uint32(c.Umask) | 0o300)
	for _, p := range prefixes {
		fi, err := c.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				c.Errorf("cannot create directory %s: %s", m.q.Q(p), "Not a directory")
				return false
			}
			continue
		}
		save := m.explicit
		m.explicit = false
		ok := m.make(p, parentMode, true)
		m.explicit = save
		if !ok {
			return false
		}
	}
	return m.make(dir, mode, true)
}
