package fallback

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// checkRepoConfig refuses a repository whose own config, in any file git
// reads for the repository scopes (config, and config.worktree with
// extensions.worktreeConfig, of the git directory and, for a linked
// worktree, of the common directory), sets a key that makes git run
// programs or include config from elsewhere; and one whose git directory
// lies outside the volume. It reads the files in-process, through an
// os.Root at the volume's host directory, so no symlink leads it out and
// no process is started.
func checkRepoConfig(volumeRoot, dir string) error {
	root, err := os.OpenRoot(volumeRoot)
	if err != nil {
		return fmt.Errorf("cannot check the repository: %v", err)
	}
	defer root.Close()
	rel, err := filepath.Rel(volumeRoot, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return errors.New("the working directory lies outside its volume")
	}
	gitDir, err := findGitDir(root, rel)
	if err != nil || gitDir == "" {
		return err // "" : not in a repository (git init, clone, version)
	}
	dirs := []string{gitDir}
	if data, err := root.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common, err := inVolume(gitDir, strings.TrimSpace(string(data)))
		if err != nil {
			return err
		}
		dirs = append(dirs, common)
	}
	for _, d := range dirs {
		for _, name := range []string{"config", "config.worktree"} {
			if err := checkConfigFile(root, filepath.Join(d, name), name); err != nil {
				return err
			}
		}
	}
	return nil
}

// findGitDir walks up from rel to the volume's root as git's discovery
// does (GIT_CEILING_DIRECTORIES stops it there): a .git directory, a .git
// file naming the git directory, or a bare repository.
func findGitDir(root *os.Root, rel string) (string, error) {
	for d := filepath.Clean(rel); ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		fi, err := root.Stat(dotGit)
		switch {
		case err == nil && fi.IsDir():
			return dotGit, nil
		case err == nil && fi.Mode().IsRegular():
			data, err := root.ReadFile(dotGit)
			if err != nil {
				return "", fmt.Errorf("cannot check the repository: %v", err)
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
			if !ok {
				return "", fmt.Errorf("cannot check the repository: %s is not a gitdir file", dotGit)
			}
			return inVolume(d, strings.TrimSpace(target))
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "escapes") {
				return "", errors.New("the repository's git directory lies outside the volume")
			}
		}
		if isBare(root, d) {
			return d, nil
		}
		if d == "." {
			return "", nil
		}
	}
}

// inVolume resolves a path a git file names, relative to base, and
// requires it to stay inside the volume.
func inVolume(base, target string) (string, error) {
	if filepath.IsAbs(target) {
		return "", errors.New("the repository's git directory is named by an absolute path, which the sandbox does not follow")
	}
	p := filepath.Join(base, target)
	if p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		return "", errors.New("the repository's git directory lies outside the volume")
	}
	return p, nil
}

func isBare(root *os.Root, d string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := root.Stat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
}

func checkConfigFile(root *os.Root, path, name string) error {
	f, err := root.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot check the repository %s: %v", name, err)
	}
	defer f.Close()
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(f).Decode(cfg); err != nil {
		return fmt.Errorf("the repository %s cannot be checked (%v), so the sandbox refuses it", name, err)
	}
	for _, s := range cfg.Sections {
		keys := make([]string, 0, len(s.Options))
		for _, o := range s.Options {
			keys = append(keys, s.Name+"."+o.Key)
		}
		for _, ss := range s.Subsections {
			for _, o := range ss.Options {
				keys = append(keys, s.Name+"."+ss.Name+"."+o.Key)
			}
		}
		for _, k := range keys {
			if dangerousGitKey().MatchString(k) {
				return fmt.Errorf("the repository %s sets %s, which the sandbox does not allow", name, strings.ToLower(k))
			}
		}
	}
	return nil
}
