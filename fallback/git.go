package fallback

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/bashbox/bashbox/internal/lazyre"
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

// gitArgs checks the script's arguments (unless the policy is off) and
// prepends the hardening options, which hold whatever the repository's
// own config says.
func (r *Runner) gitArgs(args []string, sb *sandbox) ([]string, error) {
	if !r.noPolicy {
		if err := gitPolicy(args); err != nil {
			return nil, err
		}
	}
	hooks, global := os.DevNull, os.DevNull
	if sb.private {
		// An empty, read-only hooks directory and a neutral global config,
		// created by the sandbox in its private HOME: nothing on the host.
		hooks = sb.addFile(".bashbox/hooks", nil, true)
		global = sb.addFile(".gitconfig", []byte(neutralGitConfig(hooks)), false)
	}
	sb.env = append(sb.env, gitEnv(global, sb.ceiling())...)
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

// neutralGitConfig is the global config of every fallback git: the same
// settings as the hardening options, for any git the first one starts.
func neutralGitConfig(hooks string) string {
	return "[core]\n\thooksPath = " + hooks + "\n\tfsmonitor = false\n\tpager = cat\n\teditor = true\n" +
		"[sequence]\n\teditor = true\n[credential]\n\thelper =\n[gpg]\n\tprogram = false\n" +
		"[protocol]\n\tallow = never\n[protocol \"https\"]\n\tallow = always\n[protocol \"http\"]\n\tallow = always\n" +
		"[protocol \"ssh\"]\n\tallow = always\n[protocol \"git\"]\n\tallow = always\n"
}

// gitPolicy refuses global options that pick config, programs or
// directories, subcommands that are not git built-ins (aliases), and
// options that make git run a program.
func gitPolicy(args []string) error {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		for _, bad := range gitRefusedGlobal {
			if a == bad || strings.HasPrefix(a, bad+"=") || (len(bad) == 2 && strings.HasPrefix(a, bad) && bad != "-c") {
				return fmt.Errorf("option %s is not allowed in the sandbox", bad)
			}
		}
		switch a {
		case "--no-pager", "--paginate", "-p", "-P", "--no-replace-objects", "--bare", "--literal-pathspecs", "--no-optional-locks", "--version", "--help", "-h":
		default:
			return fmt.Errorf("option %s is not allowed in the sandbox", a)
		}
	}
	if i == len(args) {
		return nil
	}
	sub := args[i]
	if !gitSubcommands[sub] {
		return fmt.Errorf("'%s' is not a git command the sandbox allows (aliases are not expanded)", sub)
	}
	rest := args[i+1:]
	if (sub == "bisect") && len(rest) > 0 && rest[0] == "run" {
		return errors.New("'git bisect run' is not allowed in the sandbox: it runs programs")
	}
	for _, a := range rest {
		if a == "--" {
			break
		}
		switch {
		case a == "--open-files-in-pager" || strings.HasPrefix(a, "--open-files-in-pager=") || (sub == "grep" && strings.HasPrefix(a, "-O")):
			return fmt.Errorf("option %s is not allowed in the sandbox: it runs a program", strings.SplitN(a, "=", 2)[0])
		case a == "--upload-pack" || strings.HasPrefix(a, "--upload-pack="),
			a == "--receive-pack" || strings.HasPrefix(a, "--receive-pack="),
			a == "--exec" || strings.HasPrefix(a, "--exec="),
			a == "--config" || strings.HasPrefix(a, "--config="),
			a == "--template" || strings.HasPrefix(a, "--template="),
			a == "--separate-git-dir" || strings.HasPrefix(a, "--separate-git-dir="),
			a == "--ext-diff", a == "--textconv",
			(sub == "clone" || sub == "ls-remote" || sub == "archive") && (a == "-u" || strings.HasPrefix(a, "-u")),
			sub == "clone" && (a == "-c" || strings.HasPrefix(a, "-c")),
			sub == "config" && (a == "--global" || a == "--system" || a == "--file" || a == "-f" || strings.HasPrefix(a, "--file=") || a == "--blob" || a == "--edit" || a == "-e"),
			(sub == "rebase" || sub == "bisect") && (a == "--exec" || a == "-x" || a == "run"),
			sub == "submodule":
			return fmt.Errorf("option %s is not allowed in the sandbox", strings.SplitN(a, "=", 2)[0])
		}
	}
	return nil
}

// gitEnv isolates git from system config (global is the neutral file) and
// from prompts, and stops repository discovery at the volume.
func gitEnv(global, ceiling string) [][2]string {
	env := [][2]string{
		{"GIT_CONFIG_NOSYSTEM", "1"},
		{"GIT_CONFIG_GLOBAL", global},
		{"GIT_TERMINAL_PROMPT", "0"},
		{"GIT_PAGER", "cat"}, {"PAGER", "cat"},
		{"GIT_EDITOR", "true"},
		{"GIT_ASKPASS", ""}, {"SSH_ASKPASS", ""},
		{"GIT_ALLOW_PROTOCOL", "https:http:ssh:git"},
	}
	if ceiling != "" {
		env = append(env, [2]string{"GIT_CEILING_DIRECTORIES", ceiling})
	}
	return env
}

// dangerousGitKey matches repository config that makes git run programs or
// fetch from elsewhere, whatever the command-line overrides.
var dangerousGitKey = lazyre.New(`(?i)^(include\.|includeif\.|core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|worktree)|sequence\.editor|alias\.|filter\.|diff\.[^.]+\.(textconv|command)|diff\.external|merge\.[^.]+\.driver|credential\.|gpg\.|remote\.[^.]+\.(uploadpack|receivepack|vcs)|uploadpack\.|receive\.|pager\.|interactive\.difffilter|url\.|http\..*proxy|http\.sslkeylogfile|safe\.|trailer\.[^.]+\.command|mergetool\.|difftool\.|submodule\.)`)

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
