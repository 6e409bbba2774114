// Package mktemp implements mktemp: create a temporary file or directory.
package mktemp

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
      --version     output version information and exit
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'd', Long: "directory"},
	{Short: 'u', Long: "dry-run"},
	{Short: 'q', Long: "quiet"},
	{Long: "suffix", Arg: builtins.RequiredArg},
	{Short: 'p', Arg: builtins.RequiredArg},
	{Long: "tmpdir", Arg: builtins.OptionalArg},
	{Short: 't'},
}}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Run is the mktemp command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	q := quote.New(c)
	var dir, dryRun, quiet, useDestDir, tOption, hasSuffix bool
	var suffix, destDirArg string
	for _, o := range opts {
		switch o.Key {
		case "directory":
			dir = true
		case "dry-run":
			dryRun = true
		case "quiet":
			quiet = true
		case "suffix":
			suffix, hasSuffix = o.Value, true
		case "p", "tmpdir":
			useDestDir = true
			if o.Has {
				destDirArg = o.Value
			}
		case "t":
			useDestDir, tOption = true, true
		}
	}
	if len(operands) > 1 {
		return fileops.UsageErr(c, "too many templates")
	}
	template := "tmp.XXXXXXXXXX"
	if len(operands) == 0 {
		useDestDir = true
	} else {
		template = operands[0]
	}
	if hasSuffix {
		if strings.IndexByte(suffix, '/') >= 0 {
			c.Errorf("invalid suffix %s, contains directory separator", q.Q(suffix))
			return 1
		}
		if !strings.HasSuffix(template, "X") {
			c.Errorf("with --suffix, template %s must end in X", q.Q(template))
			return 1
		}
	} else if i := strings.LastIndexByte(template, 'X'); i >= 0 {
		suffix = template[i+1:]
		template = template[:i+1]
	} else {
		suffix = ""
	}
	xs := 0
	for xs < len(template) && template[len(template)-1-xs] == 'X' {
		xs++
	}
	if xs < 3 {
		c.Errorf("too few X's in template %s", q.Q(template+suffix))
		return 1
	}
	if useDestDir {
		var destDir string
		tmpdir := c.Getenv("TMPDIR")
		if tOption {
			destDir = tmpdir
			if destDir == "" {
				destDir = destDirArg
			}
			if destDir == "" {
				destDir = "/tmp"
			}
			if strings.IndexByte(template+suffix, '/') >= 0 {
				c.Errorf("invalid template, %s, contains directory separator", q.Q(template+suffix))
				return 1
			}
		} else {
			destDir = destDirArg
			if destDir == "" {
				destDir = tmpdir
			}
			if destDir == "" {
				destDir = "/tmp"
			}
			if strings.HasPrefix(template, "/") {
				c.Errorf("invalid template, %s; with --tmpdir, it may not be absolute", q.Q(template+suffix))
				return 1
			}
		}
		template = fileops.JoinPath(destDir, template)
	}
	prefix := template[:len(template)-xs]
	var name string
	var err error
	for try := 0; try < 100; try++ {
		if ctx.Err() != nil {
			return 1
		}
		var b strings.Builder
		b.WriteString(prefix)
		for i := 0; i < xs; i++ {
			b.WriteByte(letters[rand.IntN(len(letters))])
		}
		b.WriteString(suffix)
		name = b.String()
		err = create(c, name, dir, dryRun)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		if !quiet {
			what := "file"
			if dir {
				what = "directory"
			}
			c.Errorf("failed to create %s via template %s: %s", what, q.Q(template+suffix), builtins.ErrText(err))
		}
		return 1
	}
	if _, werr := c.Stdout.Write([]byte(name + "\n")); werr != nil {
		if builtins.IsBrokenPipe(werr) {
			return 141
		}
		c.Errorf("write error: %s", builtins.ErrText(werr))
		return 1
	}
	return 0
}

// create makes the file (0600) or directory (0700); a dry run only checks
// that nothing has the name yet.
func create(c *builtins.Call, name string, dir, dryRun bool) error {
	if dryRun {
		if _, err := c.Lstat(name); err == nil {
			return fs.ErrExist
		}
		return nil
	}
	if dir {
		if err := c.FS.Mkdir(c.Abs(name), 0o700); err != nil {
			return err
		}
		return nil
	}
	f, err := c.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}
