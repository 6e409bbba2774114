package fallback_test

import (
	"context"
	"io"
	"log/slog"
	"os/exec"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/volumes"
)

// BenchmarkFallbackGitStatus measures the per-call cost of confinement:
// `git status` through a fallback, confined (bubblewrap, Landlock,
// seccomp, plus the confined repository check) against unconfined (no OS
// sandbox, same argument and repository checks), with host git alone for
// reference. The figures are in README.md.
func BenchmarkFallbackGitStatus(b *testing.B) {
	dir := repoB(b)
	for _, c := range []struct {
		name    string
		backend hostsandbox.Backend
	}{
		{"confined", hostsandbox.Select(hostsandbox.Policy{})},
		{"unconfined", hostsandbox.Select(hostsandbox.Policy{Sandbox: "none", AllowNoSandbox: true})},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "confined" && !hostsandbox.Confining(c.backend) {
				b.Fatal("no OS sandbox on this machine")
			}
			r, err := fallback.New(fallback.Config{Commands: []string{"git"}, Backend: c.backend, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				b.Fatal(err)
			}
			box, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}, Fallback: r.Run})
			if err != nil {
				b.Fatal(err)
			}
			defer box.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := box.Run(context.Background(), bashbox.Request{Script: "git status --short"})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
	b.Run("host git", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command("git", "status", "--short")
			cmd.Dir = dir
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func repoB(b *testing.B) string {
	dir := b.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "--allow-empty", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}
