package awk_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bashbox/bashbox"
)

// TestNoHostProcess runs awk in a real box with canary programs named
// like the commands on the host PATH: system(), "cmd" | getline and
// print | "cmd" must run the sandbox's commands, never a host process.
func TestNoHostProcess(t *testing.T) {
	dir := t.TempDir()
	canary := filepath.Join(dir, "ran")
	for _, name := range []string{"sh", "bash", "echo", "cat", "canarycmd"} {
		script := "#!/bin/sh\necho host >> " + canary + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	box, err := bashbox.New(bashbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	res, err := box.Run(context.Background(), bashbox.Request{Script: `awk 'BEGIN {
		r = system("echo sys; exit 4")
		"echo piped" | getline x
		print x, r
		print "to read" | "read l; echo got $l"
		close("read l; echo got $l")
		print system("canarycmd")
		print ENVIRON["PATH"] != "` + dir + `" 
	}'`})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sys\npiped 4\ngot to read\n127\n1\n"; res.Stdout != want {
		t.Errorf("stdout %q, want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("a host process ran")
	}
}
