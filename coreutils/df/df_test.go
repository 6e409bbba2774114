package df

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/files/human"
)

func TestBlockHeader(t *testing.T) {
	for spec, want := range map[string]string{
		"512": "512B", "1000": "1kB", "2K": "2K", "3000": "3kB", "1M": "1M", "1MB": "1MB",
		"KiB": "1KiB", "K": "1K", "1024": "1K", "G": "1G",
	} {
		f, err := human.ParseBlockSize(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := blockHeader(f); got != want {
			t.Errorf("%s: got %q want %q", spec, got, want)
		}
	}
}

func TestDF(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": strings.Repeat("x", 5000), "d/g": "1"}}
	fsys := env.NewFS()
	r := env.RunIn(fsys, Run, "df")
	want := "Filesystem     1K-blocks  Used Available Use% Mounted on\n" +
		"bashbox          8388608    20   8388588   1% /\n" +
		"bashbox          8388608    20   8388588   1% /work\n"
	if r.Stdout != want || r.Code != 0 {
		t.Errorf("df:\n%s%s", r.Stdout, r.Stderr)
	}
	r = env.RunIn(fsys, Run, "df", "-hT", "f", "/tmp")
	want = "Filesystem     Type   Size  Used Avail Use% Mounted on\n" +
		"bashbox        tmpfs  8.0G   20K  8.0G   1% /work\n" +
		"bashbox        tmpfs  8.0G   20K  8.0G   1% /\n"
	if r.Stdout != want || r.Code != 0 {
		t.Errorf("df -hT:\n%s%s", r.Stdout, r.Stderr)
	}
	r = env.RunIn(fsys, Run, "df", "-P", "-i", ".")
	if !strings.HasPrefix(r.Stdout, "Filesystem      Inodes IUsed   IFree IUse% Mounted on\nbashbox        1048576     4 1048572    1% /work\n") {
		t.Errorf("df -Pi:\n%s%s", r.Stdout, r.Stderr)
	}
	r = env.RunIn(fsys, Run, "df", "--output=source,target,file", "d")
	if r.Stdout != "Filesystem     Mounted on File\nbashbox        /work      d\n" {
		t.Errorf("df --output: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "df", "--total", "-k", ".")
	if !strings.HasSuffix(r.Stdout, "total            8388608    20   8388588   1% -\n") {
		t.Errorf("df --total: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "df", "-x", "tmpfs")
	if r.Code != 1 || r.Stderr != "df: no file systems processed\n" {
		t.Errorf("df -x: %d %q", r.Code, r.Stderr)
	}
}

// Error paths do not depend on the host's disks.
func TestErrorsAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("df"); err != nil {
		t.Skip("no df")
	}
	for _, args := range [][]string{{"df", "nope"}, {"df", "--frob"}, {"df", "--output=foo"}, {"df", "-B", "x"}, {"df", "-i", "--output"}, {"df", "-t"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = []string{"LANG=C.UTF-8"}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		r := (&cmdtest.Env{}).Run(Run, args...)
		if r.Stderr != stderr.String() || r.Code != code {
			t.Errorf("%q: got %d %q want %d %q", args, r.Code, r.Stderr, code, stderr.String())
		}
	}
	r := (&cmdtest.Env{}).Run(Run, "df", "-h", "/work")
	cmd := exec.Command("df", "-h", "/")
	out, _ := cmd.Output()
	if first := strings.SplitN(string(out), "\n", 2)[0] + "\n"; !strings.HasPrefix(r.Stdout, first) {
		t.Errorf("header: got %q want %q", r.Stdout, first)
	}
}
