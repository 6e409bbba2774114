package fallback_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/volumes"
)

// TestFallbackPathArgumentsStayInVolumes: options and operands naming
// files must name files in the volumes (read-write ones for output); the
// refusal names the option. Absolute guest paths are mapped to the host
// paths the sandbox shows, so they work as the script means them.
func TestFallbackPathArgumentsStayInVolumes(t *testing.T) {
	backend := requireConfinement(t)
	dir := repo(t)
	ro := t.TempDir()
	os.WriteFile(filepath.Join(ro, "notes.txt"), []byte("from ro\n"), 0o644)
	var log bytes.Buffer
	r, err := fallback.New(fallback.Config{Commands: []string{"git", "gh"}, Backend: backend,
		LookPath: func(name string) (string, error) {
			if name == "gh" {
				return "/bin/true", nil // only the argument layer is under test
			}
			return "/usr/bin/git", nil
		},
		Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	b, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{
		{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite},
		{HostDir: ro, GuestPath: "/ro", Mode: volumes.ReadOnly},
		{GuestPath: "/scratch", Mode: volumes.Ephemeral},
	}, Fallback: r.Run})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	run := func(script string) *bashbox.Result {
		res, err := b.Run(context.Background(), bashbox.Request{Script: script})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, c := range []struct{ script, option string }{
		{"git archive -o /etc/x.tar HEAD", "option -o: /etc/x.tar is outside the volumes"},
		{"git archive --output=../../x.tar HEAD", "option --output: ../../x.tar is outside the volumes"},
		{"git archive -o /ro/x.tar HEAD", "option -o: /ro/x.tar is not in a read-write volume"},
		{"git archive -o /scratch/x.tar HEAD", "option -o: /scratch/x.tar is outside the volumes"},
		{"git bundle create /tmp/x.bundle HEAD", "git bundle create /tmp/x.bundle (operand): /tmp/x.bundle is outside the volumes"},
		{"git format-patch --output-directory=/x -1", "option --output-directory: /x is outside the volumes"},
		{"git log --output /x", "option --output: /x is outside the volumes"},
		{"git init -q /elsewhere", "git init /elsewhere (operand)"},
		{"git worktree add -b b /x/wt", "git worktree add /x/wt (operand)"},
		{"git clone -q --depth 1 https://example.com/r.git /x", "git clone /x (operand)"},
		{"git blame --contents=/etc/passwd a.txt", "option --contents: /etc/passwd is outside the volumes"},
		{"git diff --no-index /etc/passwd a.txt", "git diff /etc/passwd (operand)"},
		{"git hash-object -w /etc/passwd", "git hash-object /etc/passwd (operand)"},
		{"git commit -F/etc/passwd", "option -F: /etc/passwd is outside the volumes"},
		{"git tag -a v1 --file /etc/passwd", "option --file: /etc/passwd is outside the volumes"},
		{"git add --pathspec-from-file=/etc/passwd", "option --pathspec-from-file: /etc/passwd is outside the volumes"},
		{"git grep --open-files-in-pager=vi one", "option --open-files-in-pager is not allowed"},
		{"git grep -Ovi one", "option -Ovi is not allowed"},
		{"git bisect run true", "'git bisect run' is not allowed"},
		{"gh gist create /etc/passwd", "gh gist create /etc/passwd (operand): /etc/passwd is outside the volumes"},
		{"gh api repos/x/y -F body=@/etc/passwd", "option -F: /etc/passwd is outside the volumes"},
		{"gh api repos/x/y --field=body=@/etc/passwd", "option --field: /etc/passwd is outside the volumes"},
		{"gh api repos/x/y --input /etc/passwd", "option --input: /etc/passwd is outside the volumes"},
		{"gh issue create --body-file /etc/passwd", "option --body-file: /etc/passwd is outside the volumes"},
		{"gh release upload v1 /etc/passwd", "gh release upload /etc/passwd (operand)"},
		{"gh repo clone o/r /elsewhere", "gh repo clone /elsewhere (operand)"},
	} {
		res := run(c.script)
		if res.ExitCode != 126 || !strings.Contains(res.Stderr, c.option) {
			t.Errorf("%s: exit %d stderr %q, want a refusal with %q", c.script, res.ExitCode, res.Stderr, c.option)
		}
	}
	// Inside the volumes: relative, absolute guest and read-only inputs.
	res := run("git archive -o /work/abs.tar HEAD && git archive --output=rel.tar HEAD && git hash-object /ro/notes.txt && gh api x -F a=@/ro/notes.txt && gh gist create a.txt && echo ok")
	if res.ExitCode != 0 || !strings.HasSuffix(res.Stdout, "ok\n") {
		t.Fatalf("paths inside the volumes: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	for _, f := range []string{"abs.tar", "rel.tar"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written into the volume: %v", f, err)
		}
	}
}
