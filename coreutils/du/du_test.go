package du

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

const setup = `
mkdir -p d/e/f d/g
printf x > d/a
printf '%5000s' y > d/e/b
printf '%9000s' z > d/e/f/c
: > d/g/empty
ln -s a d/l
ln -s e d/le
printf 'hello' > top
touch -d '2024-01-02 03:04:05' d/a d/e/b d/e/f/c d/g/empty top d/e/f d/g d/e d
`

func TestAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"du", "d"},
		{"du", "-a", "d"},
		{"du", "-a", "d/"},
		{"du", "-s", "d"},
		{"du", "-sh", "d"},
		{"du", "-ah", "d"},
		{"du", "-b", "d"},
		{"du", "-ab", "d"},
		{"du", "--apparent-size", "-a", "d"},
		{"du", "--apparent-size", "-ah", "d"},
		{"du", "-c", "d", "top"},
		{"du", "-sc", "d", "top"},
		{"du", "-d", "0", "d"},
		{"du", "-d", "1", "d"},
		{"du", "--max-depth=1", "-a", "d"},
		{"du", "-a", "--exclude=*.txt", "--exclude=e", "d"},
		{"du", "-a", "--exclude=d/e/*", "d"},
		{"du", "--exclude=d", "d"},
		{"du", "-k", "d"},
		{"du", "-m", "d"},
		{"du", "-B", "1K", "-a", "d"},
		{"du", "--block-size=K", "d"},
		{"du", "-B", "x", "d"},
		{"du", "--si", "-a", "d"},
		{"du", "-S", "d"},
		{"du", "-t", "10K", "d"},
		{"du", "-t", "-5K", "-a", "d"},
		{"du", "--threshold=x", "d"},
		{"du", "--inodes", "d"},
		{"du", "--inodes", "-a", "d"},
		{"du", "-L", "d"},
		{"du", "-L", "-a", "d/e"},
		{"du", "-sL", "d/le"},
		{"du", "-s", "d/le"},
		{"du", "-sD", "d/le"},
		{"du", "nope"},
		{"du", "nope", "top"},
		{"du", "d", "d/e"},
		{"du", "top", "top"},
		{"du", "--max-depth=-1", "d"},
		{"du", "-s", "-d", "1", "d"},
		{"du", "--frob"},
		{"du", "--time", "d"},
		{"du", "--time", "--time-style=full-iso", "d/e"},
		{"du", "--time", "--time-style=+%Y", "d/e"},
		{"du", "--time", "--time-style=locale", "d/e"},
		{"du", "--time", "--time-style=long", "d/e"}, // argmatch: a prefix will do
		{"du", "--time", "--time-style=", "d/e"},
		{"du", "--time=us", "--time-style=+x", "-s", "d/e"},
		{"du", "--time=", "d/e"},
		{"du", "-0", "d/g"},
		{"du", "-x", "d"},
		{"du", "-l", "d"},
	}
	for _, args := range cases {
		compare(t, "", Run, setup, args...)
	}
}

func TestSandbox(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"d/x": "12345", "d/sub/y": ""}}
	fsys := env.NewFS()
	r := env.RunIn(fsys, Run, "du", "-a", "d")
	if r.Stdout != "4\td/x\n0\td/sub/y\n4\td/sub\n12\td\n" && r.Stdout != "0\td/sub/y\n4\td/sub\n4\td/x\n12\td\n" {
		t.Errorf("du -a d: %q", r.Stdout)
	}
	r = (&cmdtest.Env{Files: map[string]string{"in": "d/x\x00e\x00", "e/f": ""}}).Run(Run, "du", "--files0-from=in")
	if r.Code != 1 || r.Stdout != "4\te\n" || r.Stderr != "du: cannot access 'd/x': No such file or directory\n" {
		t.Errorf("files0-from: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = (&cmdtest.Env{Files: map[string]string{"d/x": "1"}, Stdin: "d/x\x00"}).Run(Run, "du", "--files0-from=-")
	if r.Stdout != "4\td/x\n" {
		t.Errorf("files0-from stdin: %q %q", r.Stdout, r.Stderr)
	}
}
