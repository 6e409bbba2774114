package fileops

import (
	"path"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
)

// Backup types, as --backup=CONTROL names them.
const (
	BackupNone     = iota // none, off
	BackupSimple          // simple, never
	BackupExisting        // existing, nil
	BackupNumbered        // numbered, t
)

var backupChoices = []argmatch.Choice{
	{Names: []string{"none", "off"}, Value: BackupNone},
	{Names: []string{"simple", "never"}, Value: BackupSimple},
	{Names: []string{"existing", "nil"}, Value: BackupExisting},
	{Names: []string{"numbered", "t"}, Value: BackupNumbered},
}

// Backup says how destinations about to be replaced are kept (-b,
// --backup, -S).
type Backup struct {
	Type   int
	Suffix string
}

// BackupOptions collects the backup options of a command line.
type BackupOptions struct {
	Make      bool   // -b or --backup
	Control   string // --backup=CONTROL
	HasCtl    bool
	Suffix    string // -S, --suffix
	HasSuffix bool
}

// Resolve works out the backup type and suffix from the options and the
// VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX variables; ok is false after a
// bad CONTROL was reported.
func (o BackupOptions) Resolve(c *builtins.Call) (Backup, bool) {
	if !o.Make {
		return Backup{Type: BackupNone}, true
	}
	suffix := o.Suffix
	if !o.HasSuffix {
		suffix = c.Getenv("SIMPLE_BACKUP_SUFFIX")
	}
	if suffix == "" || strings.IndexByte(suffix, '/') >= 0 {
		suffix = "~"
	}
	control, option := o.Control, "backup type"
	if !o.HasCtl {
		control, option = c.Getenv("VERSION_CONTROL"), "$VERSION_CONTROL"
	}
	if control == "" {
		return Backup{Type: BackupExisting, Suffix: suffix}, true
	}
	t, ok := argmatch.Get(c, control, option, backupChoices, 1)
	if !ok {
		return Backup{}, false
	}
	return Backup{Type: t, Suffix: suffix}, true
}

// Name returns the backup name for dst.
func (b Backup) Name(c *builtins.Call, dst string) string {
	if b.Type == BackupSimple {
		return dst + b.Suffix
	}
	dir, base := path.Split(dst)
	listDir := dir
	if listDir == "" {
		listDir = "."
	}
	highest := 0
	if entries, err := c.ReadDir(listDir); err == nil {
		prefix := base + ".~"
		for _, e := range entries {
			name := e.Name()
			if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, "~") || len(name) < len(prefix)+2 {
				continue
			}
			digits := name[len(prefix) : len(name)-1]
			if digits[0] == '0' {
				continue
			}
			if n, err := strconv.Atoi(digits); err == nil && n > highest {
				highest = n
			}
		}
	}
	if b.Type == BackupExisting && highest == 0 {
		return dst + b.Suffix
	}
	return dst + ".~" + strconv.Itoa(highest+1) + "~"
}

// Make renames dst to its backup name and returns that name.
func (b Backup) Make(c *builtins.Call, dst string) (string, error) {
	name := b.Name(c, dst)
	if err := c.FS.Rename(c.Abs(dst), c.Abs(name)); err != nil {
		return "", err
	}
	return name, nil
}

// BackupOptionList is the options table entries of -b, --backup and -S.
var BackupOptionList = []builtins.Option{
	{Short: 'b'},
	{Long: "backup", Arg: builtins.OptionalArg},
	{Short: 'S', Long: "suffix", Arg: builtins.RequiredArg},
}

// Take records opt if it is a backup option and reports whether it was.
func (o *BackupOptions) Take(opt builtins.Opt) bool {
	switch opt.Key {
	case "b":
		o.Make = true
	case "backup":
		o.Make = true
		if opt.Has {
			o.Control, o.HasCtl = opt.Value, true
		}
	case "suffix":
		o.Suffix, o.HasSuffix = opt.Value, true
	default:
		return false
	}
	return true
}
