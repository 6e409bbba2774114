package bashbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

func roBox(t *testing.T) (*bashbox.Box, string) {
	dir := hostTree(t)
	return newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}}}), dir
}

// TM-ENV-001
func TestHostEnvNeverVisible(t *testing.T) {
	t.Setenv("BASHBOX_CANARY_SECRET", "canary-value-31337")
	b, _ := roBox(t)
	res := run(t, b, `env; set; declare -p; export -p; printenv; echo "[$BASHBOX_CANARY_SECRET]"; bash -c 'echo "[$BASHBOX_CANARY_SECRET]"'`)
	if strings.Contains(res.Stdout+res.Stderr, "canary-value-31337") || strings.Contains(res.Stdout, "BASHBOX_CANARY_SECRET=") {
		t.Fatalf("host env leaked:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "PATH=/usr/local/bin:/usr/bin:/bin") {
		t.Fatalf("sandbox env missing:\n%s", res.Stdout)
	}
}

// TM-ENG-002
func TestProcessIDsAreNotTheHosts(t *testing.T) {
	b, _ := roBox(t)
	res := run(t, b, `echo $$ ${$} $PPID ${PPID} "$$"; eval 'echo $$'; bash -c 'echo $$'`)
	host := strconv.Itoa(os.Getpid())
	for _, f := range strings.Fields(res.Stdout) {
		if f == host || f == strconv.Itoa(os.Getppid()) {
			t.Fatalf("host pid shown: %q", res.Stdout)
		}
	}
	if res.Stdout != "2 2 1 1 2\n2\n2\n" {
		t.Fatalf("got %q", res.Stdout)
	}
}

// process substitutions never touch the host temp dir
func TestProcessSubstitutionMakesNoHostFIFO(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// A host file named like the interpreter's FIFOs, in the host temp dir
	// and in the sandbox's /tmp: neither may be reached.
	secret := filepath.Join(tmp, "sh-interp-deadbeef")
	if err := os.WriteFile(secret, []byte("host secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("/tmp/sh-interp-deadbeef", []byte("host secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove("/tmp/sh-interp-deadbeef")
	b, _ := roBox(t)
	res := run(t, b, `while read -r l; do echo "got $l"; done < <(echo one; echo two)
read -r x < `+secret+` ; echo "x=$x"
read -r y < /tmp/sh-interp-deadbeef; echo "y=$y"
echo hi > /tmp/sh-interp-deadbeef; read -r z < /tmp/sh-interp-deadbeef; echo "z=$z"
eval 'read -r w < <(echo evaluated); echo "w=$w"'`)
	if strings.Contains(res.Stdout, "host secret") {
		t.Fatalf("host file read: %q", res.Stdout)
	}
	want := "got one\ngot two\nx=\ny=\nz=hi\nw=evaluated\n"
	if res.Stdout != want {
		t.Fatalf("got %q want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Fatalf("host temp dir changed: %v", entries)
	}
	if data, _ := os.ReadFile("/tmp/sh-interp-deadbeef"); string(data) != "host secret\n" {
		t.Fatalf("host /tmp file written: %q", data)
	}
}

// TM-ENG-001
func TestWorkdirNeedsNoHostPath(t *testing.T) {
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{GuestPath: "/nonexistent-on-host/data", Mode: volumes.Ephemeral}}})
	res := run(t, b, `pwd; mkdir -p sub && cd sub && pwd`)
	if res.Stdout != "/nonexistent-on-host/data\n/nonexistent-on-host/data/sub\n" {
		t.Fatalf("got %q stderr %q", res.Stdout, res.Stderr)
	}
}

// TM-ENG-001 TM-FS-004
func TestPhysicalPathsStayInSandbox(t *testing.T) {
	dir := hostTree(t)
	if err := os.Symlink("/etc", filepath.Join(dir, "etc-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(dir, "src-link")); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work"}}})
	res := run(t, b, `cd src-link && pwd && pwd -P; cd /work; cd -P src-link && pwd; cd /work; cd etc-link 2>/dev/null && pwd -P; echo "status $?"`)
	want := "/work/src-link\n/work/src\n/work/src\nstatus 1\n"
	if res.Stdout != want {
		t.Fatalf("got %q want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
}

// TM-FS-001 TM-FS-002 TM-FS-003
func TestNothingOutsideVolumes(t *testing.T) {
	dir := hostTree(t)
	outside := filepath.Join(filepath.Dir(dir), "outside-secret.txt")
	if err := os.WriteFile(outside, []byte("TOP SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(outside)
	if err := os.Symlink(outside, filepath.Join(dir, "abs-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside-secret.txt", filepath.Join(dir, "rel-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../../../../../../etc/passwd", filepath.Join(dir, "deep-out")); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}})
	scripts := []string{
		`cat ../outside-secret.txt`, `cat ../../../../etc/passwd`, `cat /etc/passwd`, `cat ` + outside,
		`cat abs-out`, `cat rel-out`, `cat deep-out`, `cd ..; cd ..; cd ..; cat outside-secret.txt; cat etc/passwd`,
		`ln -s ` + outside + ` mine; cat mine`, `ln -s ../outside-secret.txt mine2; cat mine2`,
		`read -r l < /etc/passwd; echo "$l"`, `read -r l < rel-out; echo "$l"`, `source /etc/passwd`,
		`ls /proc /etc /root /home/user/.aws 2>&1`, `cat /proc/self/environ`, `echo x > ../escape.txt`,
		`echo x > rel-out`, `echo x > abs-out`, `cp rel-out copy; cat copy`, `ls -la / /tmp`,
		`find / -name outside-secret.txt`, `grep -r SECRET / 2>/dev/null`,
	}
	for _, s := range scripts {
		res := run(t, b, s)
		out := res.Stdout + res.Stderr
		// A path the script itself typed may come back in an error message.
		leaked := strings.Contains(out, filepath.Dir(dir)) && !strings.Contains(s, filepath.Dir(dir))
		if strings.Contains(out, "TOP SECRET") || strings.Contains(out, "root:x:0") || leaked {
			t.Errorf("%s: escaped the sandbox:\n%s", s, out)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "TOP SECRET\n" {
		t.Fatalf("outside file changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.txt")); err == nil {
		t.Fatal("wrote outside the volume")
	}
	res := run(t, b, `ls /`)
	if res.Stdout != "bin\ndev\nhome\ntmp\nusr\nwork\n" {
		t.Fatalf("root listing %q", res.Stdout)
	}
}

// TM-FS-005
func TestReadOnlyVolumeIsByteIdentical(t *testing.T) {
	b, dir := roBox(t)
	before := treeDigest(t, dir)
	destructive := []string{
		`rm -rf /work/*`, `rm -rf /work/src; rm README.md; mv docs gone; ls`,
		`chmod -R 777 .; chmod 000 README.md; touch -d '2001-01-01' README.md src/main.go; touch newfile`,
		`sed -i 's/demo/pwned/' README.md; cat README.md`, `truncate -s 0 README.md src/main.go`,
		`echo pwned > README.md; echo more >> src/main.go; : > docs/"a b.txt"; echo x > link-rel; echo y > link-dangling`,
		`mkdir -p new/deep; mv src new/; ln -sf /etc/passwd README.md; cp -r docs docs2`,
		`exec 3>README.md; echo via-fd >&3; exec 3>&-`, `rm -rf .; rm -rf /`, `find . -delete`,
		`mv README.md /tmp/r; mv /tmp/r README.md2`,
	}
	for _, s := range destructive {
		res := run(t, b, s)
		if after := treeDigest(t, dir); after != before {
			t.Fatalf("script %q changed the read-only volume (stderr %q):\nbefore:\n%s\nafter:\n%s", s, res.Stderr, before, after)
		}
	}
	// The writes were real inside the call.
	res := run(t, b, `echo changed > README.md; cat README.md; rm -rf src; ls`)
	if !strings.HasPrefix(res.Stdout, "changed\n") || strings.Contains(res.Stdout, "src\n") {
		t.Fatalf("overlay did not take writes: %q %q", res.Stdout, res.Stderr)
	}
}

// TM-FS-006
func TestReadWriteVolumeWritesThrough(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}})
	res := run(t, b, `echo new > out.txt; mkdir -p a/b; mv README.md a/b/; rm src/util/util.go`)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(data) != "new\n" {
		t.Fatalf("out.txt = %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "a/b/README.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/util/util.go")); !os.IsNotExist(err) {
		t.Fatalf("rm did not write through: %v", err)
	}
}

// TM-EXEC-001: no host process, even with host binaries planted on PATH.
func TestNoHostProcess(t *testing.T) {
	bin := t.TempDir()
	canary := filepath.Join(t.TempDir(), "canary")
	for _, name := range []string{"grep", "ls", "cat", "kubectl", "python3", "curl", "sh", "bash", "env", "xargs", "find", "git"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho ran >> "+canary+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	b, _ := roBox(t)
	scripts := []string{
		`grep x README.md; ls; cat README.md; kubectl; python3 -c 1; curl http://x`,
		`/bin/sh -c 'echo nested'; bash -c 'ls'; env ls; echo README.md | xargs cat; find . -name x -exec ls {} \;`,
		bin + `/grep x; PATH=` + bin + ` grep x README.md; exec ` + bin + `/cat`, `./script.sh hi; sh script.sh; source script.sh`,
		`command -v grep; type -a ls; which cat; hash grep; git status`,
	}
	for _, s := range scripts {
		run(t, b, s)
	}
	if _, err := os.Stat(canary); err == nil {
		data, _ := os.ReadFile(canary)
		t.Fatalf("a host binary ran: %s", data)
	}
}

// TM-EXEC-002
func TestScriptsReenterTheSandbox(t *testing.T) {
	b, _ := roBox(t)
	res := run(t, b, `./script.sh a; sh script.sh b; bash -c 'echo "c $0 $1"' name one; source script.sh d; . ./script.sh e; bash script.sh f`)
	want := "from script a\nfrom script b\nc name one\nfrom script d\nfrom script e\nfrom script f\n"
	if res.Stdout != want {
		t.Fatalf("got %q want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
}

// TM-EXEC-003
func TestLookupsReportSandboxPaths(t *testing.T) {
	b, _ := roBox(t)
	res := run(t, b, `command -v grep; type grep; which sort; type cd; command -v nosuch || echo missing; f() { :; }; type -t f; ls /usr/bin | grep -c .`)
	lines := strings.Split(res.Stdout, "\n")
	want := []string{"/usr/bin/grep", "grep is /usr/bin/grep", "/usr/bin/sort", "cd is a shell builtin", "missing", "function"}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d: got %q want %q (all %q)", i, lines[i], w, res.Stdout)
		}
	}
}
