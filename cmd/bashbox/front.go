//go:build bashbox_front

// The lean front of the bashbox CLI (make build installs it as bashbox,
// beside bashbox-full). Go runs the initialisation of every package a
// binary links at every start, and the full CLI links the server, the host
// sandbox, git, jq, yq, sqlite and the compressors: several milliseconds
// before main. This build links the engine, the volumes and the commands
// that are cheap to start (coreutils' bashbox_front table). It runs a
// `bashbox run` itself only when it handles every flag given and package
// leanscript proves the script can reach no command outside its table;
// anything else (another subcommand, another flag, a script not proven)
// it hands to bashbox-full by execve, with the same argv and environment
// and a script it read from stdin as stdin again, so the result is the
// full binary's.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/coreutils"
	"github.com/bashbox/bashbox/internal/leanscript"
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200) // as the full binary does (main.go)
	}
	os.Exit(front(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// leanOnlyEnv, when set to 1, makes the front fail instead of handing a
// script over, with the reason on stderr: for tests and for measuring
// which scripts the front runs.
const leanOnlyEnv = "BASHBOX_LEAN_ONLY"

// handover is a run the front does not take, and why.
type handover struct {
	why    string
	script []byte // read from stdin, to be stdin again
	stdin  bool
}

func front(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, rf := newRunFlags(io.Discard)
	box, req, h := prepare(argv, fs, rf, stdin)
	if h != nil {
		return execFull(argv, h, stderr)
	}
	defer box.Close()
	ctx, release := cliContext(box.Limits())
	defer release()
	return runBox(ctx, fs, box, req, rf, stdout, stderr)
}

// leanFlags are the run flags the front handles: every other one (sizes,
// --env, fallbacks, --changes) makes it hand the run over.
var leanFlags = map[string]bool{
	"command": true, "volume": true, "workdir": true, "json": true, "timeout": true,
	"max-commands": true, "max-loop-iterations": true, "max-overlay-files": true,
	"max-write-files": true, "max-nesting": true, "workers": true,
}

// prepare returns the box and request of a run the front takes, or why
// not.
func prepare(argv []string, fs *pflag.FlagSet, rf *runFlags, stdin io.Reader) (*bashbox.Box, bashbox.Request, *handover) {
	var req bashbox.Request
	if len(argv) < 2 || argv[1] != "run" {
		return nil, req, &handover{why: "not bashbox run"}
	}
	if err := fs.Parse(argv[2:]); err != nil {
		return nil, req, &handover{why: "flags: " + err.Error()}
	}
	var why string
	fs.Visit(func(f *pflag.Flag) {
		if why == "" && !leanFlags[f.Name] {
			why = "flag --" + f.Name
		}
	})
	if why != "" {
		return nil, req, &handover{why: why}
	}
	noSizes := func(string) (int64, error) { return 0, errors.New("a size flag") }
	if err := checkBudgets(fs, noSizes); err != nil {
		return nil, req, &handover{why: err.Error()}
	}
	cfg, err := rf.sandbox.leanConfig()
	if err != nil {
		return nil, req, &handover{why: err.Error()}
	}
	req, fromStdin, err := readScript(fs, rf, stdin)
	h := &handover{stdin: fromStdin, script: []byte(req.Script)}
	if err != nil {
		h.why = "reading the script: " + err.Error()
		return nil, req, h
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(req.Script), "")
	if err != nil {
		h.why = "parse: " + err.Error()
		return nil, req, h
	}
	if err := leanscript.Check(file, table{}); err != nil {
		h.why = "script: " + err.Error()
		return nil, req, h
	}
	box, err := bashbox.New(cfg)
	if err != nil {
		h.why = err.Error()
		return nil, req, h
	}
	return box, req, nil
}

// table is this binary's command table as leanscript sees it.
type table struct{}

func (table) Lean(name string) bool  { return coreutils.Lean(name) }
func (table) Known(name string) bool { return coreutils.Known(name) }

// leanConfig is config (run.go) for the flags the front handles.
func (f *sandboxFlags) leanConfig() (bashbox.Config, error) {
	cfg, err := f.baseConfig()
	if err != nil {
		return cfg, err
	}
	for _, v := range cfg.Volumes {
		// A volume in or above a directory of PATH could hold a script
		// named like a command, which would run in its place.
		for _, dir := range []string{"/usr/local/bin", "/usr/bin", "/bin"} {
			g := path.Clean(v.GuestPath)
			if g == "/" || g == dir || strings.HasPrefix(dir, g+"/") || strings.HasPrefix(g, dir+"/") {
				return cfg, fmt.Errorf("volume at %s", v.GuestPath)
			}
		}
	}
	return cfg, nil
}

// execFull replaces this process with bashbox-full, found beside this
// binary only, with the same argv and environment.
func execFull(argv []string, h *handover, stderr io.Writer) int {
	if os.Getenv(leanOnlyEnv) == "1" {
		fmt.Fprintf(stderr, "bashbox: lean front: %s\n", h.why)
		return 3
	}
	full, err := siblingOf(fullName)
	if err == nil && h.stdin {
		err = stdinFrom(h.script)
	}
	if err == nil {
		err = syscall.Exec(full, argv, os.Environ())
	}
	fmt.Fprintf(stderr, "bashbox: cannot start %s: %v\n", full, err)
	if errors.Is(err, syscall.ENOENT) {
		return 127
	}
	return 126
}

// stdinFrom makes descriptor 0 an in-memory file holding data, read from
// its start: the script the front read from stdin, for the full binary
// to read again.
func stdinFrom(data []byte) error {
	fd, err := unix.MemfdCreate("bashbox-script", 0)
	if err != nil {
		// No memfd (an old kernel, a seccomp filter): an unlinked
		// temporary file does the same.
		f, terr := os.CreateTemp("", "bashbox-script-")
		if terr != nil {
			return err
		}
		os.Remove(f.Name())
		if fd, err = unix.Dup(int(f.Fd())); err != nil {
			f.Close()
			return err
		}
		f.Close()
	}
	for b := data; len(b) > 0; {
		n, err := unix.Write(fd, b)
		if err != nil {
			unix.Close(fd)
			return err
		}
		b = b[n:]
	}
	if _, err := unix.Seek(fd, 0, io.SeekStart); err != nil {
		unix.Close(fd)
		return err
	}
	if fd == 0 {
		return nil
	}
	err = unix.Dup3(fd, 0, 0)
	unix.Close(fd)
	return err
}
