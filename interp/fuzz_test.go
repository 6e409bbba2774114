package interp_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

func digest(root string) string {
	var lines []string
	filepath.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		line := fmt.Sprintf("%s %v %d", p, info.Mode(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// FuzzScript runs arbitrary script text with tight budgets over a
// read-only temp volume: nothing may panic the host, the volume must stay
// identical, and nothing may appear around it.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		"echo hi", "cat <(echo x) > /tmp/y", "for i in 1 2; do echo $i; done | sort", "x=$$; eval 'echo $x'",
		"rm -rf / ; echo > ../../escape", "ln -s /etc/passwd p; cat p", "f() { f; }; f", "while :; do :; done",
		"cd ..; cd ..; ls -la", "exec 3>x; echo >&3", "source /etc/profile", "trap 'echo $PPID' EXIT",
		"((", "${x", "case", "a=(1 2 3); echo ${a[@]:1}", "printf '%q' \"$(yes | head -c 10)\"",
		"declare -A m=([a]=1); echo ${!m[@]} ${m[@]@K}", "f() { local -n r=$1; r=2; }; f x; echo $x", "set -eu; x=${y:-1}",
		"exec 3>&1; echo hi >&3; exec 3>&-", "coproc cat; echo x >&${COPROC[1]}", "echo {1..3}{a,b} ${#x} ${x/#a/b}",
	} {
		f.Add(s)
	}
	parent := f.TempDir()
	dir := filepath.Join(parent, "vol")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "file.txt"), []byte("content\n"), 0o644)
	os.Symlink("../outside", filepath.Join(dir, "out-link"))
	before := digest(parent)
	box, err := bashbox.New(bashbox.Config{
		Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}},
		Limits: bashbox.Limits{Timeout: 200 * time.Millisecond, MaxCommands: 200, MaxLoopIterations: 200,
			MaxOutputBytes: 1 << 14, MaxMemoryBytes: 1 << 22, MaxOverlayBytes: 1 << 20, MaxOverlayFiles: 200},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, script string) {
		res, err := box.Run(context.Background(), bashbox.Request{Script: script})
		if err != nil {
			t.Fatal(err)
		}
		// A recovered panic is still a bug of the engine.
		if strings.Contains(res.Stderr, "internal error") {
			t.Fatalf("script %q panicked: %s", script, res.Stderr)
		}
		if after := digest(parent); after != before {
			t.Fatalf("script %q changed the host:\n%s", script, after)
		}
	})
}
