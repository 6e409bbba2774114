package hostsandbox

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// protectedInWritable stay read-only inside a writable root: files that
// make a later host process (a login shell, direnv) run code written by
// the sandboxed command.
var protectedInWritable = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".envrc",
}

// protectedInGitDir stay read-only in every git directory found in a
// writable root: the host's git would run hooks or config-named programs
// written there.
var protectedInGitDir = []struct {
	name string
	dir  bool
}{{"hooks", true}, {"config", false}, {"config.worktree", false}}

// Bounds of the search for nested repositories, so a huge workspace costs
// a bounded walk per command. Repositories deeper than this are not
// protected (documented in README).
const (
	protectMaxDepth = 4
	protectMaxDirs  = 4000
)

// protectedPath is one path to keep read-only; placeholder means it did not
// exist and bwrap creates a read-only mount point there (a file, or a
// directory when dir is set) for the run. sweep means it did not exist and
// is not bound at all (a placeholder would show as a new file in the
// workspace, to git status for one): if the command creates it, it is
// removed when the command ends.
type protectedPath struct {
	path        string
	dir         bool
	placeholder bool
	sweep       bool
}

// protectedPaths lists, for each writable root, its rc files and the
// hooks and config of every git directory in it (the root's own and
// nested ones, submodules' under .git/modules), existing or not. Symlinks
// are left alone: bwrap would follow them out of the root.
func protectedPaths(roots []string, lstat func(string) (fs.FileInfo, error), readDir func(string) ([]os.DirEntry, error)) []protectedPath {
	var out []protectedPath
	add := func(path string, dir, inGitDir bool) {
		fi, err := lstat(path)
		switch {
		case err != nil:
			if os.IsNotExist(err) {
				out = append(out, protectedPath{path: path, dir: dir, placeholder: inGitDir, sweep: !inGitDir})
			}
		case fi.Mode().IsRegular() || fi.IsDir():
			out = append(out, protectedPath{path: path, dir: fi.IsDir()})
		}
	}
	gitDir := func(gd string) {
		for _, p := range protectedInGitDir {
			add(filepath.Join(gd, p.name), p.dir, true)
		}
		if mods, err := readDir(filepath.Join(gd, "modules")); err == nil {
			for _, e := range mods {
				if e.IsDir() {
					for _, p := range protectedInGitDir {
						add(filepath.Join(gd, "modules", e.Name(), p.name), p.dir, true)
					}
				}
			}
		}
	}
	for _, root := range cleanPaths(roots) {
		for _, rel := range protectedInWritable {
			add(filepath.Join(root, rel), false, false)
		}
		visited := 0
		var walk func(dir string, depth int)
		walk = func(dir string, depth int) {
			visited++
			entries, err := readDir(dir)
			if err != nil {
				return
			}
			for _, e := range entries {
				if e.Name() == ".git" && e.IsDir() {
					gitDir(filepath.Join(dir, ".git"))
				}
			}
			for _, e := range entries {
				if e.IsDir() && e.Name() != ".git" && depth < protectMaxDepth && visited < protectMaxDirs {
					walk(filepath.Join(dir, e.Name()), depth+1)
				}
			}
		}
		walk(root, 0)
	}
	// Parents first, so a placeholder never hides another protected path.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].path) < len(out[j].path) })
	return out
}

// placeholders counts the running commands that use each read-only mount
// point bubblewrap created for a missing protected path, so the last one
// to finish removes it from the host: nothing is left behind, and a
// placeholder is never removed under a command that still relies on it.
var placeholders = placeholderSet{users: map[string]int{}}

type placeholderSet struct {
	mu    sync.Mutex
	users map[string]int
}

// acquire marks the placeholders of list as used by one more command. A
// path that exists only as another running command's placeholder is
// treated as a placeholder too. It returns the list to bind and the paths
// to release afterwards.
func (s *placeholderSet) acquire(list []protectedPath) ([]protectedPath, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var held []string
	for i, p := range list {
		if s.users[p.path] > 0 {
			list[i].placeholder = true
		}
		if list[i].placeholder {
			s.users[p.path]++
			held = append(held, p.path)
		}
	}
	return list, held
}

// release drops one use of each path; unused placeholders are removed if
// they are still the empty file or directory bubblewrap made.
func (s *placeholderSet) release(paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		s.users[p]--
		if s.users[p] > 0 {
			continue
		}
		delete(s.users, p)
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.Mode().IsRegular() && fi.Size() == 0:
			_ = os.Remove(p)
		case fi.IsDir():
			_ = os.Remove(p) // fails, as it should, when not empty
		}
	}
}

// sweepCreated removes the protected files a command created although they
// did not exist when it started, and says so on w.
func sweepCreated(list []protectedPath, w io.Writer) {
	for _, p := range list {
		if !p.sweep {
			continue
		}
		fi, err := os.Lstat(p.path)
		if err != nil || fi.IsDir() {
			continue
		}
		if os.Remove(p.path) == nil && w != nil {
			fmt.Fprintf(w, "bashbox sandbox: removed %s: commands may not create shell startup or direnv files in a writable root\n", p.path)
		}
	}
}
