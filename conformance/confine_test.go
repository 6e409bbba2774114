package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReferenceIsConfined: the reference bash, which runs as root on CI,
// can change nothing outside its case directory. The checks only read
// (capabilities) or try harmless writes; they never exercise a privilege
// that would change the machine if the confinement were missing.
func TestReferenceIsConfined(t *testing.T) {
	how, err := Confinement()
	if err != nil {
		if os.Geteuid() == 0 {
			t.Fatal(err) // as root, cases must not run unconfined
		}
		t.Skip(err)
	}
	base, err := BaseDir()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "work")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(base, "outside") // writable on the host, not in the case
	probe := fmt.Sprintf("/tmp/bbconf-probe-%d", os.Getpid())
	defer os.Remove(probe)
	script := `grep '^CapEff:' /proc/self/status; { echo x > ` + marker + `; } 2>/dev/null && echo rw || echo ro; echo y > ` + probe + ` && echo tmp-ok; echo z > inside && echo dir-ok`
	o := runBash(context.Background(), script, dir, 30*time.Second, "")
	lines := strings.Split(strings.TrimSpace(o.Stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("output %q, stderr %q", o.Stdout, o.Stderr)
	}
	eff, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(lines[0], "CapEff:")), 16, 64)
	if err != nil || eff&^fileCaps != 0 {
		t.Errorf("capabilities %q beyond the file ones", lines[0])
	}
	if how == "bwrap" && lines[1] != "ro" { // setpriv confines privileges, not files
		t.Errorf("wrote outside the case directory")
		os.Remove(marker)
	}
	if _, err := os.Stat(probe); how == "bwrap" && err == nil && lines[2] == "tmp-ok" {
		if b, _ := os.ReadFile(probe); string(b) == "y\n" {
			t.Errorf("/tmp is the host's")
		}
	}
	if lines[3] != "dir-ok" {
		t.Errorf("cannot write the case directory: %q", lines[3])
	}
}
