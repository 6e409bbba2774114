//go:build !bashbox_front

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDoctorReportsFallbackConfinement: doctor says whether fallback
// commands can run confined (here: bubblewrap, which CI installs).
func TestDoctorReportsFallbackConfinement(t *testing.T) {
	out, errs, code := runCLI(t, "", "doctor")
	if code != 0 || !strings.Contains(out, "fallback commands: confined") {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errs)
	}
	for _, name := range []string{"sandbox-exec", "appcontainer"} {
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, name) && !strings.Contains(line, "EXPERIMENTAL") {
				t.Errorf("%s not marked experimental: %q", name, line)
			}
		}
	}
}

// TestRunFallbackNetFlag: --fallback-net names commands that must be
// fallbacks; a fallback git runs confined and matches host git.
func TestRunFallbackNetFlag(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	_, errs, code := runCLI(t, "", "run", "--fallback", "git", "--fallback-net", "gh", "-c", "true")
	if code != 2 || !strings.Contains(errs, `fallback network for "gh": not a fallback command`) {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	out, errs, code := runCLI(t, "", "run", "--fallback", "git", "--fallback-net", "git", "-v", dir+":/work:rw", "-c", "touch new; git status --short; git log --oneline | wc -l")
	if code != 0 || out != "?? new\n1\n" {
		t.Fatalf("exit %d out %q err %q", code, out, errs)
	}
}
