package tree

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

const setup = `
mkdir -p d1/sub d2 .hid e/f/g
printf x > a.txt; printf '#!/bin/sh\n' > run.sh; chmod +x run.sh
touch d1/b d1/sub/c .dot 'sp ace' $'t\tb' 'q"t' B _x 10 9
printf '%5000s' y > big
ln -s a.txt ln; ln -s nowhere br; ln -s d1 dl
touch -d '2024-01-02 03:04:05' a.txt run.sh d1/b d1/sub/c .dot 'sp ace' $'t\tb' 'q"t' B _x 10 9 big d1/sub d1 d2 e/f/g e/f e
touch -d '2023-05-06 07:08:09' 9
`

func TestAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"tree"},
		{"tree", "-a"},
		{"tree", "-L", "1"},
		{"tree", "-aL", "1"},
		{"tree", "-d"},
		{"tree", "-I", "*.txt|d2"},
		{"tree", "-I", "d*", "-I", "b*"},
		{"tree", "-P", "*.txt"},
		{"tree", "-P", "*.txt", "--prune"},
		{"tree", "-P", "d*", "--matchdirs"},
		{"tree", "--noreport"},
		{"tree", "-f"},
		{"tree", "-F"},
		{"tree", "--dirsfirst"},
		{"tree", "--filesfirst"},
		{"tree", "-n"},
		{"tree", "d1", "d2"},
		{"tree", "nope"},
		{"tree", "a.txt"},
		{"tree", "d1", "nope"},
		{"tree", "-i", "d1"},
		{"tree", "--charset=ascii"},
		{"tree", "--charset", "ascii", "-L", "2"},
		{"tree", "-q"},
		{"tree", "-N"},
		{"tree", "-Q", "d1"},
		{"tree", "-p", "d1"},
		{"tree", "-s", "d1"},
		{"tree", "-h", "."},
		{"tree", "--si", "."},
		{"tree", "-D", "d1"},
		{"tree", "-ph", "--timefmt", "%Y", "d1"},
		{"tree", "-t"},
		{"tree", "-r"},
		{"tree", "-v"},
		{"tree", "--sort=size"},
		{"tree", "--sort", "name", "-r"},
		{"tree", "--sort=foo"},
		{"tree", "--frob"},
		{"tree", "-y"},
		{"tree", "-L"},
		{"tree", "-L", "0"},
		{"tree", "-L", "x"},
		{"tree", "-l"},
		{"tree", "--ignore-case", "-I", "A*"},
		{"tree", "--filelimit", "1"},
		{"tree", "-d", "d1/sub"},
		{"tree", "e"},
		{"tree", "-d", "e"},
		{"tree", "d2"},
		{"tree", "--", "d1"},
		{"tree", "-x", "d1"},
		{"tree", "-U", "d1/sub"},
	}
	for _, args := range cases {
		gnutest.Compare(t, "", Run, setup, args...)
	}
	gnutest.CompareEnv(t, "ascii locale", append(cmdtest.HostDiffEnv[1:], "LANG=C"), Run, setup, "tree", "d1")
	gnutest.CompareEnv(t, "color", append(cmdtest.HostDiffEnv, "TERM=xterm"), Run, setup, "tree", "-C")
	gnutest.CompareEnv(t, "no term", cmdtest.HostDiffEnv, Run, setup, "tree", "-C", "d1")
}

func TestSandbox(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"p/a": "", "p/q/b": ""}}
	r := env.Run(Run, "tree", "p")
	want := "p\n├── a\n└── q\n    └── b\n\n2 directories, 2 files\n"
	if r.Stdout != want || r.Code != 0 {
		t.Errorf("tree p: %q", r.Stdout)
	}
	r = env.Run(Run, "tree", "-o", "out.txt", "p")
	if r.Stdout != "" {
		t.Errorf("tree -o wrote to stdout: %q", r.Stdout)
	}
}
