package touch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

const setup = `
umask 022
printf x > f; mkdir d; touch -d '2023-05-06 07:08:09' ref; ln -s f l
`

func TestAgainstGNU(t *testing.T) {
	cases := []struct {
		args  []string
		files []string // whose mtime to compare
	}{
		{[]string{"touch", "-d", "2024-01-02 03:04:05", "f", "new"}, []string{"f", "new"}},
		{[]string{"touch", "-d", "2024-01-02T03:04:05Z", "f"}, []string{"f"}},
		{[]string{"touch", "--date=@1700000000.5", "f"}, []string{"f"}},
		{[]string{"touch", "-d", "2024-01-02 03:04:05.123 +0200", "f"}, []string{"f"}},
		{[]string{"touch", "-d", "Jan 2 2024 10:00", "f"}, []string{"f"}},
		{[]string{"touch", "-t", "202401020304.05", "f"}, []string{"f"}},
		{[]string{"touch", "-t", "2401020304", "f"}, []string{"f"}},
		{[]string{"touch", "-t", "9901020304", "f"}, []string{"f"}},
		{[]string{"touch", "-t", "202413010000", "f"}, nil},
		{[]string{"touch", "-t", "99", "f"}, nil},
		{[]string{"touch", "-t", "2401020304.61", "f"}, nil},
		{[]string{"touch", "-d", "foo", "f"}, nil},
		{[]string{"touch", "-d", "2024-02-30", "f"}, nil},
		{[]string{"touch", "-d", "x", "-t", "2401020304", "f"}, nil},
		{[]string{"touch", "-r", "ref", "f", "g"}, []string{"f", "g"}},
		{[]string{"touch", "-r", "ref", "-d", "+1 day", "f"}, []string{"f"}},
		{[]string{"touch", "-r", "nope", "f"}, nil},
		{[]string{"touch"}, nil},
		{[]string{"touch", "nd/x"}, nil},
		{[]string{"touch", "-c", "nope"}, []string{}},
		{[]string{"touch", "--no-create", "nope", "f"}, nil},
		{[]string{"touch", "-m", "-d", "2020-01-01", "f"}, []string{"f"}},
		{[]string{"touch", "--time=mtime", "-d", "2020-01-01", "f"}, []string{"f"}},
		{[]string{"touch", "--time=foo", "f"}, nil},
		{[]string{"touch", "-d", "2020-01-01", "d", "l"}, []string{"d", "f", "l"}},
		{[]string{"touch", "--frob"}, nil},
		{[]string{"touch", "-d"}, nil},
	}
	for _, tc := range cases {
		dir, fsys := cmdtest.NewHostFixture(t, setup)
		want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, tc.args...)
		got := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, Run, tc.args...)
		if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
			t.Errorf("%q\n--- got (code %d)\n%s%s--- want (code %d)\n%s%s", tc.args, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
		}
		for _, f := range tc.files {
			hi, err := os.Stat(filepath.Join(dir, f))
			gi, gerr := fsys.Stat("/work/" + f)
			if err != nil || gerr != nil {
				t.Errorf("%q: %s: host %v guest %v", tc.args, f, err, gerr)
				continue
			}
			if !hi.ModTime().Equal(gi.ModTime()) {
				t.Errorf("%q: %s mtime: got %s want %s", tc.args, f, gi.ModTime().UTC(), hi.ModTime().UTC())
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "nope")); err == nil {
			t.Errorf("%q: created nope", tc.args)
		}
		os.RemoveAll(dir)
	}
}

func TestCreatesAndNow(t *testing.T) {
	env := cmdtest.Env{}
	fsys := env.NewFS()
	before := time.Now().Add(-time.Second)
	r := env.RunIn(fsys, Run, "touch", "a", "b")
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("touch: %d %q", r.Code, r.Stderr)
	}
	fi, err := fsys.Stat("/work/a")
	if err != nil || fi.Size() != 0 || fi.Mode().Perm() != 0o644 || fi.ModTime().Before(before) {
		t.Errorf("a: %v %v", fi, err)
	}
	r = (&cmdtest.Env{Env: []string{"TZ=Asia/Tokyo"}}).RunIn(fsys, Run, "touch", "-t", "202401020304", "a")
	fi, _ = fsys.Stat("/work/a")
	if got := fi.ModTime().UTC().Format(time.DateTime); got != "2024-01-01 18:04:00" {
		t.Errorf("-t in TZ: %s", got)
	}
	r = env.RunIn(fsys, Run, "touch", "/dev/null/x")
	if r.Code != 1 || !strings.HasPrefix(r.Stderr, "touch: cannot touch '/dev/null/x': ") {
		t.Errorf("touch /dev/null/x: %d %q", r.Code, r.Stderr)
	}
}
