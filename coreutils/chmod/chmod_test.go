package chmod

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
)

const setup = `
umask 022
touch f g; chmod 644 f; chmod 444 g; mkdir -p d/e; touch d/x; chmod 2755 d; ln -s f l
printf '#!/bin/sh\n' > exe; chmod 755 exe
`

// hostModes lists "mode path" for everything under dir.
func hostModes(dir string) string {
	var lines []string
	filepath.Walk(dir, func(p string, fi fs.FileInfo, err error) error {
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		lines = append(lines, fmt.Sprintf("%04o %s", modes.Perm(fi.Mode()), rel))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func guestModes(fsys builtins.FS, dir string) string {
	var lines []string
	var walk func(p, rel string)
	walk = func(p, rel string) {
		fi, _, err := fsys.LstatIfPossible(p)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return
		}
		lines = append(lines, fmt.Sprintf("%04o %s", modes.Perm(fi.Mode()), rel))
		if fi.IsDir() {
			entries, _ := fsys.ReadDir(p)
			for _, e := range entries {
				r := e.Name()
				if rel != "." {
					r = rel + "/" + e.Name()
				}
				walk(p+"/"+e.Name(), r)
			}
		}
	}
	walk(dir, ".")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestAgainstGNU(t *testing.T) {
	cases := [][]string{
		{"chmod", "755", "f"},
		{"chmod", "+x", "f"},
		{"chmod", "-w", "f"},
		{"chmod", "+w", "g"},
		{"chmod", "o+w", "f"},
		{"chmod", "-v", "=rw", "f"},
		{"chmod", "-v", "u=rwx,g=rx,o=", "f"},
		{"chmod", "-c", "644", "f", "g"},
		{"chmod", "-v", "644", "f", "g"},
		{"chmod", "q", "f"},
		{"chmod", "8", "f"},
		{"chmod", "u+z", "f"},
		{"chmod", "644"},
		{"chmod"},
		{"chmod", "644", "nope", "f"},
		{"chmod", "-f", "644", "nope"},
		{"chmod", "-v", "755", "d"},
		{"chmod", "-v", "00755", "d"},
		{"chmod", "-v", "g-s", "d"},
		{"chmod", "-R", "-v", "700", "d"},
		{"chmod", "-Rv", "go-rwx", "."},
		{"chmod", "-v", "600", "l"},
		{"chmod", "-v", "a-x,u+s", "exe"},
		{"chmod", "-v", "u+t", "f"},
		{"chmod", "-v", "+t", "d"},
		{"chmod", "-v", "g=u", "f"},
		{"chmod", "-v", "o=g-w", "exe"},
		{"chmod", "-v", "ug+X", "f", "d", "exe"},
		{"chmod", "-v", "a+X", "f"},
		{"chmod", "-v", "--reference=exe", "f"},
		{"chmod", "--reference=nope", "f"},
		{"chmod", "-v", "0", "f"},
		{"chmod", "-v", "u+rw,go-rwx", "f"},
		{"chmod", "--frob", "f"},
		{"chmod", "-v", "+s", "exe"},
		{"chmod", "-v", "=", "f"},
		{"chmod", "-v", "a=r,u+w", "f"},
		{"chmod", "-v", "4755", "f"},
		{"chmod", "-v", "-x", "exe"},
		{"chmod", "-v", "u-x+w", "exe"},
		{"chmod", "10000", "f"},
		{"chmod", "-v", "ugo+rwx", "g"},
		{"chmod", "-v", "+r,+w", "g"},
		{"chmod", "-w", "-v", "f"},
		{"chmod", "-x", "exe"},
		{"chmod", "-v", "-r", "g"},
	}
	for _, args := range cases {
		dir, fsys := cmdtest.NewHostFixture(t, setup)
		want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, args...)
		got := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, Run, args...)
		if len(args) > 1 && strings.HasPrefix(args[1], "-R") {
			// Directory order differs (ext4 hashes names).
			got.Stdout, want.Stdout = sortLines(got.Stdout), sortLines(want.Stdout)
		}
		if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
			t.Errorf("%q\n--- got (code %d)\n%s%s--- want (code %d)\n%s%s", args, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
		}
		if h, g := hostModes(dir), guestModes(fsys, "/work"); h != g {
			t.Errorf("%q modes:\n--- got\n%s\n--- want\n%s", args, g, h)
		}
		os.RemoveAll(dir)
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[uint32]string{0o755: "rwxr-xr-x", 0o4644: "rwSr--r--", 0o1777: "rwxrwxrwt", 0o2710: "rwx--s---"} {
		if got := modes.String(m); got != want {
			t.Errorf("%o: %s", m, got)
		}
	}
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}
