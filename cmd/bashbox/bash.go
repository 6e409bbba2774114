//go:build !bashbox_front

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox/config"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/hostsandbox/bashtool"
)

// The bashbox binary is also the host sandbox's helper: re-executed inside
// a sandbox with a marker argument, it applies Landlock and resource limits
// and execs the command. This must run before anything else in main.
func init() { hostsandbox.ServeHelper() }

// sandboxPolicy maps BASHBOX_SANDBOX, BASHBOX_ALLOW_NO_SANDBOX and
// DOCKER_HOST onto the host sandbox's policy: the libraries never read the
// environment themselves.
func sandboxPolicy() hostsandbox.Policy { return hostsandbox.PolicyFromEnv(os.Getenv) }

// hostConfig is the same mapping for serve's configuration, plus
// BASHBOX_BASH_ALLOW_NETWORK for its Bash tool.
func hostConfig() config.Host {
	return config.Host{Sandbox: sandboxPolicy(), BashNetwork: bashtool.NetworkFromEnv(os.Getenv)}
}

// exitCannotRun is the status when the command was refused by a denylist
// or no sandbox could run it (as a shell reports a command it cannot
// execute).
const exitCannotRun = 126

// runBashCommand implements `bashbox bash`: one foreground call of the
// classic Bash tool on the host sandbox backend. Its output and exit
// status are the tool's.
func runBashCommand(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox bash", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 0, fmt.Sprintf("wall-clock limit, e.g. 30s (default %ds, at most %ds)", bashtool.DefaultTimeoutSecs, bashtool.MaxTimeoutSecs))
	reads := fs.StringArray("read", nil, "PATH the command may read (repeatable)")
	writes := fs.StringArray("write", nil, "PATH the command may read and write (repeatable; the current directory always is)")
	envAllow := fs.StringSlice("env-allow", nil, "host environment variables to pass through, NAME,... (NAME* for a prefix; secret-shaped names only when named exactly)")
	command := fs.StringP("command", "c", "", "the command to run")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `usage: bashbox bash [flags] -c 'COMMAND'

Runs COMMAND with bash in the strongest OS sandbox this machine offers
(see bashbox doctor): the current directory writable, the network closed
(set %s=1 to open it), a scrubbed environment. Refused commands and a
missing sandbox exit %d.

%s`, bashtool.EnvAllowNetwork, exitCannotRun, fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fs, "unexpected argument %q: give the command with -c 'COMMAND'", fs.Arg(0))
	}
	if *command == "" {
		return usageError(stderr, fs, "give the command with -c 'COMMAND'")
	}
	wd, err := os.Getwd()
	if err != nil {
		return usageError(stderr, fs, "current directory: %s", errText(err))
	}
	absAll := func(flag string, paths []string) ([]string, error) {
		out := make([]string, 0, len(paths))
		for _, p := range paths {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			if _, err := os.Stat(abs); err != nil {
				return nil, fmt.Errorf("--%s %s: %s", flag, p, errText(err))
			}
			out = append(out, abs)
		}
		return out, nil
	}
	readPaths, err := absAll("read", *reads)
	if err == nil {
		var writePaths []string
		writePaths, err = absAll("write", *writes)
		*writes = writePaths
	}
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}

	tool, err := bashtool.New(bashtool.Config{WorkDir: wd, ReadPaths: readPaths, WritePaths: *writes, EnvAllow: *envAllow,
		Policy: sandboxPolicy(), Network: bashtool.NetworkFromEnv(os.Getenv)})
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	defer tool.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := tool.Run(ctx, bashtool.Input{Command: *command, Timeout: timeout.Seconds()})
	if err != nil {
		var refused *bashtool.RefusedError
		switch {
		case errors.As(err, &refused):
			fmt.Fprintln(stderr, refused.Reason)
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(stderr, "bashbox bash: interrupted")
			return 130
		default:
			fmt.Fprintf(stderr, "bashbox bash: %v\n", err)
		}
		return exitCannotRun
	}
	io.WriteString(stdout, res.Output)
	return res.ExitCode
}

// runDoctorCommand implements `bashbox doctor`: which backends and layers
// this machine offers and which one `bashbox bash` would use. It exits 1
// when bash would fail closed.
func runDoctorCommand(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox doctor", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox doctor [--json]\n\nLists the host sandbox backends and layers this machine offers\n(bubblewrap, Landlock, seccomp, sandbox-exec, AppContainer, Docker)\nand which one bashbox bash would use.\n\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fs, "unexpected argument %q", fs.Arg(0))
	}
	report := hostsandbox.Inspect(sandboxPolicy())
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "bashbox doctor: %v\n", err)
			return 1
		}
	} else {
		io.WriteString(stdout, report.Text())
	}
	if report.Selected == "fail-closed" {
		return 1
	}
	return 0
}
