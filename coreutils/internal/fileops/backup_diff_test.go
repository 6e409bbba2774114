package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/cp"
	"github.com/bashbox/bashbox/coreutils/install"
	"github.com/bashbox/bashbox/coreutils/ln"
	"github.com/bashbox/bashbox/coreutils/mv"
)

func TestBackupDiff(t *testing.T) {
	tree := map[string]string{"a": "1", "b": "2", "d/": "", "l": "->a"}
	numbered := map[string]string{"a": "1", "b": "2", "b.~1~": "old", "b.~7~": "old", "b.~07~": "x", "b.~x~": "x"}
	runDiff(t, cp.Run, []diffCase{
		{name: "cp b", files: tree, args: []string{"cp", "-bv", "a", "b"}},
		{name: "cp numbered", files: tree, args: []string{"cp", "-v", "--backup=numbered", "a", "b"}},
		{name: "cp existing numbered", files: numbered, args: []string{"cp", "-v", "--backup=existing", "a", "b"}},
		{name: "cp b existing", files: numbered, args: []string{"cp", "-bv", "a", "b"}},
		{name: "cp simple on numbered", files: numbered, args: []string{"cp", "-v", "--backup=simple", "a", "b"}},
		{name: "cp none", files: tree, args: []string{"cp", "-v", "--backup=none", "a", "b"}},
		{name: "cp suffix", files: tree, args: []string{"cp", "-bv", "-S", ".bak", "a", "b"}},
		{name: "cp suffix env", files: tree, args: []string{"cp", "-bv", "a", "b"}, env: []string{"SIMPLE_BACKUP_SUFFIX=.old"}},
		{name: "cp version control", files: tree, args: []string{"cp", "-bv", "a", "b"}, env: []string{"VERSION_CONTROL=t"}},
		{name: "cp version control bad", files: tree, args: []string{"cp", "-b", "a", "b"}, env: []string{"VERSION_CONTROL=bogus"}},
		{name: "cp backup bad", files: tree, args: []string{"cp", "--backup=foo", "a", "b"}},
		{name: "cp backup prefix", files: tree, args: []string{"cp", "-v", "--backup=num", "a", "b"}},
		{name: "cp backup ambiguous", files: tree, args: []string{"cp", "--backup=n", "a", "b"}},
		{name: "cp sparse empty", files: tree, args: []string{"cp", "--sparse=", "a", "b"}},
		{name: "cp preserve prefix", files: tree, args: []string{"cp", "--preserve=mo,time", "a", "b"}},
		{name: "cp preserve bad", files: tree, args: []string{"cp", "--no-preserve=x", "a", "b"}},
		{name: "cp no dest", files: tree, args: []string{"cp", "-bv", "a", "c"}},
		{name: "cp symlink", files: tree, args: []string{"cp", "-Pbv", "l", "b"}},
		{name: "cp dir", files: map[string]string{"d/f": "1", "e/d/f": "2"}, args: []string{"cp", "-rbv", "d", "e"}},
	})
	runDiff(t, mv.Run, []diffCase{
		{name: "mv b", files: tree, args: []string{"mv", "-bv", "a", "b"}},
		{name: "mv numbered", files: numbered, args: []string{"mv", "-v", "--backup=t", "a", "b"}},
		{name: "mv no dest", files: tree, args: []string{"mv", "-bv", "a", "c"}},
	})
	runDiff(t, ln.Run, []diffCase{
		{name: "ln sb", files: tree, args: []string{"ln", "-sbv", "a", "b"}},
		{name: "ln hard b", files: tree, args: []string{"ln", "-bv", "a", "b"}},
		{name: "ln suffix", files: tree, args: []string{"ln", "-sf", "--suffix=.x", "-b", "a", "b"}},
		{name: "ln numbered", files: numbered, args: []string{"ln", "-sv", "--backup=numbered", "a", "b"}},
	})
	runDiff(t, install.Run, []diffCase{
		{name: "install b", files: tree, args: []string{"install", "-bv", "a", "b"}},
		{name: "install numbered", files: numbered, args: []string{"install", "--backup=numbered", "a", "b"}},
	})
}
