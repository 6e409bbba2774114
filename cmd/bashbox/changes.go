package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/changeset"
)

// changesFlags are run's --changes and --changes-out.
type changesFlags struct {
	spec string
	out  string
}

func (f *changesFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.spec, "changes", "", "report what the script wrote over a read-only volume: FORMAT[:GUEST_VOLUME], FORMAT diff, tar or json (default volume: the first)")
	fs.StringVar(&f.out, "changes-out", "", "write the --changes change set to FILE (else it goes into the --json result)")
}

// request checks the flags and turns them into the library's request.
func (f *changesFlags) request(asJSON bool) (*bashbox.ChangesRequest, error) {
	if f.spec == "" {
		if f.out != "" {
			return nil, errors.New("--changes-out needs --changes FORMAT")
		}
		return nil, nil
	}
	format, vol, _ := strings.Cut(f.spec, ":")
	if _, err := changeset.ParseFormat(format); err != nil {
		return nil, fmt.Errorf("--changes: %v", err)
	}
	if f.out == "" && !asJSON {
		return nil, errors.New("--changes needs --changes-out FILE or --json")
	}
	return &bashbox.ChangesRequest{Format: changeset.Format(format), Volume: vol}, nil
}

// deliver writes the change set where it was asked to go and reports a cut
// or a failure on stderr. It returns the exit status to use instead of the
// script's, or -1 to keep the script's.
func (f *changesFlags) deliver(res *bashbox.Result, stderr io.Writer) int {
	out := res.Changes
	if out == nil {
		return -1
	}
	if out.Error != "" {
		fmt.Fprintf(stderr, "bashbox: changes of %s: %s\n", out.Volume, out.Error)
		if res.ExitCode == 0 {
			return 1
		}
		return -1
	}
	if out.Truncated {
		fmt.Fprintf(stderr, "bashbox: change set truncated: %d changes omitted to fit the output budget; raise --max-output\n", out.Omitted)
	}
	if out.Unrepresentable > 0 {
		fmt.Fprintf(stderr, "bashbox: %d changes are not fully in the diff (empty directories, directory modes, file modes other than 644/755: see its last lines); --changes tar or json carries them\n", out.Unrepresentable)
	}
	if f.out == "" {
		return -1
	}
	data, err := out.Bytes()
	if err == nil {
		err = os.WriteFile(f.out, data, 0o666)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bashbox: --changes-out: %v\n", err)
		return 1
	}
	res.Changes = nil // in the file, not repeated in the --json result
	return -1
}

func applyCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox apply", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.StringP("directory", "C", ".", "the host directory to apply the change set to")
	dryRun := fs.BoolP("dry-run", "n", false, "check and list what would be done; change nothing")
	quiet := fs.BoolP("quiet", "q", false, "print only conflicts and errors")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox apply [--dry-run] [-C DIR] CHANGESET\n(CHANGESET is a file made by 'bashbox run --changes tar' or 'json', or - for stdin)\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	var in io.Reader = stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox apply: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	set, err := changeset.Load(in)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox apply: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "bashbox apply: %s: not a directory\n", *dir)
		return 2
	}
	rep, err := changeset.Apply(*dir, set, *dryRun)
	if err == nil && !*quiet {
		prefix := ""
		if *dryRun {
			prefix = "would "
		}
		for _, a := range rep.Actions {
			fmt.Fprintf(stdout, "%s%s\n", prefix, a)
		}
	}
	if rep != nil {
		for _, c := range rep.Conflicts {
			fmt.Fprintf(stderr, "bashbox apply: conflict: %s\n", c.Error())
		}
	}
	if err != nil {
		if errors.Is(err, changeset.ErrConflicts) || *dryRun {
			fmt.Fprintf(stderr, "bashbox apply: %v\n", err)
		} else {
			// Every entry was checked first, so this is the host
			// failing (disk full, permissions) part way.
			fmt.Fprintf(stderr, "bashbox apply: %v (the directory may be partly changed)\n", err)
		}
		return 1
	}
	if *dryRun && !*quiet {
		fmt.Fprintf(stdout, "dry run: %d changes apply cleanly; nothing was changed\n", len(rep.Actions))
	}
	return 0
}
