package git

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// testEnv is the environment both gits run with: fixed identities and
// dates so that object names agree.
var testEnv = []string{
	"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x",
	"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z",
	"GIT_CONFIG_NOSYSTEM=1", "TZ=UTC", "LANG=C", "LC_ALL=C", "PATH=/usr/bin:/bin",
}

// pair is a real git directory and a sandbox directory shown at the same
// guest path, so that messages naming paths agree.
type pair struct {
	t    *testing.T
	real string // host dir for real git; also the guest path of the box
	box  string // host dir behind the box's volume
	ns   builtins.FS
}

func newPair(t *testing.T) *pair {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base := t.TempDir()
	p := &pair{t: t, real: filepath.Join(base, "real"), box: filepath.Join(base, "box")}
	if err := os.MkdirAll(p.real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p.box, 0o755); err != nil {
		t.Fatal(err)
	}
	table, err := volumes.NewTable([]volumes.Volume{{HostDir: p.box, GuestPath: p.real, Mode: volumes.ReadWrite}})
	if err != nil {
		t.Fatal(err)
	}
	p.ns = table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
	return p
}

// write creates a file on both sides.
func (p *pair) write(name, content string) {
	for _, d := range []string{p.real, p.box} {
		f := filepath.Join(d, name)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *pair) remove(name string) {
	for _, d := range []string{p.real, p.box} {
		os.RemoveAll(filepath.Join(d, name))
	}
}

type result struct {
	out, err string
	code     int
}

func (p *pair) runReal(dir string, args ...string) result {
	cmd := exec.Command("git", args...)
	cmd.Dir = filepath.Join(p.real, dir)
	cmd.Env = append(append([]string{}, testEnv...), "HOME="+p.real)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		p.t.Fatal(err)
	}
	return result{o.String(), e.String(), code}
}

func (p *pair) runBox(dir string, args ...string) result {
	var o, e bytes.Buffer
	c := &builtins.Call{
		Args: append([]string{"git"}, args...), Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e,
		Env: append(append([]string{}, testEnv...), "HOME="+p.real), Dir: filepath.Join(p.real, dir), FS: p.ns, Umask: 0o022,
		Exec: func(ctx context.Context, c *builtins.Call) int { return 127 },
	}
	code := Run(context.Background(), c)
	return result{o.String(), e.String(), code}
}

// git runs a command on both sides and compares.
func (p *pair) git(args ...string) result {
	return p.gitIn("", args...)
}

func (p *pair) gitIn(dir string, args ...string) result {
	p.t.Helper()
	want := p.runReal(dir, args...)
	got := p.runBox(dir, args...)
	if want != got {
		p.t.Fatalf("git %s:\n--- real (exit %d)\n%s\n%s--- sandbox (exit %d)\n%s\n%s", strings.Join(args, " "),
			want.code, want.out, want.err, got.code, got.out, got.err)
	}
	return got
}

// gitUnlessConflict compares like git, except when real git reports a
// conflict (which the sandbox refuses to create): it reports whether that
// happened, so that the caller can stop.
func (p *pair) gitUnlessConflict(args ...string) bool {
	p.t.Helper()
	want := p.runReal("", args...)
	got := p.runBox("", args...)
	if strings.Contains(want.out+want.err, "CONFLICT") {
		return true
	}
	if want != got {
		p.t.Fatalf("git %s:\n--- real (exit %d)\n%s\n%s--- sandbox (exit %d)\n%s\n%s", strings.Join(args, " "),
			want.code, want.out, want.err, got.code, got.out, got.err)
	}
	return false
}

func TestBasicWorkflow(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.git("init", "-q", "-b", "main")
	p.git("status")
	p.write("a.txt", "hello\n")
	p.write("dir/b.txt", "b\n")
	p.git("status")
	p.git("status", "-s")
	p.git("add", "a.txt")
	p.git("status")
	p.git("commit", "-m", "first")
	p.git("add", ".")
	p.git("commit", "-m", "second")
	p.write("a.txt", "hello\nworld\n")
	p.git("diff")
	p.git("diff", "--stat")
	p.git("status", "--porcelain")
	p.git("commit", "-am", "third")
	p.git("log")
	p.git("log", "--oneline")
	p.git("log", "-p", "--stat")
	p.git("show", "HEAD~1")
	p.git("rev-parse", "HEAD", "HEAD~1", "--short", "HEAD")
	p.git("ls-files", "-s")
}

func TestBranchesAndCheckout(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.git("init", "-q", "-b", "main")
	p.write("f", "1\n")
	p.git("add", "f")
	p.git("commit", "-qm", "one")
	p.git("checkout", "-b", "feature")
	p.write("f", "2\n")
	p.git("commit", "-qam", "two")
	p.git("branch")
	p.git("branch", "-v")
	p.git("checkout", "main")
	p.git("log", "--oneline", "--all")
	p.write("f", "local\n")
	p.git("checkout", "feature")
	p.git("checkout", "--", "f")
	p.git("checkout", "feature")
	p.git("checkout", "HEAD~1")
	p.git("status")
	p.git("switch", "-")
	p.git("branch", "-d", "main")
	p.git("branch", "-D", "main")
	p.git("branch", "-m", "feature", "trunk")
	p.git("branch", "--show-current")
	p.git("reset", "--hard", "HEAD~1")
	p.git("reflog")
}

func TestResetRestoreRm(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.git("init", "-q", "-b", "main")
	p.write("a", "a\n")
	p.write("b", "b\n")
	p.git("add", ".")
	p.git("commit", "-qm", "init")
	p.write("a", "changed\n")
	p.git("add", "a")
	p.git("restore", "--staged", "a")
	p.git("status", "-s")
	p.git("restore", "a")
	p.git("status", "-s")
	p.git("rm", "b")
	p.git("status")
	p.git("reset", "HEAD", "b")
	p.git("status", "-s")
	p.git("rm", "--cached", "b")
	p.git("status", "-s")
	p.git("rm", "nothing")
	p.git("mv", "a", "c")
	p.git("status")
}

// TestDiffRandomEdits compares git diff output on random edits.
func TestDiffRandomEdits(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.git("init", "-q", "-b", "main")
	r := rand.New(rand.NewSource(7))
	n := 5
	if testing.Short() {
		n = 2
	}
	for i := 0; i < n; i++ {
		var files []string
		for k := 0; k < 3; k++ {
			name := fmt.Sprintf("f%d.txt", k)
			files = append(files, name)
			lines := randomFile(r, 5+r.Intn(60))
			p.write(name, string(join(lines, true)))
		}
		p.git("add", ".")
		p.git("commit", "-qm", fmt.Sprintf("c%d", i), "--allow-empty")
		for _, name := range files {
			old, _ := os.ReadFile(filepath.Join(p.real, name))
			lines := strings.Split(strings.TrimSuffix(string(old), "\n"), "\n")
			p.write(name, string(join(mutate(r, lines), r.Intn(4) != 0)))
		}
		p.git("diff")
		p.git("diff", "--stat")
		p.git("diff", "--numstat")
		p.git("diff", "-U1")
		p.git("add", ".")
		p.git("diff", "--cached", "--stat", "-p")
	}
	p.git("log", "-p", "--format=%h %s")
	// (Uncommitted lines are dated now: blame the committed version.)
	p.git("blame", "HEAD", "--", "f0.txt")
	p.git("blame", "--porcelain", "HEAD", "--", "f1.txt")
}

// TestRandomWorkflows runs random sequences of file edits and git commands
// on both gits and compares every output (BASHBOX_GIT_FUZZ=N for more).
func TestRandomWorkflows(t *testing.T) {
	t.Parallel()
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("BASHBOX_GIT_FUZZ")); err == nil {
		rounds = n
	}
	var log []string
	for round := 0; round < rounds; round++ {
		p := newPair(t)
		r := rand.New(rand.NewSource(int64(8100 + round)))
		p.git("init", "-q", "-b", "main")
		names := []string{"a", "b.txt", "d/c", "d/e/f.go", "g h", "d/i", "x.log"}
		p.write(".gitignore", "*.log\n")
		steps := 40
		log = log[:0]
		if round == 0 {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("steps of the failing round:\n%s", strings.Join(log, "\n"))
				}
			})
		}
		conflicted := false
		for s := 0; s < steps && !conflicted; s++ {
			name := names[r.Intn(len(names))]
			op := r.Intn(16)
			log = append(log, fmt.Sprintf("r%d s%d: %d %s", round, s, op, name))
			switch op {
			case 0, 1, 2:
				p.write(name, string(join(randomFile(r, 1+r.Intn(12)), r.Intn(5) != 0)))
			case 3:
				p.remove(name)
			case 4:
				p.git("add", "-A")
			case 5:
				p.git("add", name)
			case 6:
				p.git("commit", "-m", fmt.Sprintf("step %d", s))
			case 7:
				p.git("commit", "-qam", fmt.Sprintf("all %d", s))
			case 8:
				p.git("status")
				p.git("status", "-s")
			case 9:
				p.git("diff")
				p.git("diff", "--cached", "--stat")
			case 10:
				p.git("rm", "-q", "--cached", name)
			case 11:
				p.git("checkout", "--", name)
			case 12:
				p.git("reset", "-q")
			case 13:
				p.git("stash")
			case 14:
				// Conflicts are a documented deviation: end the round.
				if p.gitUnlessConflict("stash", "pop") {
					conflicted = true
				}
			case 15:
				p.git("log", "--stat", "--format=%h %s")
			}
			if os.Getenv("BASHBOX_GIT_CHECKEACH") != "" && !conflicted {
				p.git("status", "--porcelain")
			}
		}
		if !conflicted {
			p.git("status", "--porcelain")
			p.git("log", "-p")
		}
	}
}

// TestRandomBranchWorkflows adds branches, moves, resets and history
// commands to the random workflows.
func TestRandomBranchWorkflows(t *testing.T) {
	t.Parallel()
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("BASHBOX_GIT_FUZZ")); err == nil {
		rounds = n
	}
	for round := 0; round < rounds; round++ {
		p := newPair(t)
		r := rand.New(rand.NewSource(int64(7100 + round)))
		p.git("init", "-q", "-b", "main")
		names := []string{"a", "b.txt", "d/c", "d/e/f.go", "d/i"}
		branches := []string{"main", "b1", "b2"}
		p.write("a", "start\n")
		p.git("add", ".")
		p.git("commit", "-qm", "start")
		for s := 0; s < 50; s++ {
			name := names[r.Intn(len(names))]
			br := branches[r.Intn(len(branches))]
			switch r.Intn(22) {
			case 0, 1, 2, 3:
				p.write(name, string(join(randomFile(r, 1+r.Intn(10)), true)))
			case 4:
				p.remove(name)
			case 5:
				p.git("add", "-A")
			case 6, 7:
				p.git("commit", "-qam", fmt.Sprintf("c%d", s))
			case 8:
				p.git("checkout", br)
			case 9:
				p.git("checkout", "-b", fmt.Sprintf("n%d", s))
			case 10:
				p.git("branch", br)
			case 11:
				p.git("reset", "--hard", "-q")
			case 12:
				p.git("mv", name, name+".moved")
			case 13:
				p.git("status")
			case 14:
				p.git("diff", "HEAD")
			case 15:
				p.git("log", "--oneline", "--all", "--decorate")
			case 16:
				p.git("show", "--stat")
			case 17:
				p.git("commit", "--amend", "-qm", fmt.Sprintf("amend %d", s))
			case 18:
				p.git("restore", "--staged", name)
			case 19:
				p.git("reset", "HEAD~1")
			case 20:
				p.git("branch", "-d", br)
			case 21:
				if _, err := os.Stat(filepath.Join(p.real, "d")); err == nil {
					p.gitIn("d", "status", "-s")
				}
			}
		}
		p.git("status", "--porcelain")
		p.git("log", "--all", "--stat", "--format=%h %s %d")
		p.git("branch", "-vv")
	}
}

// syncToBox copies the real side's tree over the sandbox side (for states
// only real git can create, such as merges).
func (p *pair) syncToBox() {
	p.t.Helper()
	entries, _ := os.ReadDir(p.box)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(p.box, e.Name()))
	}
	if out, err := exec.Command("cp", "-a", p.real+"/.", p.box+"/").CombinedOutput(); err != nil {
		p.t.Fatalf("cp: %v %s", err, out)
	}
}

func (p *pair) realGit(args ...string) {
	p.t.Helper()
	if res := p.runReal("", args...); res.code != 0 {
		p.t.Fatalf("real git %v: %s", args, res.err)
	}
}

// TestMergeHistories compares history commands on merges made by real git.
func TestMergeHistories(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.realGit("init", "-q", "-b", "main")
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(p.real, name)), 0o755)
		os.WriteFile(filepath.Join(p.real, name), []byte(content), 0o644)
	}
	write("a", "1\n2\n3\n")
	p.realGit("add", ".")
	p.realGit("commit", "-qm", "base")
	p.realGit("checkout", "-q", "-b", "f1")
	write("b", "b\n")
	p.realGit("add", ".")
	p.realGit("commit", "-qm", "f1 work")
	p.realGit("checkout", "-q", "main")
	write("a", "1\n2\n3\n4\n")
	p.realGit("commit", "-qam", "main work")
	p.realGit("merge", "-q", "--no-edit", "f1")
	p.realGit("checkout", "-q", "-b", "f2", "HEAD~1")
	write("c", "c\n")
	p.realGit("add", ".")
	p.realGit("commit", "-qm", "f2 work")
	p.realGit("checkout", "-q", "main")
	p.realGit("merge", "-q", "--no-edit", "f2")
	write("a", "0\n1\n2\n3\n4\n")
	p.realGit("commit", "-qam", "after merges")
	p.syncToBox()
	p.git("log", "--graph", "--oneline")
	p.git("log", "--graph", "--oneline", "--all")
	p.git("log", "--graph")
	p.git("log", "--oneline")
	p.git("log")
	p.git("log", "--first-parent", "--oneline")
	p.git("log", "--no-merges", "--oneline")
	p.git("log", "--merges", "--format=%h %p %s")
	p.git("log", "--graph", "--stat", "--format=%s")
	p.git("log", "--oneline", "--", "b")
	p.git("blame", "a")
	p.git("rev-list", "--count", "HEAD")
	p.git("status")
}

// TestIgnoreRules compares untracked and ignored listings on random trees
// and .gitignore files.
func TestIgnoreRules(t *testing.T) {
	t.Parallel()
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("BASHBOX_GIT_FUZZ")); err == nil {
		rounds = n
	}
	patterns := []string{"*.log", "build/", "/top.txt", "d*/", "!keep.log", "a/**/z", "**/tmp", "x?", "[ab].c", "sub/*.o",
		"#comment", "", "*.txt", "!d1/", "e/", "\\#hash", "nested/deep/", "*~", "/a/b", "tmp/", "!*.c"}
	files := []string{"top.txt", "a.log", "keep.log", "build/out", "d1/f", "d2/g.log", "a/b/z", "a/z", "a/b/c/z", "tmp/x",
		"q/tmp/y", "xy", "xyz", "a.c", "b.c", "c.c", "sub/m.o", "sub/n.c", "e/f/g", "#hash", "nested/deep/file", "f~",
		"r/s.txt", "r/t/u.log", "d3/e4/f5", "empty/"}
	for round := 0; round < rounds; round++ {
		p := newPair(t)
		r := rand.New(rand.NewSource(int64(round*31 + 7)))
		p.git("init", "-q", "-b", "main")
		for _, f := range files {
			if r.Intn(3) == 0 {
				continue
			}
			if strings.HasSuffix(f, "/") {
				if err := os.MkdirAll(filepath.Join(p.real, f), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(p.box, f), 0o755); err != nil {
					t.Fatal(err)
				}
				continue
			}
			p.write(f, f+"\n")
		}
		var gi []string
		for i := 0; i < 1+r.Intn(5); i++ {
			gi = append(gi, patterns[r.Intn(len(patterns))])
		}
		p.write(".gitignore", strings.Join(gi, "\n")+"\n")
		if r.Intn(2) == 0 {
			p.write("r/.gitignore", patterns[r.Intn(len(patterns))]+"\n")
		}
		if r.Intn(3) == 0 {
			p.git("add", "a.c")
		}
		p.git("status", "--porcelain")
		p.git("status", "--porcelain", "-uall")
		p.git("status", "--porcelain", "--ignored")
		p.git("status", "--porcelain", "--ignored", "-uall")
		p.git("ls-files", "-o", "--exclude-standard")
		p.git("ls-files", "-o", "-i", "--exclude-standard")
		p.git("ls-files", "-o", "--directory", "--exclude-standard")
		p.git("add", "-A", "-n")
		p.git("clean", "-n", "-d")
		p.git("clean", "-n")
		p.git("clean", "-n", "-d", "-x")
		p.git("clean", "-n", "-X")
		p.git("clean", "-n", "-d", "-X")
		var names []string
		for _, f := range files {
			if !strings.HasSuffix(f, "/") {
				names = append(names, f)
			}
		}
		p.git(append([]string{"check-ignore", "-v", "-n"}, names...)...)
	}
}
