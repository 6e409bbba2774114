package bashbox_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/changeset"
	"github.com/bashbox/bashbox/volumes"
)

// changesRepo makes a real git repository with one of each kind of entry
// the edge cases below need, committed.
func changesRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"greet.txt":           "hello\nworld\n",
		"mod_then_del.txt":    "doomed\n",
		"pkg/a.go":            "package pkg\n\nfunc A() {}\n",
		"pkg/b.go":            "package pkg\n",
		"pkg/sub/c.go":        "package sub\n",
		"script.sh":           "#!/bin/sh\necho hi\n",
		"exe.sh":              "#!/bin/sh\n",
		"empty_old.txt":       "",
		"to_empty.txt":        "was not empty\n",
		"nonl.txt":            "ends with newline\n",
		"tail.txt":            "no newline at end",
		"old.bin":             "\x00\x01\x02\x03binary\x00",
		"bin_gone.bin":        "\x00gone",
		"old name.txt":        "name with a space\n",
		"file_to_dir":         "a file, for now\n",
		"dir_to_file/x.txt":   "in a dir that becomes a file\n",
		"deleted.txt":         "deleted\n",
		"gone_dir/one.txt":    "1\n",
		"gone_dir/deep/2.txt": "2\n",
		"plain.txt":           "moved unchanged\n",
		"big.txt":             strings.Repeat("line of text\n", 200),
		"over_src.txt":        "moved over another\n",
		"over_dst.txt":        "replaced by a move\n",
		"dir_to_link/f.txt":   "in a dir that becomes a symlink\n",
		"img.bin":             "\x00\x01image\x00data",
		"part/keep.txt":       "kept through a rename\n",
		"part/deep/k.txt":     "deeper\n",
	}
	writeFiles(t, dir, files)
	os.Chmod(filepath.Join(dir, "exe.sh"), 0o755)
	os.Symlink("greet.txt", filepath.Join(dir, "link_to_greet"))
	os.Symlink("greet.txt", filepath.Join(dir, "oldlink"))
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// edgeScript attacks the change set with every case the issue names.
const edgeScript = `set -e
sed -i 's/hello/goodbye/' greet.txt
echo more >> mod_then_del.txt; rm mod_then_del.txt
echo tmp > created.txt; rm created.txt
mv pkg lib; echo '// changed' >> lib/a.go; echo 'package sub // new' > lib/sub/new.go
rm link_to_greet; echo 'now a file' > link_to_greet
chmod +x script.sh
chmod -x exe.sh
: > empty_new.txt
: > to_empty.txt
rm empty_old.txt
printf 'no newline now' > nonl.txt
printf '\nnow it has one\n' >> tail.txt
printf '\000\001\002binary\377' > new.bin
printf '\000more' >> old.bin
rm bin_gone.bin
echo hi > 'with space.txt'
echo u > 'café.txt'
echo q > 'quo"te.txt'
echo b > 'back\slash.txt'
mv 'old name.txt' 'new name.txt'
rm file_to_dir; mkdir file_to_dir; echo inner > file_to_dir/inner.txt
rm -r dir_to_file; echo 'a file now' > dir_to_file
ln -s greet.txt newlink
ln -sfn plain_moved.txt oldlink
rm deleted.txt; rm -r gone_dir
mv plain.txt plain_moved.txt
sed -i '100s/.*/changed line 100/' big.txt
mkdir -p newdir/deeper; echo deep > newdir/deeper/f.txt
mv over_src.txt over_dst.txt
rm -r dir_to_link; ln -s newdir dir_to_link
mv oldlink movedlink
echo nl > $'new\nline.txt'; echo tab > $'tab\there.txt'
mkdir -p tools; printf '#!/bin/sh\n' > tools/run.sh; chmod 755 tools/run.sh
mv img.bin img2.bin; printf '\000' >> img2.bin
echo extra > part/extra.txt; mv part moved_part
`

// treeState describes a directory for comparison: every entry with its
// type, permission bits and content (or target). .git is left out, and so
// are empty directories when withEmptyDirs is false (git records none).
func treeState(t *testing.T, root string, withEmptyDirs bool) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		if rel == "." {
			return nil
		}
		fi, _ := os.Lstat(p)
		switch {
		case fi.IsDir():
			if !withEmptyDirs {
				return nil
			}
			lines = append(lines, fmt.Sprintf("%s/ %v", rel, fi.Mode()))
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, fmt.Sprintf("%s -> %s", rel, target))
		default:
			data, _ := os.ReadFile(p)
			lines = append(lines, fmt.Sprintf("%s %v %x", rel, fi.Mode(), sha256.Sum256(data)))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-a", src+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return dst
}

// bashOn runs the script with the real bash on a writable copy of dir.
func bashOn(t *testing.T, dir, script string) string {
	t.Helper()
	want := copyTree(t, dir)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = want
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return want
}

func changesOf(t *testing.T, dir, script string, format changeset.Format) *changeset.Output {
	t.Helper()
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}}})
	before := treeState(t, dir, true)
	res, err := b.Run(context.Background(), bashbox.Request{Script: script, Changes: &bashbox.ChangesRequest{Format: format}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("script failed in bashbox: %d %s", res.ExitCode, res.Stderr)
	}
	if after := treeState(t, dir, true); after != before {
		t.Fatal("the read-only volume changed")
	}
	if res.Changes == nil || res.Changes.Error != "" || res.Changes.Truncated {
		t.Fatalf("changes: %+v", res.Changes)
	}
	return res.Changes
}

func changeBytes(t *testing.T, out *changeset.Output) []byte {
	t.Helper()
	b, err := out.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestChangesDiffAppliesWithGitApply(t *testing.T) {
	repo := changesRepo(t)
	want := treeState(t, bashOn(t, repo, edgeScript), false)
	out := changesOf(t, repo, edgeScript, changeset.Diff)
	patch := filepath.Join(t.TempDir(), "changes.diff")
	os.WriteFile(patch, changeBytes(t, out), 0o644)

	clean := copyTree(t, repo)
	git(t, clean, "apply", "--check", patch)
	git(t, clean, "apply", patch)
	if got := treeState(t, clean, false); got != want {
		t.Fatalf("git apply result differs from bash's:\n%s\n--- patch:\n%s", lineDiff(want, got), out.Data)
	}
	// The patch also reverses cleanly.
	git(t, clean, "apply", "-R", patch)
	if got, base := treeState(t, clean, false), treeState(t, repo, false); got != base {
		t.Fatalf("git apply -R did not restore the base:\n%s", lineDiff(base, got))
	}
	// And it reads as git's own diff does: the entries git status lists.
	for _, name := range []string{`caf\303\251.txt"`, `quo\"te.txt"`, `"b/with space.txt"`, `rename from "old name.txt"`, "GIT binary patch", `\ No newline at end of file`, "new file mode 120000", "deleted file mode 120000", "old mode 100644\nnew mode 100755"} {
		if !strings.Contains(out.Data, name) {
			t.Errorf("patch lacks %q", name)
		}
	}
}

func TestChangesDiffAppliesWithPatch(t *testing.T) {
	repo := changesRepo(t)
	// GNU patch applies no git binary patch, and it defers removals to
	// the end, so it cannot turn a file into a directory or back in one
	// pass: the script leaves those cases out.
	script := strings.Join(filterLines(edgeScript, "bin", "_to_", "line.txt"), "\n")
	want := treeState(t, bashOn(t, repo, script), false)
	out := changesOf(t, repo, script, changeset.Diff)
	clean := copyTree(t, repo)
	cmd := exec.Command("patch", "-p1", "-s", "-f")
	cmd.Dir = clean
	cmd.Stdin = strings.NewReader(out.Data)
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch -p1: %v\n%s\n--- patch:\n%s", err, o, out.Data)
	}
	if got := treeState(t, clean, false); got != want {
		t.Fatalf("patch -p1 result differs from bash's:\n%s", lineDiff(want, got))
	}
}

func filterLines(s string, without ...string) []string {
	var out []string
lines:
	for _, l := range strings.Split(s, "\n") {
		for _, w := range without {
			if strings.Contains(l, w) {
				continue lines
			}
		}
		out = append(out, l)
	}
	return out
}

func TestChangesTarAppliesWithBashboxApply(t *testing.T) {
	repo := changesRepo(t)
	// The tar format carries what a git diff cannot: exact modes and
	// empty directories.
	script := edgeScript + "chmod 600 greet.txt; mkdir -p emptydir; chmod 700 newdir\n"
	want := treeState(t, bashOn(t, repo, script), true)
	for _, format := range []changeset.Format{changeset.Tar, changeset.JSON} {
		out := changesOf(t, repo, script, format)
		set, err := changeset.Load(bytes.NewReader(changeBytes(t, out)))
		if err != nil {
			t.Fatal(err)
		}
		clean := copyTree(t, repo)
		if _, err := changeset.Apply(clean, set, false); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if got := treeState(t, clean, true); got != want {
			t.Fatalf("%s: bashbox apply result differs from bash's:\n%s", format, lineDiff(want, got))
		}
	}
}

// lineDiff lists the lines only one of two states has.
func lineDiff(want, got string) string {
	w, g := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
	}
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

func TestSessionChangesAccumulate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/src", Mode: volumes.ReadOnly}}})
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, _ := s.Run(ctx, bashbox.Request{Script: "echo b > b.txt; cd /tmp"})
	if res.Changes != nil {
		t.Fatal("changes computed without being asked for")
	}
	s.Run(ctx, bashbox.Request{Script: "mv /src/a.txt /src/c.txt"})
	out, err := s.Changes(bashbox.ChangesRequest{Format: changeset.JSON, Volume: "/src"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 2 || !strings.Contains(out.Data, `"path":"b.txt","op":"added"`) || !strings.Contains(out.Data, `"path":"c.txt","op":"renamed","type":"file","old_path":"a.txt"`) {
		t.Fatalf("%+v", out)
	}
	if _, err := s.Changes(bashbox.ChangesRequest{Format: "zip"}); err == nil {
		t.Fatal("bad format accepted")
	}
	// A stateless call starts from a clean overlay.
	res, _ = b.Run(ctx, bashbox.Request{Script: "true", Changes: &bashbox.ChangesRequest{Format: changeset.Diff}})
	if res.Changes == nil || res.Changes.Count != 0 || res.Changes.Data != "" {
		t.Fatalf("%+v", res.Changes)
	}
}

func TestChangesBoundedByOutputBudget(t *testing.T) {
	dir := t.TempDir()
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, Mode: volumes.ReadOnly}}, Limits: bashbox.Limits{MaxOutputBytes: 2000}})
	res, err := b.Run(context.Background(), bashbox.Request{Script: `for i in $(seq 100); do echo "file $i" > f$i.txt; done`, Changes: &bashbox.ChangesRequest{Format: changeset.Diff}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Changes
	if !c.Truncated || c.Count+c.Omitted != 100 || len(c.Data) > 2000 || !strings.HasSuffix(c.Data, fmt.Sprintf("# bashbox: change set truncated: %d more changes omitted (output budget 2000 bytes)\n", c.Omitted)) {
		t.Fatalf("count %d omitted %d len %d\n%s", c.Count, c.Omitted, len(c.Data), c.Data)
	}
	// What was kept still applies.
	clean := t.TempDir()
	patch := filepath.Join(t.TempDir(), "p.diff")
	os.WriteFile(patch, []byte(c.Data), 0o644)
	git(t, clean, "apply", patch)
}

// Change sets of concurrent calls over one volume are each the call's own.
func TestConcurrentChangeSets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "shared.txt"), []byte("base\n"), 0o644)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, Mode: volumes.ReadOnly}}})
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := b.Run(context.Background(), bashbox.Request{
				Script:  fmt.Sprintf("echo %d >> shared.txt; mkdir d%d; echo x > d%d/f; mv d%d e%d", i, i, i, i, i),
				Changes: &bashbox.ChangesRequest{Format: changeset.JSON},
			})
			if err != nil {
				errs <- err.Error()
				return
			}
			want := fmt.Sprintf(`"path":"e%d/f","op":"added"`, i)
			if res.Changes.Count != 3 || !strings.Contains(res.Changes.Data, want) || strings.Contains(res.Changes.Data, fmt.Sprintf("e%d/", (i+1)%16)) {
				errs <- fmt.Sprintf("call %d: %+v", i, res.Changes)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
