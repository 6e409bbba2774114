package fallback

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/bashbox/bashbox/volumes"
)

// The argument layer for files: options and operands that name a file the
// command reads or writes must name one in the call's volumes (read-write
// ones for writing), judged in the script's own namespace. Absolute guest
// paths are rewritten to the host paths the sandbox shows; relative ones
// are left as they are (the child's cwd is the host directory of the
// script's). The OS sandbox holds without this; it makes the refusal
// clear, names the option, and shows in the audit log.

// pathResolver judges path arguments from the script's cwd.
type pathResolver struct {
	m   mounter
	dir string
}

// check returns the argument to pass for the path arg given to opt, or an
// error naming opt when the path lies outside what the command may use.
func (p pathResolver) check(opt, arg string, write bool) (string, error) {
	if arg == "-" || arg == "" {
		return arg, nil // stdin or stdout
	}
	guest := arg
	if !strings.HasPrefix(arg, "/") {
		guest = path.Join(p.dir, arg)
	}
	guest = path.Clean(guest)
	mount, err := p.m.MountOf(guest)
	// A path to create may have missing parents: judge the nearest one
	// that resolves.
	for q := guest; err != nil && q != "/"; {
		q = path.Dir(q)
		mount, err = p.m.MountOf(q)
		if err == nil {
			mount.Rel = path.Join(mount.Rel, strings.TrimPrefix(guest, q))
		}
	}
	switch {
	case err != nil || mount.HostDir == "":
		return "", fmt.Errorf("option %s: %s is outside the volumes", opt, arg)
	case write && mount.Mode != volumes.ReadWrite:
		return "", fmt.Errorf("option %s: %s is not in a read-write volume", opt, arg)
	case mount.Mode != volumes.ReadWrite && mount.Mode != volumes.ReadOnly:
		return "", fmt.Errorf("option %s: %s is outside the volumes", opt, arg)
	}
	if !strings.HasPrefix(arg, "/") {
		return arg, nil
	}
	return filepath.Join(evalOr(mount.HostDir), filepath.FromSlash(mount.Rel)), nil
}

// pathOpt is an option whose value is a file: "--long VALUE",
// "--long=VALUE", "-s VALUE" or "-sVALUE". at: the value is KEY=@FILE
// (gh's typed fields), and only then a file.
type pathOpt struct {
	long, short string
	write, at   bool
}

// pathRule says which arguments of one command are files.
type pathRule struct {
	opts []pathOpt
	// operands: which operands (arguments that are not options, after
	// the subcommand words) are files: from..to (to -1: all).
	from, to int
	write    bool
	// valueOpts take a separate value that is not an operand.
	valueOpts []string
}

var anyOutput = pathOpt{long: "--output", write: true}

// pathRules are keyed by command and subcommand words.
var pathRules = map[string]pathRule{
	"git archive":           {opts: []pathOpt{anyOutput, {short: "-o", write: true}, {long: "--add-file"}}, from: -1},
	"git format-patch":      {opts: []pathOpt{anyOutput, {long: "--output-directory", short: "-o", write: true}}, from: -1},
	"git bundle create":     {opts: []pathOpt{anyOutput}, from: 0, to: 0, write: true},
	"git bundle verify":     {from: 0, to: 0},
	"git bundle unbundle":   {from: 0, to: 0},
	"git bundle list-heads": {from: 0, to: 0},
	"git init":              {from: 0, to: 0, write: true, valueOpts: []string{"-b", "--initial-branch", "--object-format"}},
	"git clone": {opts: []pathOpt{{long: "--reference"}, {long: "--reference-if-able"}}, from: 1, to: 1, write: true,
		valueOpts: []string{"-o", "--origin", "-b", "--branch", "--depth", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--filter", "--server-option", "--bundle-uri", "--reference", "--reference-if-able"}},
	"git worktree add": {from: 0, to: 0, write: true, valueOpts: []string{"-b", "-B", "--reason"}},
	"git blame":        {opts: []pathOpt{{long: "--contents"}, {short: "-S"}, {long: "--ignore-revs-file"}}, from: -1},
	"git hash-object":  {from: 0, to: -1, valueOpts: []string{"-t", "--path"}},
	"git commit":       {opts: []pathOpt{anyOutput, {long: "--file", short: "-F"}, {long: "--template", short: "-t"}, {long: "--pathspec-from-file"}}, from: -1},
	"git tag":          {opts: []pathOpt{{long: "--file", short: "-F"}}, from: -1},
	"git merge":        {opts: []pathOpt{{long: "--file", short: "-F"}}, from: -1},
	"git notes":        {opts: []pathOpt{{long: "--file", short: "-F"}}, from: -1},
	"git commit-tree":  {opts: []pathOpt{{short: "-F"}}, from: -1},
	"git apply":        {opts: []pathOpt{{long: "--build-fake-ancestor", write: true}}, from: 0, to: -1, valueOpts: []string{"-C", "--directory", "--exclude", "--include", "-p"}},
	"git am":           {from: 0, to: -1, valueOpts: []string{"-C", "--directory", "--exclude", "--include", "-p", "--patch-format", "--resolvemsg", "-S", "--gpg-sign"}},
	"git grep":         {opts: []pathOpt{{short: "-f"}}, from: -1},
	"git read-tree":    {opts: []pathOpt{{long: "--index-output", write: true}}, from: -1},
	"git ls-files":     {opts: []pathOpt{{long: "--exclude-from", short: "-X"}, {long: "--exclude-per-directory"}}, from: -1},
	"gh api":           {opts: []pathOpt{{long: "--field", short: "-F", at: true}, {long: "--input"}}, from: -1},
	"gh gist create":   {from: 0, to: -1, valueOpts: []string{"-d", "--desc", "-f", "--filename"}},
	"gh gist edit":     {opts: []pathOpt{{long: "--add", short: "-a"}}, from: -1},
	"gh release create": {opts: []pathOpt{{long: "--notes-file", short: "-F"}}, from: 1, to: -1,
		valueOpts: []string{"-n", "--notes", "-t", "--title", "--target", "--discussion-category", "--notes-start-tag"}},
	"gh release upload":   {from: 1, to: -1},
	"gh release download": {opts: []pathOpt{{long: "--dir", short: "-D", write: true}, {long: "--output", short: "-O", write: true}}, from: -1},
	"gh repo clone":       {from: 1, to: 1, write: true},
	"gh run download":     {opts: []pathOpt{{long: "--dir", short: "-D", write: true}}, from: -1},
	"gh ssh-key add":      {from: 0, to: 0, valueOpts: []string{"-t", "--title", "--type"}},
	"gh gpg-key add":      {from: 0, to: 0, valueOpts: []string{"-t", "--title"}},
	"gh secret set":       {opts: []pathOpt{{long: "--env-file", short: "-f"}}, from: -1},
	"gh variable set":     {opts: []pathOpt{{long: "--env-file", short: "-f"}}, from: -1},
	"gh workflow run":     {opts: []pathOpt{{long: "--field", short: "-F", at: true}}, from: -1},
}

// bodyFile is gh's --body-file/-F on issues and pull requests.
var bodyFile = pathRule{opts: []pathOpt{{long: "--body-file", short: "-F"}, {long: "--template"}}, from: -1}

func init() {
	for _, k := range []string{"gh issue create", "gh issue edit", "gh issue comment", "gh pr create", "gh pr edit", "gh pr comment", "gh pr review", "gh pr merge"} {
		pathRules[k] = bodyFile
	}
}

// gitGlobalValue are git's global options that take a separate value.
var gitGlobalValue = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--config-env": true}

// checkPaths applies the path rules to args (without the command name)
// and returns them with absolute guest paths rewritten to host paths.
func checkPaths(name string, args []string, p pathResolver) ([]string, error) {
	out := append([]string(nil), args...)
	// The subcommand words: for git after its global options; up to two
	// (bundle create, worktree add, gh pr create).
	i := 0
	for name == "git" && i < len(out) && strings.HasPrefix(out[i], "-") {
		if gitGlobalValue[out[i]] {
			i++
		}
		i++
	}
	key := name
	var rule pathRule
	found := false
	for depth := 0; depth < 2 && i < len(out) && !strings.HasPrefix(out[i], "-"); depth++ {
		key += " " + out[i]
		i++
		if r, ok := pathRules[key]; ok {
			rule, found = r, true
			break
		}
	}
	if !found {
		rule = pathRule{from: -1}
		if name == "git" {
			rule.opts = []pathOpt{anyOutput, {long: "--pathspec-from-file"}}
		}
		// git diff --no-index compares two files anywhere: both must be
		// in the volumes.
		if key == "git diff" && containsArg(out[i:], "--no-index") {
			rule.from, rule.to = 0, -1
		}
	}
	valueOpt := map[string]bool{}
	for _, v := range rule.valueOpts {
		valueOpt[v] = true
	}
	operand := 0
	onlyOperands := false
	for ; i < len(out); i++ {
		a := out[i]
		if !onlyOperands && a == "--" {
			onlyOperands = true
			continue
		}
		if !onlyOperands && strings.HasPrefix(a, "-") && a != "-" {
			consumed, err := checkOption(rule.opts, out, i, p)
			if err != nil {
				return nil, err
			}
			if consumed == 0 && valueOpt[a] {
				consumed = 1
			}
			i += consumed
			continue
		}
		if rule.from >= 0 && operand >= rule.from && (rule.to < 0 || operand <= rule.to) {
			v, err := p.check(fmt.Sprintf("%s %s (operand)", key, a), a, rule.write)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		operand++
	}
	return out, nil
}

// checkOption checks out[i] against opts, rewriting its value in place, and
// returns how many following arguments it consumed.
func checkOption(opts []pathOpt, out []string, i int, p pathResolver) (int, error) {
	a := out[i]
	for _, o := range opts {
		var val, prefix string
		consumed := 0
		switch {
		case o.long != "" && a == o.long, o.short != "" && a == o.short:
			if i+1 >= len(out) {
				return 0, nil
			}
			val, consumed = out[i+1], 1
		case o.long != "" && strings.HasPrefix(a, o.long+"="):
			prefix, val = o.long+"=", a[len(o.long)+1:]
		case o.short != "" && strings.HasPrefix(a, o.short) && !strings.HasPrefix(a, "--"):
			prefix, val = o.short, a[len(o.short):]
		default:
			continue
		}
		optName := o.long
		if optName == "" || !strings.HasPrefix(a, "--") {
			optName = strings.SplitN(a, "=", 2)[0]
			if o.short != "" && strings.HasPrefix(a, o.short) && !strings.HasPrefix(a, "--") {
				optName = o.short
			}
		}
		file := val
		keyPart := ""
		if o.at {
			k, v, ok := strings.Cut(val, "=")
			if !ok || !strings.HasPrefix(v, "@") {
				return consumed, nil
			}
			keyPart, file = k+"=@", v[1:]
		}
		checked, err := p.check(optName, file, o.write)
		if err != nil {
			return 0, err
		}
		if consumed == 1 {
			out[i+1] = keyPart + checked
		} else {
			out[i] = prefix + keyPart + checked
		}
		return consumed, nil
	}
	return 0, nil
}

func containsArg(args []string, want string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == want {
			return true
		}
	}
	return false
}
