//go:build !bashbox_front

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunChangesAndApply(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "old.txt"), []byte("old\n"), 0o644)
	out := filepath.Join(t.TempDir(), "changes.tar")
	_, errs, code := runCLI(t, "", "run", "-v", dir+":/work", "--changes", "tar:/work", "--changes-out", out, "-c", "echo two >> a.txt; rm old.txt; echo n > new.txt; exit 3")
	if code != 3 || errs != "" {
		t.Fatalf("run: %d %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n" {
		t.Fatal("the read-only volume changed")
	}
	stdout, errs, code := runCLI(t, "", "apply", "--dry-run", "-C", dir, out)
	if code != 0 || stdout != "would delete   old.txt\nwould modify   a.txt\nwould add      new.txt\ndry run: 3 changes apply cleanly; nothing was changed\n" {
		t.Fatalf("dry run: %d %q %q", code, stdout, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n" {
		t.Fatal("dry run changed the directory")
	}
	if _, errs, code = runCLI(t, "", "apply", "-q", "-C", dir, out); code != 0 {
		t.Fatalf("apply: %d %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("apply: a.txt %q", b)
	}
	// Applied twice: every entry now conflicts, and nothing changes.
	_, errs, code = runCLI(t, "", "apply", "-C", dir, out)
	if code != 1 || !strings.Contains(errs, "bashbox apply: conflict: a.txt: changed since the change set was made") ||
		!strings.Contains(errs, "bashbox apply: conflict: new.txt: already exists") || !strings.Contains(errs, "nothing was changed") {
		t.Fatalf("re-apply: %d %q", code, errs)
	}
}

func TestRunChangesInJSON(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	stdout, _, code := runCLI(t, "", "run", "-v", dir, "--json", "--changes", "diff", "-c", "echo two >> a.txt")
	var res struct {
		Changes struct {
			Volume, Format, Data string
			Count                int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 0 {
		t.Fatalf("%v %d %s", err, code, stdout)
	}
	if res.Changes.Volume != "/work" || res.Changes.Count != 1 || !strings.Contains(res.Changes.Data, "+two\n") {
		t.Fatalf("%+v", res.Changes)
	}
}

func TestChangesUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cs := filepath.Join(t.TempDir(), "cs.json")
	os.WriteFile(cs, []byte(`[{"path":"../x","op":"deleted","type":"file","old_mode":"100644","old_sha256":"00"}]`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-v", dir, "--changes", "diff", "-c", "true"}, "--changes needs --changes-out FILE or --json"},
		{[]string{"run", "-v", dir, "--changes-out", "x", "-c", "true"}, "--changes-out needs --changes FORMAT"},
		{[]string{"run", "-v", dir, "--changes", "zip", "--json", "-c", "true"}, `unknown change set format "zip"`},
		{[]string{"run", "-v", dir + ":/work:rw", "--changes", "diff", "--json", "-c", "true"}, "volume /work is rw: changes are reported for read-only volumes only"},
		{[]string{"run", "-v", dir, "--changes", "diff:/other", "--json", "-c", "true"}, "no volume is bound at /other"},
		{[]string{"apply", "-C", dir}, "usage: bashbox apply"},
		{[]string{"apply", "-C", dir, "/nonexistent/cs.tar"}, "no such file or directory"},
		{[]string{"apply", "-C", dir, cs}, "malformed change set"},
		{[]string{"apply", "-C", "/nonexistent", cs}, "malformed change set"},
	} {
		_, errs, code := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
}
