// Package cp implements cp: copy files and directories.
package cp

import (
	"context"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"
)

const help = `Usage: PROG [OPTION]... [-T] SOURCE DEST
  or:  PROG [OPTION]... SOURCE... DIRECTORY
  or:  PROG [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

Mandatory arguments to long options are mandatory for short options too.
  -a, --archive                same as -dR --preserve=all
      --backup[=CONTROL]       make a backup of each existing destination file
  -b                           like --backup but does not accept an argument
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            prompt before overwrite (overrides a previous -n
                                  option)
  -H                           follow command-line symbolic links in SOURCE
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file (overrides
                                 a previous -i option)
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:
                                 mode,ownership,timestamps), if possible
                                 additional attributes: context, links, xattr,
                                 all
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
      --reflink[=WHEN]         accepted; data is always copied
      --remove-destination     remove each existing destination file before
                                 attempting to open it (contrast with --force)
      --sparse=WHEN            accepted; files are copied as they are
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE
                                 argument
  -s, --symbolic-link          make symbolic links instead of copying
  -S, --suffix=SUFFIX          override the usual backup suffix
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
  -x, --one-file-system        stay on this file system
      --help        display this help and exit
      --version     output version information and exit
`

var spec = lazy.Value[builtins.Options]{New: func() builtins.Options {
	return builtins.Options{List: append([]builtins.Option{
		{Short: 'a', Long: "archive"},
		{Short: 'd'},
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'H'},
		{Short: 'l', Long: "link"},
		{Short: 'L', Long: "dereference"},
		{Short: 'n', Long: "no-clobber"},
		{Short: 'P', Long: "no-dereference"},
		{Short: 'p'},
		{Long: "preserve", Arg: builtins.OptionalArg},
		{Long: "no-preserve", Arg: builtins.RequiredArg},
		{Long: "parents"},
		{Short: 'R', Long: "recursive"},
		{Short: 'r'},
		{Long: "reflink", Arg: builtins.OptionalArg},
		{Long: "remove-destination"},
		{Long: "sparse", Arg: builtins.RequiredArg},
		{Long: "strip-trailing-slashes"},
		{Short: 's', Long: "symbolic-link"},
		{Short: 't', Long: "target-directory", Arg: builtins.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'u', Long: "update"},
		{Short: 'v', Long: "verbose"},
		{Short: 'x', Long: "one-file-system"},
	}, fileops.BackupOptionList...)}
}}

const (
	preserveMode = iota
	preserveTimestamps
	preserveOther
	preserveAll
)

var preserveChoices = []argmatch.Choice{
	{Names: []string{"mode"}, Value: preserveMode},
	{Names: []string{"timestamps"}, Value: preserveTimestamps},
	{Names: []string{"ownership"}, Value: preserveOther},
	{Names: []string{"links"}, Value: preserveOther},
	{Names: []string{"context"}, Value: preserveOther},
	{Names: []string{"xattr"}, Value: preserveOther},
	{Names: []string{"all"}, Value: preserveAll},
}

// The --reflink and --sparse words: accepted, with no effect here.
var (
	reflinkChoices = []argmatch.Choice{{Names: []string{"auto"}}, {Names: []string{"always"}, Value: 1}, {Names: []string{"never"}, Value: 2}}
	sparseChoices  = []argmatch.Choice{{Names: []string{"never"}}, {Names: []string{"auto"}, Value: 1}, {Names: []string{"always"}, Value: 2}}
)

// Run is the cp command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec.Get(), help)
	if done {
		return status
	}
	q := quote.New(c)
	out := fileops.NewOutput(c)
	cp := &fileops.Copier{C: c, Ctx: ctx, Q: q, Out: out.Writer, Prompt: fileops.NewPrompter(c), Deref: -1}
	var target fileops.TargetOptions
	var parents, ok bool
	setPreserve := func(list string, on bool, option string) bool {
		for _, a := range strings.Split(list, ",") {
			v, ok := argmatch.Get(c, a, option, preserveChoices, 1)
			if !ok {
				return false
			}
			switch v {
			case preserveMode:
				cp.PreserveMode = on
			case preserveTimestamps:
				cp.PreserveTimes = on
			case preserveAll:
				cp.PreserveMode, cp.PreserveTimes = on, on
			}
		}
		return true
	}
	var backup fileops.BackupOptions
	for _, o := range opts {
		if backup.Take(o) || target.Take(o) {
			continue
		}
		switch o.Key {
		case "archive":
			cp.Deref = fileops.DerefNever
			cp.Recursive = true
			cp.PreserveMode, cp.PreserveTimes = true, true
		case "d":
			cp.Deref = fileops.DerefNever
		case "force":
			cp.UnlinkAfterFailedOpen = true
		case "interactive":
			cp.Interactive = fileops.IAskUser
		case "H":
			cp.Deref = fileops.DerefCmdLine
		case "link":
			cp.Link = true
		case "dereference":
			cp.Deref = fileops.DerefAlways
		case "no-clobber":
			cp.Interactive = fileops.IAlwaysNo
		case "no-dereference":
			cp.Deref = fileops.DerefNever
		case "p":
			cp.PreserveMode, cp.PreserveTimes = true, true
		case "preserve":
			if !o.Has {
				cp.PreserveMode, cp.PreserveTimes = true, true
			} else if !setPreserve(o.Value, true, "--preserve") {
				return 1
			}
		case "no-preserve":
			if !setPreserve(o.Value, false, "--no-preserve") {
				return 1
			}
		case "parents":
			parents = true
		case "recursive", "r":
			cp.Recursive = true
		case "reflink":
			if o.Has {
				if _, ok := argmatch.Get(c, o.Value, "--reflink", reflinkChoices, 1); !ok {
					return 1
				}
			}
		case "remove-destination":
			cp.RemoveDestination = true
		case "sparse":
			if _, ok := argmatch.Get(c, o.Value, "--sparse", sparseChoices, 1); !ok {
				return 1
			}
		case "strip-trailing-slashes":
			// Destination names inside a directory never keep a source's
			// trailing slashes, so there is nothing more to do.
		case "symbolic-link":
			cp.Symlink = true
		case "update":
			cp.Update = true
		case "verbose":
			cp.Verbose = true
		}
	}
	if cp.Backup, ok = backup.Resolve(c); !ok {
		return 1
	}
	if cp.Deref == -1 {
		if cp.Recursive {
			cp.Deref = fileops.DerefNever
		} else {
			cp.Deref = fileops.DerefAlways
		}
	}
	plan, ok := fileops.PlanTargets(c, q, operands, target)
	if !ok {
		return 1
	}
	if parents && !plan.IntoDir {
		return fileops.UsageErr(c, "with --parents, the destination must be a directory")
	}
	ok = plan.Each(ctx, func(src, dst string) bool {
		if parents {
			var good bool
			if dst, good = makeParents(cp, plan.Dir, src); !good {
				return false
			}
		}
		return cp.Copy(src, dst)
	})
	return out.FinishOK(ok && ctx.Err() == nil)
}

// makeParents creates, under dir, the directories leading to src (cp
// --parents), with their source modes, and returns src's destination.
func makeParents(cp *fileops.Copier, dir, src string) (string, bool) {
	c, q := cp.C, cp.Q
	rel := strings.TrimLeft(src, "/")
	dst := fileops.JoinPath(dir, rel)
	parts := strings.Split(strings.TrimRight(rel, "/"), "/")
	srcPrefix := ""
	if strings.HasPrefix(src, "/") {
		srcPrefix = "/"
	}
	cur := strings.TrimRight(dir, "/")
	for i := 0; i < len(parts)-1; i++ {
		if parts[i] == "" {
			continue
		}
		srcPrefix = path.Join(srcPrefix, parts[i])
		cur = cur + "/" + parts[i]
		fi, err := c.Stat(cur)
		if err == nil {
			if !fi.IsDir() {
				c.Errorf("%s exists but is not a directory", q.AF(cur))
				return "", false
			}
			continue
		}
		sfi, err := c.Stat(srcPrefix)
		if err != nil {
			c.Errorf("failed to get attributes of %s: %s", q.AF(srcPrefix), builtins.ErrText(err))
			return "", false
		}
		mode := modes.Perm(sfi.Mode())
		if !cp.PreserveMode {
			mode &^= uint32(c.Umask)
		}
		if err := c.FS.Mkdir(c.Abs(cur), modes.FromPerm(mode)); err != nil {
			c.Errorf("cannot make directory %s: %s", q.AF(cur), builtins.ErrText(err))
			return "", false
		}
		if cp.PreserveMode {
			c.FS.Chmod(c.Abs(cur), modes.FromPerm(mode))
		}
		if cp.PreserveTimes {
			c.FS.Chtimes(c.Abs(cur), sfi.ModTime(), sfi.ModTime())
		}
		if cp.Verbose {
			cp.Out.WriteString(srcPrefix + " -> " + cur + "\n")
		}
	}
	return dst, true
}
