//go:build !bashbox_front

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox/bench"
)

// startCPUProfile profiles this process into file until the returned
// func is called: the in-process bashbox runner is all the process does
// while an op runs (with --ops, one op's profile).
func startCPUProfile(file string) (stop func() error, err error) {
	if file == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

func benchCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox bench", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus directory (default: a git repository made from $(go env GOROOT)/src, cached in the temp dir)")
	shape := fs.String("corpus-shape", "gosrc", "the generated corpus when --corpus is not given: gosrc (the Go source tree) or\nsmall-deep-huge (40,000 small files in deep directories and three 40 MB files)")
	memOp := fs.String("memory-op", "grep_literal", "the op whose peak RSS is measured as a fresh process (none: skip the memory figures)")
	hostShell := fs.String("host-shell", "/bin/sh", "the host shell to compare with")
	reps := fs.Int("reps", 5, "repetitions after the warm-up")
	quick := fs.Bool("quick", false, "fewer ops and repetitions (a few minutes)")
	only := fs.StringSlice("ops", nil, "only these ops")
	out := fs.String("out", "bench/out", "where the report, JSON and chart go")
	peers := fs.StringArray("peer", nil, "extra runner NAME='COMMAND {root} {script}' (repeatable)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of bashbox's runs to this file (go tool pprof; the host shell's\nprocesses are not in it, and the bench itself mostly waits for them)")
	useDaemon := fs.Bool("daemon", true, "run the start-up op through a bashbox daemon the bench starts, as an operator who\ncares about start-up runs one (the launcher bin/bashbox must be beside this binary);\nthe start-up line also gives the figure without it")
	readme := fs.Bool("readme", false, "print the README's benchmark section (table, date, machine) instead of the terminal table")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	root := *corpus
	if root == "" {
		var err error
		root, err = defaultCorpus(*shape, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
			return 1
		}
	}
	ops := bench.Ops
	if *quick {
		if !fs.Changed("reps") {
			*reps = 2
		}
		ops = slices.DeleteFunc(slices.Clone(ops), func(o bench.Op) bool { return !slices.Contains(bench.QuickOps, o.Name) })
	}
	if len(*only) > 0 {
		ops = slices.DeleteFunc(slices.Clone(ops), func(o bench.Op) bool { return !slices.Contains(*only, o.Name) })
	}
	bb, err := bench.NewBashbox(root)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
		return 1
	}
	defer bb.Close()
	if exe, err := frontExe(); err == nil {
		bb.Exe = exe // the start-up op runs the CLI as users start it
	}
	var startup bench.StartupConfig
	if self, err := os.Executable(); err == nil && *useDaemon && bb.Exe != "" && bb.Exe != self {
		d, err := bench.StartDaemon(self)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
			return 1
		}
		defer d.Close()
		bb.Env, bb.ExtraCPU = []string{d.Env()}, d.CPU
		startup = bench.StartupConfig{Env: bb.Env, ExtraCPU: d.CPU, Via: "daemon"}
	}
	runners := []bench.Runner{bench.HostShell{Path: *hostShell}, bb}
	for _, p := range *peers {
		name, tmpl, ok := strings.Cut(p, "=")
		if !ok || !strings.Contains(tmpl, "{script}") {
			return usageError(stderr, fs, "invalid value %q for --peer: want NAME='COMMAND {root} {script}'", p)
		}
		runners = append(runners, bench.Peer{Label: name, Template: tmpl})
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
		return 1
	}
	rep := bench.Run(context.Background(), bench.Config{Root: root, Ops: ops, Runners: runners, Reps: *reps, Progress: stderr})
	if err := stopProfile(); err != nil {
		fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
		return 1
	}
	// The startup op compares with the host shell, often dash; what an
	// agent's Bash tool call costs is bash's start-up, so measure that too.
	if slices.ContainsFunc(ops, func(o bench.Op) bool { return o.Launches > 0 }) {
		if bash, err := exec.LookPath("bash"); err == nil && bb.Exe != "" {
			s, err := bench.MeasureStartup(context.Background(), bb.Exe, bash, 10*(*reps), startup)
			if err != nil {
				fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
				return 1
			}
			rep.Startup = s
			if startup.Via != "" {
				cold := bench.StartupConfig{Env: []string{"BASHBOX_SOCKET=off"}, Via: "no daemon"}
				if rep.StartupCold, err = bench.MeasureStartup(context.Background(), bb.Exe, bash, 10*(*reps), cold); err != nil {
					fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
					return 1
				}
			}
		}
	}
	if i := slices.IndexFunc(bench.Ops, func(o bench.Op) bool { return o.Name == *memOp }); i >= 0 {
		m, err := bench.MeasureMemory(context.Background(), bench.HostShell{Path: *hostShell}, bb, bench.Ops[i], root)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
			return 1
		}
		rep.Memory = m
	} else if *memOp != "none" {
		return usageError(stderr, fs, "invalid value %q for --memory-op: not an op", *memOp)
	}
	if *readme {
		io.WriteString(stdout, rep.ReadmeSection(strings.Join(append([]string{"bashbox", "bench"}, args...), " ")))
	} else {
		rep.WriteTable(stdout)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
		return 1
	}
	for name, data := range map[string][]byte{"report.md": []byte(rep.Markdown()), "report.json": rep.JSON(), "ratios.svg": []byte(rep.SVG())} {
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			fmt.Fprintf(stderr, "bashbox bench: %v\n", err)
			return 1
		}
	}
	where := stdout
	if *readme {
		where = stderr // stdout is the README section alone
	}
	fmt.Fprintf(where, "report: %s (report.md, report.json, ratios.svg)\n", *out)
	return 0
}

// defaultCorpus builds (once) the generated corpus of the given shape: a
// git repository from the Go source tree, or the small-deep-huge one.
func defaultCorpus(shape string, progress io.Writer) (string, error) {
	switch shape {
	case "gosrc":
	case "small-deep-huge":
		dst := filepath.Join(os.TempDir(), "bashbox-bench-corpus-"+shape)
		if _, err := os.Stat(filepath.Join(dst, ".bench-ready")); err == nil {
			return dst, nil
		}
		os.RemoveAll(dst)
		fmt.Fprintf(progress, "building the %s corpus in %s ...\n", shape, dst)
		if err := bench.MakeShapedCorpus(dst); err != nil {
			return "", err
		}
		return dst, os.WriteFile(filepath.Join(dst, ".bench-ready"), nil, 0o644)
	default:
		return "", fmt.Errorf("invalid value %q for --corpus-shape: want gosrc or small-deep-huge", shape)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("finding the Go source tree: go env GOROOT: %v (or give a corpus with --corpus DIR)", err)
	}
	goroot := strings.TrimSpace(string(out))
	dst := filepath.Join(os.TempDir(), "bashbox-bench-corpus")
	if _, err := os.Stat(filepath.Join(dst, ".bench-ready")); err == nil {
		return dst, nil
	}
	os.RemoveAll(dst)
	fmt.Fprintf(progress, "building the corpus from %s/src in %s ...\n", goroot, dst)
	if err := bench.MakeCorpus(filepath.Join(goroot, "src"), dst); err != nil {
		return "", err
	}
	return dst, os.WriteFile(filepath.Join(dst, ".bench-ready"), nil, 0o644)
}
