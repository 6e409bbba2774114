// Package git is git for the sandbox, on go-git's object storage
// (storage/filesystem over an adapter from the guest filesystem to
// go-billy) with its own index, work tree, diff (git's xdiff algorithm
// with the indent heuristic), rename detection, pretty formats, graph and
// blame. Output, messages and exit codes follow git 2.39.
//
// Subcommands: init, clone (local repositories), status, add, rm, mv,
// commit, log, show, diff, branch, checkout, switch, restore, reset,
// merge (fast-forward and non-overlapping), rev-parse, ls-files, tag,
// config, blame, stash, remote, grep, shortlog, describe, reflog, clean,
// check-ignore, cat-file, ls-tree, rev-list, show-ref, hash-object,
// symbolic-ref, update-ref and write-tree.
//
// Deliberate deviations from git:
//   - "git --version" prints "git version 2.39.5 (bashbox go-git)".
//   - Without GIT_AUTHOR_NAME/EMAIL, GIT_COMMITTER_* or user.name and
//     user.email in the configuration, commits are made as
//     "bashbox <bashbox@sandbox>" (git refuses to commit).
//   - "git config --global" reads and writes the sandbox's $HOME/.gitconfig
//     (in memory unless $HOME is on a volume); --system and --worktree are
//     refused.
//   - No network: fetch, pull, push, ls-remote and network clone URLs are
//     refused ("fatal: network access is not available in the sandbox").
//   - Merges that conflict (and stash applications that conflict) are
//     refused before anything changes: no conflict markers, no merge
//     state. No rebase, cherry-pick, revert, apply, submodules, worktrees.
//   - No hooks, pager, colours or .gitattributes (filters, eol, diff
//     drivers); "git init" does not install sample hooks; the index is
//     written without the cache-tree extension.
//   - A clone of a repository with many loose objects stores them in one
//     pack (git copies or hard-links the object files).
package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// Version is what `git --version` prints after "git version ".
const Version = "2.39.5 (bashbox go-git)"

// exitCode unwinds a subcommand with a status, after its message has been
// printed.
type exitCode int

// cmd is one git invocation.
type cmd struct {
	ctx    context.Context
	c      *builtins.Call
	out    *bufio.Writer
	stderr io.Writer
	dir    string   // working directory (after -C)
	cfgCLI []string // -c name=value
	name   string   // subcommand
}

type subcommand func(g *cmd, args []string) int

var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"init":         cmdInit,
		"clone":        cmdClone,
		"status":       cmdStatus,
		"add":          cmdAdd,
		"rm":           cmdRm,
		"mv":           cmdMv,
		"commit":       cmdCommit,
		"log":          cmdLog,
		"show":         cmdShow,
		"diff":         cmdDiff,
		"branch":       cmdBranch,
		"checkout":     cmdCheckout,
		"switch":       cmdSwitch,
		"restore":      cmdRestore,
		"reset":        cmdReset,
		"rev-parse":    cmdRevParse,
		"ls-files":     cmdLsFiles,
		"tag":          cmdTag,
		"config":       cmdConfig,
		"blame":        cmdBlame,
		"stash":        cmdStash,
		"remote":       cmdRemote,
		"version":      cmdVersion,
		"help":         cmdHelp,
		"rev-list":     cmdRevList,
		"cat-file":     cmdCatFile,
		"ls-tree":      cmdLsTree,
		"show-ref":     cmdShowRef,
		"hash-object":  cmdHashObject,
		"symbolic-ref": cmdSymbolicRef,
		"update-ref":   cmdUpdateRef,
		"write-tree":   cmdWriteTree,
		"clean":        cmdClean,
		"reflog":       cmdReflog,
		"merge":        cmdMerge,
		"grep":         cmdGrep,
		"check-ignore": cmdCheckIgnore,
		"shortlog":     cmdShortlog,
		"describe":     cmdDescribe,
	}
}

// Run is the git command.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	// Every file git touches goes through callFS: reads and writes stop
	// with the call, and whole-file reads are charged to its memory.
	call := *c
	g := &cmd{ctx: ctx, c: &call, out: bufio.NewWriterSize(c.Stdout, 64<<10), stderr: c.Stderr, dir: c.Dir}
	call.FS = &callFS{FS: builtins.CancelFS(ctx, c.FS), g: g}
	defer func() {
		if r := recover(); r != nil {
			if code, ok := r.(exitCode); ok {
				status = int(code)
			} else {
				g.out.Flush()
				fmt.Fprintf(g.stderr, "fatal: internal error: %v\n", r)
				if c.Getenv("BASHBOX_GIT_DEBUG") != "" {
					fmt.Fprintf(g.stderr, "%s\n", debug.Stack())
				}
				status = 128
			}
		}
		if err := g.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
			status = 141
		}
	}()
	return g.main(c.Args[1:])
}

const globalUsage = `usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
           [--exec-path[=<path>]] [--html-path] [--man-path] [--info-path]
           [-p | --paginate | -P | --no-pager] [--no-replace-objects] [--bare]
           [--git-dir=<path>] [--work-tree=<path>] [--namespace=<name>]
           [--super-prefix=<path>] [--config-env=<name>=<envvar>]
           <command> [<args>]
`

const commonCommands = `
These are common Git commands used in various situations:

start a working area (see also: git help tutorial)
   clone     Clone a repository into a new directory
   init      Create an empty Git repository or reinitialize an existing one

work on the current change (see also: git help everyday)
   add       Add file contents to the index
   mv        Move or rename a file, a directory, or a symlink
   restore   Restore working tree files
   rm        Remove files from the working tree and from the index

examine the history and state (see also: git help revisions)
   diff      Show changes between commits, commit and working tree, etc
   log       Show commit logs
   show      Show various types of objects
   status    Show the working tree status

grow, mark and tweak your common history
   branch    List, create, or delete branches
   commit    Record changes to the repository
   reset     Reset current HEAD to the specified state
   switch    Switch branches
   tag       Create, list, delete or verify a tag object signed with GPG

'git help -a' lists available subcommands.
This is the sandbox's git (go-git based): network commands are not available.
`

func (g *cmd) main(args []string) int {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		switch {
		case a == "-v" || a == "--version":
			return g.version()
		case a == "-h" || a == "--help":
			g.out.WriteString(globalUsage + commonCommands)
			return 0
		case a == "-C":
			if len(args) == 0 {
				fmt.Fprintf(g.stderr, "no directory given for '-C' option\n%s", globalUsage)
				return 129
			}
			d := args[0]
			args = args[1:]
			if d == "" {
				continue
			}
			target := g.abs(d)
			fi, err := g.c.FS.Stat(target)
			if err != nil || !fi.IsDir() {
				if err == nil {
					err = errNotDir
				}
				fmt.Fprintf(g.stderr, "fatal: cannot change to '%s': %s\n", d, builtins.ErrText(err))
				return 128
			}
			g.dir = cleanAbs(target)
		case a == "-c":
			if len(args) == 0 {
				fmt.Fprintf(g.stderr, "error: -c expects a configuration string\n%s", globalUsage)
				return 129
			}
			if !strings.Contains(args[0], "=") && !strings.Contains(args[0], ".") {
				fmt.Fprintf(g.stderr, "error: invalid config format: %s\nfatal: unable to parse command-line config\n", args[0])
				return 128
			}
			g.cfgCLI = append(g.cfgCLI, args[0])
			args = args[1:]
		case a == "-p" || a == "--paginate" || a == "-P" || a == "--no-pager" ||
			a == "--no-replace-objects" || a == "--literal-pathspecs" || a == "--no-optional-locks":
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path=") || a == "--html-path" ||
			a == "--man-path" || a == "--info-path":
			fmt.Fprintf(g.stderr, "fatal: %s is not available in the sandbox\n", a)
			return 128
		default:
			fmt.Fprintf(g.stderr, "unknown option: %s\n%s", a, globalUsage)
			return 129
		}
	}
	if len(args) == 0 {
		g.out.WriteString(globalUsage + commonCommands)
		return 1
	}
	g.name = args[0]
	sub, ok := subcommands[g.name]
	if !ok {
		if network[g.name] {
			fmt.Fprintf(g.stderr, "fatal: 'git %s' needs network access, which is not available in the sandbox\n", g.name)
			return 128
		}
		fmt.Fprintf(g.stderr, "git: '%s' is not a git command. See 'git --help'.\n", g.name)
		return 1
	}
	rest := args[1:]
	if len(rest) == 1 && rest[0] == "--help" {
		return g.subHelp(0, g.c.Stdout)
	}
	return sub(g, rest)
}

var network = map[string]bool{"fetch": true, "pull": true, "push": true, "ls-remote": true, "submodule": true}

var errNotDir = errors.New("not a directory")

func (g *cmd) version() int {
	fmt.Fprintf(g.out, "git version %s\n", Version)
	return 0
}

func cmdVersion(g *cmd, args []string) int {
	return g.version()
}

func cmdHelp(g *cmd, args []string) int {
	if len(args) == 0 || args[0] == "-a" || args[0] == "--all" || args[0] == "-g" {
		if len(args) > 0 {
			names := make([]string, 0, len(subcommands))
			for n := range subcommands {
				names = append(names, n)
			}
			sort.Strings(names)
			g.out.WriteString("available git commands in the sandbox\n\n")
			for _, n := range names {
				fmt.Fprintf(g.out, "   %s\n", n)
			}
			return 0
		}
		g.out.WriteString(globalUsage + commonCommands)
		return 0
	}
	name := args[0]
	if _, ok := subcommands[name]; !ok {
		fmt.Fprintf(g.stderr, "git: '%s' is not a git command. See 'git --help'.\n", name)
		return 1
	}
	g.name = name
	return g.subHelp(0, g.c.Stdout)
}

// subHelp prints the usage of the current subcommand on w.
func (g *cmd) subHelp(status int, w io.Writer) int {
	u := usageOf(g.name)
	if u == "" {
		u = "usage: git " + g.name + " [<options>]\n\n"
	}
	if w == g.c.Stdout {
		g.out.WriteString(u)
	} else {
		g.out.Flush()
		io.WriteString(w, u)
	}
	return status
}

// flushPart writes buffered output, stopping quietly (status 141) when
// the reader has gone.
func (g *cmd) flushPart(w *bytes.Buffer) {
	g.out.Write(w.Bytes())
	w.Reset()
	if err := g.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		panic(exitCode(141))
	}
}

// fatal prints "fatal: ..." and unwinds with status 128.
func (g *cmd) fatal(format string, args ...any) {
	g.die(128, "fatal: "+format, args...)
}

// die prints a message and unwinds with status.
func (g *cmd) die(status int, format string, args ...any) {
	g.out.Flush()
	fmt.Fprintf(g.stderr, format+"\n", args...)
	panic(exitCode(status))
}

// errorf prints "error: ..." on stderr.
func (g *cmd) errorf(format string, args ...any) {
	g.out.Flush()
	fmt.Fprintf(g.stderr, "error: "+format+"\n", args...)
}

// warnf prints "warning: ..." on stderr.
func (g *cmd) warnf(format string, args ...any) {
	g.out.Flush()
	fmt.Fprintf(g.stderr, "warning: "+format+"\n", args...)
}

// msg prints a line on stderr.
func (g *cmd) msg(format string, args ...any) {
	g.out.Flush()
	fmt.Fprintf(g.stderr, format+"\n", args...)
}

// check stops when the script's context is done.
func (g *cmd) check() {
	if err := g.ctx.Err(); err != nil {
		g.fatal("%v", err)
	}
}

func (g *cmd) abs(p string) string {
	if path.IsAbs(p) {
		return p
	}
	if g.dir == "/" {
		return "/" + p
	}
	return g.dir + "/" + p
}

func cleanAbs(p string) string { return path.Clean(p) }

// getenv reads the call's environment.
func (g *cmd) getenv(name string) string { return g.c.Getenv(name) }
