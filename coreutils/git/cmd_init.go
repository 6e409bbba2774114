package git

import (
	"fmt"
	"path"

	"github.com/bashbox/bashbox/builtins"
)

const infoExclude = `# git ls-files --others --exclude-from=.git/info/exclude
# Lines that start with '#' are comments.
# For a project mostly in C, the following would be a good set of
# exclude patterns (uncomment them if you want to use them):
# *.[oa]
# *~
`

const defaultBranchHint = `hint: Using 'master' as the name for the initial branch. This default branch name
hint: is subject to change. To configure the initial branch name to use in all
hint: of your new repositories, which will suppress this warning, call:
hint: 
hint: 	git config --global init.defaultBranch <name>
hint: 
hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and
hint: 'development'. The just-created branch can be renamed via this command:
hint: 
hint: 	git branch -m <name>
`

var initSpecs = []optSpec{
	{short: 'q', long: "quiet"},
	{long: "bare"},
	{short: 'b', long: "initial-branch", arg: argRequired},
	{long: "template", arg: argRequired},
	{long: "separate-git-dir", arg: argRequired},
	{long: "object-format", arg: argRequired},
	{long: "shared", arg: argOptional},
}

func cmdInit(g *cmd, args []string) int {
	p := g.parse(args, initSpecs)
	if len(p.args) > 1 {
		g.usageError("too many arguments")
	}
	if _, ok := p.str("separate-git-dir"); ok {
		g.fatal("--separate-git-dir is not supported in the sandbox")
	}
	if f, ok := p.str("object-format"); ok && f != "sha1" {
		g.fatal("unknown hash algorithm '%s'", f)
	}
	dir := g.dir
	if len(p.args) == 1 {
		dir = path.Clean(g.abs(p.args[0]))
	}
	branch, hasBranch := p.str("initial-branch")
	quiet := p.flag("quiet")
	bare := p.flag("bare")
	status, msg := g.initRepo(dir, bare, branch, hasBranch, quiet)
	if msg != "" && !quiet {
		g.out.WriteString(msg)
	}
	return status
}

// initRepo creates (or reinitializes) a repository at dir and returns the
// message git prints.
func (g *cmd) initRepo(dir string, bare bool, branch string, hasBranch bool, quiet bool) (int, string) {
	fsys := g.c.FS
	if err := fsys.MkdirAll(dir, 0o777&^g.c.Umask); err != nil {
		g.fatal("cannot mkdir %s: %s", dir, builtins.ErrText(err))
	}
	gitDir := path.Join(dir, ".git")
	if bare {
		gitDir = dir
	}
	reinit := isGitDir(fsys, gitDir)
	if hasBranch && !checkRefName(branch) {
		g.fatal("invalid initial branch name: '%s'", branch)
	}
	if reinit {
		if hasBranch {
			g.warnf("re-init: ignored --initial-branch=%s", branch)
		}
		return 0, fmt.Sprintf("Reinitialized existing Git repository in %s/\n", gitDir)
	}
	cfg := g.loadConfig(nil)
	if !hasBranch {
		if v, ok := cfg.get("init.defaultbranch"); ok && v != "" {
			branch = v
		} else {
			branch = "master"
			if !quiet {
				g.out.Flush()
				fmt.Fprint(g.stderr, defaultBranchHint)
			}
		}
		if !checkRefName(branch) {
			g.fatal("invalid initial branch name: '%s'", branch)
		}
	}
	mk := func(p string) {
		if err := fsys.MkdirAll(path.Join(gitDir, p), 0o777&^g.c.Umask); err != nil {
			g.fatal("cannot mkdir %s: %s", path.Join(gitDir, p), builtins.ErrText(err))
		}
	}
	put := func(p, content string) {
		if err := writeFile(fsys, path.Join(gitDir, p), []byte(content), 0o666&^g.c.Umask); err != nil {
			g.fatal("cannot write %s: %s", path.Join(gitDir, p), builtins.ErrText(err))
		}
	}
	for _, d := range []string{"", "branches", "hooks", "info", "objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		mk(d)
	}
	put("description", "Unnamed repository; edit this file 'description' to name the repository.\n")
	put("info/exclude", infoExclude)
	put("HEAD", "ref: refs/heads/"+branch+"\n")
	config := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
	if bare {
		config += "\tbare = true\n"
	} else {
		config += "\tbare = false\n\tlogallrefupdates = true\n"
	}
	put("config", config)
	if bare {
		return 0, fmt.Sprintf("Initialized empty Git repository in %s/\n", gitDir)
	}
	return 0, fmt.Sprintf("Initialized empty Git repository in %s/\n", gitDir)
}
