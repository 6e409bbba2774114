package fallback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// gitSubcommands are the git commands a script may run: built-ins only, so
// that no alias (which may be a "!shell command") is ever expanded.
var gitSubcommands = map[string]bool{
	"add": true, "am": true, "apply": true, "archive": true, "bisect": true, "blame": true, "branch": true,
	"bundle": true, "cat-file": true, "check-attr": true, "check-ignore": true, "check-ref-format": true,
	"checkout": true, "cherry": true, "cherry-pick": true, "clean": true, "clone": true, "commit": true,
	"commit-tree": true, "count-objects": true, "describe": true, "diff": true, "diff-files": true,
	"diff-index": true, "diff-tree": true, "fetch": true, "for-each-ref": true, "format-patch": true,
	"fsck": true, "gc": true, "grep": true, "hash-object": true, "help": true, "init": true, "log": true,
	"ls-files": true, "ls-remote": true, "ls-tree": true, "merge": true, "merge-base": true, "mv": true,
	"name-rev": true, "notes": true, "pull": true, "push": true, "range-diff": true, "read-tree": true,
	"rebase": true, "reflog": true, "remote": true, "reset": true, "restore": true, "rev-list": true,
	"rev-parse": true, "revert": true, "rm": true, "shortlog": true, "show": true, "show-branch": true,
	"show-ref": true, "sparse-checkout": true, "stash": true, "status": true, "switch": true, "symbolic-ref": true,
	"tag": true, "update-index": true, "update-ref": true, "verify-commit": true, "verify-tag": true,
	"version": true, "whatchanged": true, "worktree": true, "write-tree": true, "config": true,
}

// gitRefusedGlobal are global options that would pick config, programs or
// directories for git; a script may not pass them.
var gitRefusedGlobal = []string{"-c", "--config-env", "--exec-path", "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds"}

// gitArgs checks the script's arguments and prepends the hardening options.
func (r *Runner) gitArgs(args []string) ([]string, error) {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		for _, bad := range gitRefusedGlobal {
			if a == bad || strings.HasPrefix(a, bad+"=") || (len(bad) == 2 && strings.HasPrefix(a, bad) && bad != "-c") {
				return nil, fmt.Errorf("option %s is not allowed in the sandbox", bad)
			}
		}
		switch a {
		case "--no-pager", "--paginate", "-p", "-P", "--no-replace-objects", "--bare", "--literal-pathspecs", "--no-optional-locks", "--version", "--help", "-h":
		default:
			return nil, fmt.Errorf("option %s is not allowed in the sandbox", a)
		}
	}
	if i < len(args) {
		sub := args[i]
		if !gitSubcommands[sub] {
			return nil, fmt.Errorf("'%s' is not a git command the sandbox allows (aliases are not expanded)", sub)
		}
		for _, a := range args[i+1:] {
			if a == "--" {
				break
			}
			switch {
			case a == "--upload-pack" || strings.HasPrefix(a, "--upload-pack="),
				a == "--receive-pack" || strings.HasPrefix(a, "--receive-pack="),
				a == "--exec" || strings.HasPrefix(a, "--exec="),
				a == "--config" || strings.HasPrefix(a, "--config="),
				a == "--template" || strings.HasPrefix(a, "--template="),
				a == "--separate-git-dir" || strings.HasPrefix(a, "--separate-git-dir="),
				a == "--ext-diff", a == "--textconv", a == "--open-files-in-pager", a == "-O",
				(sub == "clone" || sub == "ls-remote" || sub == "archive") && (a == "-u" || strings.HasPrefix(a, "-u")),
				sub == "clone" && (a == "-c" || strings.HasPrefix(a, "-c")),
				sub == "config" && (a == "--global" || a == "--system" || a == "--file" || a == "-f" || strings.HasPrefix(a, "--file=") || a == "--blob" || a == "--edit" || a == "-e"),
				(sub == "rebase" || sub == "bisect") && (a == "--exec" || a == "-x" || a == "run"),
				sub == "submodule":
				return nil, fmt.Errorf("option %s is not allowed in the sandbox", a)
			}
		}
	}
	hooks := filepath.Join(r.gitDir, "hooks")
	hardening := []string{
		"-c", "core.hooksPath=" + hooks,
		"-c", "core.fsmonitor=false",
		"-c", "core.sshCommand=ssh",
		"-c", "core.pager=cat",
		"-c", "core.editor=true",
		"-c", "sequence.editor=true",
		"-c", "credential.helper=",
		"-c", "protocol.allow=never",
		"-c", "protocol.https.allow=always",
		"-c", "protocol.http.allow=always",
		"-c", "protocol.ssh.allow=always",
		"-c", "protocol.git.allow=always",
		"-c", "protocol.file.allow=never",
		"-c", "gpg.program=false",
		"--no-pager",
	}
	return append(hardening, args...), nil
}

// gitEnv isolates git from system and global config and from prompts, and
// stops repository discovery at the volume's host directory.
func (r *Runner) gitEnv(hostDir string) []string {
	return []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(r.gitDir, "gitconfig"),
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat", "PAGER=cat",
		"GIT_EDITOR=true",
		"GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_ALLOW_PROTOCOL=https:http:ssh:git",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(hostDir),
	}
}

// dangerousGitKey matches repository config that makes git run programs or
// fetch from elsewhere, whatever the command-line overrides.
var dangerousGitKey = regexp.MustCompile(`(?i)^(include\.|includeif\.|core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|worktree)|sequence\.editor|alias\.|filter\.|diff\.[^.]+\.(textconv|command)|diff\.external|merge\.[^.]+\.driver|credential\.|gpg\.|remote\.[^.]+\.(uploadpack|receivepack|vcs)|uploadpack\.|receive\.|pager\.|interactive\.difffilter|url\.|http\..*proxy|http\.sslkeylogfile|safe\.|trailer\.[^.]+\.command|mergetool\.|difftool\.|submodule\.)`)

// checkRepo refuses a repository whose own config would make git run
// programs or include config from elsewhere, and one whose git directory
// lies outside the working directory's volume.
func (r *Runner) checkRepo(ctx context.Context, bin, hostDir string, env []string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, bin, append([]string{"-c", "core.hooksPath=" + filepath.Join(r.gitDir, "hooks"), "-c", "core.fsmonitor=false"}, args...)...)
		cmd.Dir = hostDir
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout = &out
		setProcessGroup(cmd)
		err := cmd.Run()
		return out.String(), err
	}
	gitDir, err := run("rev-parse", "--absolute-git-dir")
	if err != nil {
		return nil // not in a repository: git clone, git init, git version
	}
	gitDir = strings.TrimSpace(gitDir)
	top, err := run("rev-parse", "--show-toplevel")
	top = strings.TrimSpace(top)
	if err == nil && top != "" && !within(gitDir, top) {
		return errors.New("the repository's git directory lies outside the volume")
	}
	list, err := run("config", "--local", "--no-includes", "--name-only", "--list")
	if err != nil {
		return nil
	}
	for _, key := range strings.Split(strings.TrimSpace(list), "\n") {
		if key != "" && dangerousGitKey.MatchString(key) {
			return fmt.Errorf("the repository config sets %s, which the sandbox does not allow", key)
		}
	}
	return nil
}

func within(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// ghCheck refuses gh commands that run programs: aliases and extensions.
func ghCheck(args []string) error {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		switch a {
		case "alias", "extension", "extensions", "ext", "codespace", "cs":
			return fmt.Errorf("'gh %s' is not allowed in the sandbox", a)
		}
		builtin := map[string]bool{
			"api": true, "auth": true, "browse": false, "cache": true, "co": true, "completion": true, "config": true,
			"gist": true, "issue": true, "label": true, "org": true, "pr": true, "project": true, "release": true,
			"repo": true, "ruleset": true, "run": true, "search": true, "secret": true, "ssh-key": true, "status": true,
			"variable": true, "workflow": true, "gpg-key": true, "attestation": true, "help": true, "version": true,
		}
		if !builtin[a] {
			return fmt.Errorf("'gh %s' is not a gh command the sandbox allows (aliases and extensions are refused)", a)
		}
		return nil
	}
	return nil
}
