package stat

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

const setup = `
mkdir -p d/sub
printf 'hello\n' > f
printf '%5000s' x > big
: > empty
printf '#!/bin/sh\n' > run; chmod 4755 run
chmod 1777 d/sub
ln -s f link; ln -s nowhere broken
touch "it's" 'a b'
touch -d '2024-01-02 03:04:05.123456789' f big empty run d d/sub "it's" 'a b'
`

func TestAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"stat", "-c", "%n|%s|%b|%B|%f|%F|%a|%A|%h|%o|%y|%Y", "f", "big", "empty", "run", "d", "d/sub"},
		{"stat", "-c", "%N", "f", "link", "broken", "it's", "a b"},
		{"stat", "-L", "-c", "%N|%F|%s", "link"},
		{"stat", "-c", "%F", "link", "broken"},
		{"stat", "-c", "%10s|%-10s|%010s|%.3y|%.9Y|%.3Y|%5a|%#a|%#f|%+5s|%.Y|%-8n|", "f"},
		{"stat", "--printf", `%n\t%s\n\x41\101\\%%\n`, "f"},
		{"stat", "--format=%s", "f", "nope", "big"},
		{"stat", "nope"},
		{"stat"},
		{"stat", "-c"},
		{"stat", "--frob", "f"},
		{"stat", "-c", "%Q|%%|%5%", "f"},
		{"stat", "-L", "broken"},
		{"stat", "-c", "%A %a", "link"},
		{"stat", "--cached=al", "-c", "%n", "f"}, // argmatch: a prefix will do
		{"stat", "--cached=", "f"},
		{"stat", "--cached=sometimes", "f"},
		{"stat", "-c", "%N", "it's\ttab"},
	}
	for _, args := range cases {
		gnutest.Compare(t, "", Run, setup, args...)
	}
	env := append(cmdtest.HostDiffEnv, "TZ=Asia/Tokyo")
	gnutest.CompareEnv(t, "tz", env, Run, setup, "stat", "-c", "%y", "f")
	env = append(cmdtest.HostDiffEnv, "TZ=EST5EDT")
	gnutest.CompareEnv(t, "tz", env, Run, setup, "stat", "-c", "%y", "f")
	env = append(cmdtest.HostDiffEnv, "QUOTING_STYLE=c")
	gnutest.CompareEnv(t, "quoting", env, Run, setup, "stat", "-c", "%N", "link", "it's")
}

func TestDefaultFormat(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "hello\n", "d/x": "", "l": "->f"}, Env: []string{"TZ=UTC"}}
	fsys := env.NewFS()
	r := env.RunIn(fsys, Run, "stat", "f")
	lines := strings.Split(r.Stdout, "\n")
	if r.Code != 0 || len(lines) != 9 {
		t.Fatalf("stat f: %d %q", r.Code, r.Stdout)
	}
	want := []string{
		"  File: f",
		"  Size: 6         \tBlocks: 8          IO Block: 4096   regular file",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: got %q want %q", i, lines[i], w)
		}
	}
	if !strings.HasPrefix(lines[3], "Access: (0666/-rw-rw-rw-)  Uid: ( 1000/    user)   Gid: ( 1000/    user)") {
		t.Errorf("access line: %q", lines[3])
	}
	if lines[7] != " Birth: -" {
		t.Errorf("birth line: %q", lines[7])
	}
	r = env.RunIn(fsys, Run, "stat", "l")
	if !strings.HasPrefix(r.Stdout, "  File: l -> f\n  Size: 1         \tBlocks: 0          IO Block: 4096   symbolic link\n") {
		t.Errorf("stat l: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "stat", "/dev/null")
	if !strings.Contains(r.Stdout, "character special file\n") || !strings.Contains(r.Stdout, "Links: 1     Device type: 1,3\n") || !strings.Contains(r.Stdout, "Uid: (    0/    root)") {
		t.Errorf("stat /dev/null: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "stat", "-t", "d")
	if f := strings.Fields(r.Stdout); len(f) != 16 || f[0] != "d" || f[1] != "4096" || f[3] != "41ed" || f[4] != "1000" {
		t.Errorf("stat -t d: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "stat", "-c", "%U:%G %u:%g %h %m", "d", "/tmp", "/")
	if r.Stdout != "user:user 1000:1000 2 /work\nroot:root 0:0 2 /\nroot:root 0:0 8 /\n" {
		t.Errorf("owners: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "stat", "-f", "-c", "%T %s %S", "/work", "/tmp")
	if r.Stdout != "tmpfs 4096 4096\ntmpfs 4096 4096\n" {
		t.Errorf("stat -f: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "stat", "-f", "nope")
	if r.Code != 1 || r.Stderr != "stat: cannot read file system information for 'nope': No such file or directory\n" {
		t.Errorf("stat -f nope: %d %q", r.Code, r.Stderr)
	}
	if r := env.RunIn(fsys, Run, "stat", "-c", "%i", "f"); r.Stdout != env.RunIn(fsys, Run, "stat", "-c", "%i", "/work/f").Stdout {
		t.Errorf("inode numbers differ between paths")
	}
	r = (&cmdtest.Env{Files: map[string]string{"f": ""}, Env: []string{"USER=alice"}}).Run(Run, "stat", "-c", "%U %G", "f")
	if r.Stdout != "alice alice\n" {
		t.Errorf("USER: %q", r.Stdout)
	}
}
