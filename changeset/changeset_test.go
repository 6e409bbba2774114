package changeset

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func overlayOn(t testing.TB, dir string) *overlayfs.Overlay {
	t.Helper()
	host, err := overlayfs.NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	return overlayfs.NewOverlay(host, overlayfs.NewMemFs(nil))
}

func put(t testing.TB, o *overlayfs.Overlay, name, content string) {
	t.Helper()
	f, err := o.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(content))
	f.Close()
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// summary renders a set as "op type path[<-old]" lines.
func summary(t testing.TB, o *overlayfs.Overlay) string {
	t.Helper()
	set, err := FromOverlay(o)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range set.Entries {
		l := fmt.Sprintf("%s %s %s", e.Op, e.Type, e.Path)
		if e.OldPath != "" {
			l += " <- " + e.OldPath
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

func TestFromOverlayEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(t *testing.T, o *overlayfs.Overlay)
		want string
	}{
		{"nothing", func(t *testing.T, o *overlayfs.Overlay) {}, ""},
		{"created then deleted", func(t *testing.T, o *overlayfs.Overlay) {
			put(t, o, "/tmp.txt", "x")
			must(t, o.Remove("/tmp.txt"))
		}, ""},
		{"modified then deleted", func(t *testing.T, o *overlayfs.Overlay) {
			put(t, o, "/a.txt", "changed")
			must(t, o.Remove("/a.txt"))
		}, "deleted file a.txt"},
		{"rewritten identical, touched, chmod back", func(t *testing.T, o *overlayfs.Overlay) {
			put(t, o, "/a.txt", "a\n")
			must(t, o.Chmod("/d/b.txt", 0o755))
			must(t, o.Chmod("/d/b.txt", 0o644))
		}, ""},
		{"rename chain", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Rename("/a.txt", "/b.txt"))
			must(t, o.Rename("/b.txt", "/c.txt"))
		}, "renamed file c.txt <- a.txt"},
		{"moved away and replaced is a copy", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Rename("/a.txt", "/b.txt"))
			put(t, o, "/a.txt", "new\n")
		}, "modified file a.txt\nadded file b.txt"},
		{"moved back", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Rename("/a.txt", "/b.txt"))
			must(t, o.Rename("/b.txt", "/a.txt"))
		}, ""},
		{"renamed dir with a modified file and a file moved out", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Rename("/d", "/e"))
			put(t, o, "/e/b.txt", "changed\n")
			must(t, o.Rename("/e/sub/c.txt", "/c.txt"))
		}, "deleted dir d/sub\ndeleted dir d\nrenamed file c.txt <- d/sub/c.txt\nadded dir e\nrenamed file e/b.txt <- d/b.txt\nadded dir e/sub"},
		{"path replaced by a directory", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Remove("/a.txt"))
			must(t, o.Mkdir("/a.txt", 0o755))
			put(t, o, "/a.txt/in", "x")
		}, "deleted file a.txt\nadded dir a.txt\nadded file a.txt/in"},
		{"symlink replaced by a file", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Remove("/link"))
			put(t, o, "/link", "file now")
		}, "deleted symlink link\nadded file link"},
		{"mode only", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Chmod("/a.txt", 0o755))
		}, "mode file a.txt"},
		{"mode of the root", func(t *testing.T, o *overlayfs.Overlay) {
			must(t, o.Chmod("/", 0o700))
		}, "mode dir ."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "d/sub/c.txt": "c\n"})
			os.Symlink("a.txt", filepath.Join(dir, "link"))
			o := overlayOn(t, dir)
			tc.do(t, o)
			if got := summary(t, o); got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// state describes a directory: entries, modes and contents.
func state(t testing.TB, root string) string {
	var lines []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		fi, _ := os.Lstat(p)
		line := fmt.Sprintf("%s %v", rel, fi.Mode())
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			line += " " + sum(b)
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// tarOf makes a change set over a fresh base and returns it with the base.
func tarOf(t *testing.T, do func(o *overlayfs.Overlay)) (*Set, string) {
	t.Helper()
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "gone.txt": "g\n", "d/x.txt": "x\n", "m.txt": "m\n"})
	o := overlayOn(t, base)
	do(o)
	set, err := FromOverlay(o)
	must(t, err)
	out, err := set.Encode(Tar, 0)
	must(t, err)
	data, err := out.Bytes()
	must(t, err)
	loaded, err := Load(bytes.NewReader(data))
	must(t, err)
	return loaded, base
}

func TestApplyRefusesConflicts(t *testing.T) {
	set, base := tarOf(t, func(o *overlayfs.Overlay) {
		put(t, o, "/a.txt", "a changed\n")
		put(t, o, "/new.txt", "new\n")
		must(t, o.Remove("/gone.txt"))
		must(t, o.Rename("/b.txt", "/b2.txt"))
		must(t, o.Remove("/d/x.txt"))
		must(t, o.Remove("/d"))
		must(t, o.Chmod("/m.txt", 0o600))
	})
	// A clean copy takes it.
	clean := t.TempDir()
	writeFiles(t, clean, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "gone.txt": "g\n", "d/x.txt": "x\n", "m.txt": "m\n"})
	if _, err := Apply(clean, set, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(clean, "b2.txt")); string(b) != "b\n" {
		t.Fatalf("rename not applied: %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(clean, "m.txt")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode not applied: %v", fi.Mode())
	}

	for _, tc := range []struct {
		name   string
		change func(dir string)
		want   string
	}{
		{"modified since", func(dir string) { os.WriteFile(filepath.Join(dir, "a.txt"), []byte("theirs\n"), 0o644) }, "a.txt: changed since the change set was made"},
		{"added path taken", func(dir string) { os.WriteFile(filepath.Join(dir, "new.txt"), []byte("other\n"), 0o644) }, "new.txt: already exists"},
		{"deleted already", func(dir string) { os.Remove(filepath.Join(dir, "gone.txt")) }, "gone.txt: no longer exists"},
		{"rename source changed", func(dir string) { os.WriteFile(filepath.Join(dir, "b.txt"), []byte("B\n"), 0o644) }, "b2.txt: renamed from b.txt, which changed since"},
		{"directory gained a file", func(dir string) { os.WriteFile(filepath.Join(dir, "d/extra"), nil, 0o644) }, "d: directory holds d/extra, which the change set does not delete"},
		{"kind changed", func(dir string) { os.Remove(filepath.Join(dir, "m.txt")); os.Mkdir(filepath.Join(dir, "m.txt"), 0o755) }, "m.txt: is now a dir, was a file"},
		{"parent is a symlink", func(dir string) {
			os.RemoveAll(filepath.Join(dir, "d"))
			os.Mkdir(filepath.Join(dir, "elsewhere"), 0o755)
			os.WriteFile(filepath.Join(dir, "elsewhere/x.txt"), []byte("x\n"), 0o644)
			os.Symlink("elsewhere", filepath.Join(dir, "d"))
		}, "d/x.txt: parent d is a symlink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "gone.txt": "g\n", "d/x.txt": "x\n", "m.txt": "m\n"})
			tc.change(dir)
			before := state(t, dir)
			for _, dry := range []bool{true, false} {
				rep, err := Apply(dir, set, dry)
				if !errors.Is(err, ErrConflicts) {
					t.Fatalf("dry %v: err %v, want conflicts", dry, err)
				}
				var msgs []string
				for _, c := range rep.Conflicts {
					msgs = append(msgs, c.Error())
				}
				if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
					t.Fatalf("conflicts %q, want %q", msgs, tc.want)
				}
			}
			if after := state(t, dir); after != before {
				t.Fatalf("a refused change set changed the directory:\n%s\n%s", before, after)
			}
		})
	}
	_ = base
}

// TM-CHG-003
func TestApplyDropsSetuid(t *testing.T) {
	set, base := tarOf(t, func(o *overlayfs.Overlay) {
		put(t, o, "/tool", "#!/bin/sh\n")
		must(t, o.Chmod("/tool", fs.ModeSetuid|fs.ModeSetgid|0o755))
		must(t, o.Chmod("/a.txt", fs.ModeSetuid|0o755))
	})
	if _, err := Apply(base, set, false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tool", "a.txt"} {
		if fi, _ := os.Stat(filepath.Join(base, name)); fi.Mode() != 0o755 {
			t.Errorf("%s: mode %v", name, fi.Mode())
		}
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	set, base := tarOf(t, func(o *overlayfs.Overlay) {
		put(t, o, "/a.txt", "a changed\n")
		must(t, o.Remove("/gone.txt"))
	})
	before := state(t, base)
	rep, err := Apply(base, set, true)
	if err != nil || len(rep.Actions) != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
	if got := rep.Actions[0].String() + "\n" + rep.Actions[1].String(); got != "delete   gone.txt\nmodify   a.txt" {
		t.Fatalf("actions %q", got)
	}
	if state(t, base) != before {
		t.Fatal("dry run changed the directory")
	}
}

// TM-CHG-001: a change set is the script's output; applying it must not
// reach outside the target directory.
func TestLoadRefusesHostileSets(t *testing.T) {
	empty := sum(nil)
	for name, js := range map[string]string{
		"traversal":     `[{"path":"../escape","op":"added","type":"file","new_mode":"100644","size":0,"sha256":"` + empty + `"}]`,
		"absolute":      `[{"path":"/etc/passwd","op":"added","type":"file","new_mode":"100644","size":0,"sha256":"` + empty + `"}]`,
		"unclean":       `[{"path":"a/../../x","op":"added","type":"file","new_mode":"100644","size":0,"sha256":"` + empty + `"}]`,
		"rename source": `[{"path":"x","old_path":"../y","op":"renamed","type":"file","old_mode":"100644","new_mode":"100644","size":0,"sha256":"` + empty + `","old_sha256":"` + empty + `"}]`,
		"bad hash":      `[{"path":"x","op":"added","type":"file","new_mode":"100644","size":1,"sha256":"` + empty + `","data":"eA=="}]`,
		"unknown op":    `[{"path":"x","op":"chown","type":"file"}]`,
		"truncated":     `[{"op":"truncated","omitted":3}]`,
		"no base hash":  `[{"path":"x","op":"deleted","type":"file","old_mode":"100644","size":0}]`,
	} {
		if _, err := Load(strings.NewReader(js)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := Load(strings.NewReader("diff --git a/x b/x\n")); err == nil || !strings.Contains(err.Error(), "git apply") {
		t.Errorf("diff input: %v", err)
	}
	// A symlink planted by the set cannot carry a later file outside.
	outside := t.TempDir()
	dir := t.TempDir()
	js := `[{"path":"l","op":"added","type":"symlink","new_mode":"120000","size":` + fmt.Sprint(len(outside)) + `,"sha256":"` + sum([]byte(outside)) + `","target":"` + outside + `"},` +
		`{"path":"l/pwned","op":"added","type":"file","new_mode":"100644","size":0,"sha256":"` + empty + `"}]`
	set, err := Load(strings.NewReader(js))
	must(t, err)
	Apply(dir, set, false)
	if _, err := os.Stat(filepath.Join(outside, "pwned")); err == nil {
		t.Fatal("apply wrote through a symlink it planted")
	}
}

func TestEncodeTruncatesWithMarker(t *testing.T) {
	base := t.TempDir()
	o := overlayOn(t, base)
	for i := range 50 {
		put(t, o, fmt.Sprintf("/f%02d.txt", i), strings.Repeat("x", 100)+"\n")
	}
	set, err := FromOverlay(o)
	must(t, err)
	for _, f := range []Format{Diff, JSON, Tar} {
		out, err := set.Encode(f, 4000)
		must(t, err)
		data, err := out.Bytes()
		must(t, err)
		if !out.Truncated || out.Omitted == 0 || out.Count+out.Omitted != 50 || len(data) > 4000+1024 {
			t.Fatalf("%s: truncated %v count %d omitted %d size %d", f, out.Truncated, out.Count, out.Omitted, len(data))
		}
		switch f {
		case Diff:
			if !bytes.Contains(data, []byte(fmt.Sprintf("# bashbox: change set truncated: %d more changes omitted", out.Omitted))) {
				t.Fatalf("no marker:\n%s", data)
			}
		default:
			if _, err := Load(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), "truncated") {
				t.Fatalf("%s: a truncated set loaded: %v", f, err)
			}
		}
	}
}

func TestBase85MatchesGit(t *testing.T) {
	// git diff --binary writes the zlib stream of an empty file (78 01 03
	// 00 00 00 00 01) as the line "HcmV?d00001".
	if got := encode85([]byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}); got != "cmV?d00001" {
		t.Fatalf("got %q", got)
	}
	var b strings.Builder
	writeBinaryLiteral(&b, bytes.Repeat([]byte{0, 1, 2, 255}, 40))
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "literal 160" || lines[len(lines)-1] != "" || lines[len(lines)-2] != "" {
		t.Fatalf("literal framing: %q", b.String())
	}
}

// TestDiffHunksApplyWithGit feeds random edits of random texts to git
// apply: the hunks (context, merging, empty sides, missing final newlines)
// must reproduce the new text exactly.
func TestDiffHunksApplyWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(40) {
			fmt.Fprintf(&b, "line %d\n", rng.IntN(8)) // repeats make the diff ambiguous
		}
		s := b.String()
		if s != "" && rng.IntN(3) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}
	dir := t.TempDir()
	var patch strings.Builder
	want := map[string]string{}
	for i := range 200 {
		name := fmt.Sprintf("f%03d", i)
		old, new := text(), text()
		if rng.IntN(2) == 0 && old != "" { // a small edit of old
			lines := strings.SplitAfter(old, "\n")
			k := rng.IntN(len(lines))
			lines[k] = "edited\n"
			new = strings.Join(lines, "")
		}
		os.WriteFile(filepath.Join(dir, name), []byte(old), 0o644)
		want[name] = new
		e := Entry{Path: name, Op: OpModified, Type: TypeFile, OldMode: "100644", NewMode: "100644", old: []byte(old), new: []byte(new)}
		if old == new {
			continue
		}
		d, _ := gitDiff(&e)
		patch.WriteString(d)
	}
	cmd := exec.Command("git", "apply", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(patch.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v %s", err, out)
	}
	for name, w := range want {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != w {
			t.Fatalf("%s: got %q want %q", name, got, w)
		}
	}
}
