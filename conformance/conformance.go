// Package conformance is the differential suite: each case is a short
// script run once by real /bin/bash with the machine's GNU tools and once by
// bashbox, over identical copies of a fixture tree at the same path,
// comparing stdout, stderr, exit status and the resulting tree byte for
// byte.
package conformance

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// Case is one script.
type Case struct {
	File    string // the .cases file
	Line    int
	Command string // what the case is counted under
	Title   string
	Script  string
}

// ParseCases reads a .cases file: "=== CMD: title" starts a case, the lines
// up to the next "===" are its script.
func ParseCases(name string, data []byte) ([]Case, error) {
	var cases []Case
	var cur *Case
	var body []string
	flush := func() {
		if cur != nil {
			cur.Script = strings.TrimRight(strings.Join(body, "\n"), "\n") + "\n"
			cases = append(cases, *cur)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "=== "); ok {
			flush()
			cmd, title, ok := strings.Cut(rest, ":")
			if !ok {
				return nil, fmt.Errorf("%s:%d: want '=== CMD: title'", name, n)
			}
			cur = &Case{File: filepath.Base(name), Line: n, Command: strings.TrimSpace(cmd), Title: strings.TrimSpace(title)}
			body = nil
			continue
		}
		if cur == nil {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			return nil, fmt.Errorf("%s:%d: text before the first case", name, n)
		}
		body = append(body, line)
	}
	flush()
	return cases, sc.Err()
}

// LoadCases reads every *.cases file in dir.
func LoadCases(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cases"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases, err := ParseCases(f, data)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	return all, nil
}

// Outcome is what one side produced.
type Outcome struct {
	Stdout, Stderr string
	Exit           int
	Tree           string
}

// Result compares the two sides of a case.
type Result struct {
	Case     Case
	Ref, Box Outcome
	Pass     bool
	Diff     string
}

// Env is the environment both sides start with.
var Env = []string{
	"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/user", "SHELL=/bin/bash",
	"USER=user", "LANG=C.UTF-8", "TMPDIR=/tmp", "TZ=UTC", "LC_ALL=C.UTF-8",
}

// binBash is how the reference names itself when run as /bin/bash.
var binBash = regexp.MustCompile(`(?m)^/bin/bash: `)

// ddTiming is the part of dd's transfer summary that differs from run to
// run (elapsed time and speed); both sides have it replaced.
var ddTiming = regexp.MustCompile(`(?m)( copied), [0-9.e+-]+ s, (?:[0-9.]+ [kMGTPEZYRQ]?B/s|Infinity B/s)$`)

func normalise(stderr string) string {
	return ddTiming.ReplaceAllString(stderr, "$1, TIME")
}

// BaseDir makes the directory the cases run under: beside /tmp, not in it,
// since the confined reference sees a private /tmp (and a directory on
// another filesystem than its parents would change git's repository
// discovery).
func BaseDir() (string, error) {
	if dir, err := os.MkdirTemp("/var/tmp", "bbconf-"); err == nil {
		return dir, nil
	}
	return os.MkdirTemp("", "bbconf-")
}

// RunCase runs c on both sides in a fresh directory under base.
func RunCase(ctx context.Context, c Case, base string, timeout time.Duration) Result {
	dir := filepath.Join(base, "work")
	res := Result{Case: c}
	if err := MakeFixture(dir); err != nil {
		res.Diff = "fixture: " + err.Error()
		return res
	}
	res.Ref = runBash(ctx, c.Script, dir, timeout, refAliases(base))
	res.Ref.Stderr = normalise(binBash.ReplaceAllString(res.Ref.Stderr, "bash: "))
	res.Ref.Tree = TreeDigest(dir)
	os.RemoveAll(dir)
	if err := MakeFixture(dir); err != nil {
		res.Diff = "fixture: " + err.Error()
		return res
	}
	res.Box = runBox(ctx, c.Script, dir, timeout)
	res.Box.Stderr = normalise(res.Box.Stderr)
	res.Box.Tree = TreeDigest(dir)
	os.RemoveAll(dir)
	res.Pass, res.Diff = compare(res.Ref, res.Box)
	return res
}

// fileCaps are CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
// CAP_FOWNER and CAP_FSETID: what root's file handling needs.
const fileCaps = 0x1f

// A confinement runs the reference bash so that a case cannot change the
// machine it runs on (its clock, hostname, mounts, network, files outside
// the case): prefix is the command line before bash for a case directory.
type confinement struct {
	name   string
	prefix func(dir string) []string
}

// confinements, best first. bubblewrap: the host read-only but the case's
// directory, a private /tmp, own network, hostname and process
// namespaces, and of root's capabilities only the file ones (bwrap keeps
// them all for root unless told). setpriv, where namespaces are not
// available: no namespaces, but the same capabilities, with the bounding
// set cut so that nothing regains the others.
func confinements() []confinement {
	var out []confinement
	if bwrap, err := exec.LookPath("bwrap"); err == nil {
		out = append(out, confinement{"bwrap", func(dir string) []string {
			argv := []string{bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
				"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent"}
			if os.Geteuid() == 0 {
				argv = append(argv, "--cap-drop", "ALL")
				for _, c := range []string{"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID"} {
					argv = append(argv, "--cap-add", c)
				}
			}
			if dir != "" {
				argv = append(argv, "--bind", dir, dir, "--chdir", dir)
			}
			return append(argv, "--")
		}})
	}
	if setpriv, err := exec.LookPath("setpriv"); err == nil {
		out = append(out, confinement{"setpriv", func(string) []string {
			return []string{setpriv, "--bounding-set", "-all,+chown,+dac_override,+dac_read_search,+fowner,+fsetid", "--"}
		}})
	}
	return out
}

// chosen is the first confinement under which a script, asked to read
// them, holds no capability beyond the file ones.
var chosen = sync.OnceValues(func() (*confinement, error) {
	var why []string
	for _, c := range confinements() {
		argv := append(c.prefix(""), "/bin/sh", "-c", "grep '^CapEff:' /proc/self/status")
		out, err := exec.Command(argv[0], argv[1:]...).Output()
		if err == nil {
			eff, perr := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(string(out), "CapEff:")), 16, 64)
			switch {
			case perr != nil:
				err = fmt.Errorf("cannot read the capabilities: %q", out)
			case eff&^fileCaps != 0:
				err = fmt.Errorf("capabilities %#x remain", eff)
			default:
				return &c, nil
			}
		}
		why = append(why, c.name+": "+err.Error())
	}
	if len(why) == 0 {
		why = append(why, "neither bwrap nor setpriv is installed")
	}
	return nil, fmt.Errorf("cannot confine the reference bash here (%s)", strings.Join(why, "; "))
})

// Confinement names how the reference bash is confined, or says why it
// cannot be. Unconfined, a case runs with the caller's full privileges.
func Confinement() (string, error) {
	c, err := chosen()
	if err != nil {
		return "", err
	}
	return c.name, nil
}

// aliases are reference commands Debian installs under another name:
// the reference side finds them under the name the case uses. A target
// with a slash is a path from the repository root to a reference built by
// .ci/run: it is used even when PATH has a command of that name (Debian's
// yq is another program than mikefarah's yq v4, which bashbox imitates).
var aliases = map[string]string{"fd": "fdfind", "yq": "bin/yq-v4.54.3/yq"}

// refAliases makes (once per base) a directory of links to the aliased
// commands missing from PATH, and returns it ("" when none is needed).
// It lives under base, beside the case directory, where the confined
// reference can see it.
func refAliases(base string) string {
	dir := filepath.Join(base, "refbin")
	made := false
	for name, real := range aliases {
		var target string
		if strings.Contains(real, "/") {
			abs, err := filepath.Abs(real)
			if err != nil || !fileExists(abs) {
				continue
			}
			target = abs
		} else {
			if _, err := exec.LookPath(name); err == nil {
				continue
			}
			t, err := exec.LookPath(real)
			if err != nil {
				continue
			}
			target = t
		}
		link := os.Symlink
		if strings.Contains(real, "/") {
			// A reference built into the repository may sit where the
			// confined reference cannot see (a clone under /tmp): put a
			// copy beside the cases rather than a link to it.
			link = copyExecutable
		}
		if os.MkdirAll(dir, 0o755) == nil && link(target, filepath.Join(dir, name)) == nil || fileExists(filepath.Join(dir, name)) {
			made = true
		}
	}
	if !made {
		return ""
	}
	return dir
}

// copyExecutable copies the program at src to dst (a hard link when they
// share a filesystem).
func copyExecutable(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func runBash(ctx context.Context, script, dir string, timeout time.Duration, pathPrefix string) Outcome {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := []string{"/bin/bash", "-c", script}
	if c, err := chosen(); err == nil {
		argv = append(c.prefix(dir), argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), Env...), "PWD="+dir)
	if pathPrefix != "" {
		for i, kv := range cmd.Env {
			if v, ok := strings.CutPrefix(kv, "PATH="); ok {
				cmd.Env[i] = "PATH=" + pathPrefix + ":" + v
			}
		}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	o := Outcome{Stdout: out.String(), Stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.Exit = ee.ExitCode()
	} else if err != nil {
		o.Exit = -1
		o.Stderr += err.Error()
	}
	return o
}

func runBox(ctx context.Context, script, dir string, timeout time.Duration) Outcome {
	box, err := bashbox.New(bashbox.Config{
		Volumes: []volumes.Volume{{HostDir: dir, GuestPath: dir, Mode: volumes.ReadWrite}},
		Env:     []string{"TZ=UTC", "LC_ALL=C.UTF-8"},
		Limits:  bashbox.Limits{Timeout: timeout},
	})
	if err != nil {
		return Outcome{Exit: -1, Stderr: err.Error()}
	}
	defer box.Close()
	res, err := box.Run(ctx, bashbox.Request{Script: script})
	if err != nil {
		return Outcome{Exit: -1, Stderr: err.Error()}
	}
	return Outcome{Stdout: res.Stdout, Stderr: res.Stderr, Exit: res.ExitCode}
}

func compare(ref, box Outcome) (bool, string) {
	var b strings.Builder
	if ref.Exit != box.Exit {
		fmt.Fprintf(&b, "exit: bash %d, bashbox %d\n", ref.Exit, box.Exit)
	}
	if ref.Stdout != box.Stdout {
		fmt.Fprintf(&b, "stdout:\n  bash:    %q\n  bashbox: %q\n", ref.Stdout, box.Stdout)
	}
	if ref.Stderr != box.Stderr {
		fmt.Fprintf(&b, "stderr:\n  bash:    %q\n  bashbox: %q\n", ref.Stderr, box.Stderr)
	}
	if ref.Tree != box.Tree {
		fmt.Fprintf(&b, "tree:\n  bash:\n%s\n  bashbox:\n%s\n", indent(ref.Tree), indent(box.Tree))
	}
	return b.Len() == 0, b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// TreeDigest lists a tree's entries with type, permissions, size and
// content hash (mtimes are left out: both sides write at different times).
func TreeDigest(root string) string {
	var lines []string
	filepath.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			line += " -> " + t
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %d %x", len(data), sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
