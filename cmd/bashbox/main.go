//go:build !bashbox_front

// Command bashbox runs shell scripts in the in-process sandbox (run), serves
// it to agents (serve), runs the classic host Bash tool (bash, doctor) and
// benchmarks it against the host shell (bench).
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

const usage = `usage: bashbox <command> [flags]

commands:
  run      run a script in the sandbox (bashbox run -v DIR:/work -c 'SCRIPT')
  apply    apply a change set from 'run --changes tar|json' to a host directory
  serve    serve the sandbox over MCP (stdio or --http) and HTTP
  bash     run a command with the classic Bash tool on the host sandbox
  doctor   list the host sandbox backends this machine offers
  daemon   serve 'bashbox run' to the fast launcher (bin/bashbox) over a socket
  bench    compare bashbox with the host shell on a corpus
  version  print the version, commit and Go version (also --version)

Run 'bashbox <command> --help' for its flags.
`

// subcommands maps names to entry points; each returns the exit status.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"run":   runCommand,
	"apply": applyCommand,
	"bench": benchCommand,
	"serve": serveCommand,
	"bash": func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runBashCommand(args, stdout, stderr)
	},
	"version": versionCommand,
	"daemon":  daemonCommand,
	"doctor": func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runDoctorCommand(args, stdout, stderr)
	},
}

func main() {
	if os.Getenv("GOGC") == "" {
		// Scripts allocate briskly (expansions, decoded JSON, awk fields):
		// collecting at 3x the live heap instead of 2x costs some memory
		// and saves 10-20% of the time of jq, awk and shell loops.
		debug.SetGCPercent(200)
	}
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "--version", "-V":
		args = []string{"version"}
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		what := "command"
		if strings.HasPrefix(args[0], "-") {
			what = "option"
		}
		fmt.Fprintf(stderr, "bashbox: unknown %s %q\nTry 'bashbox --help' for the list of commands.\n", what, args[0])
		return exitUsage
	}
	return cmd(args[1:], stdin, stdout, stderr)
}
