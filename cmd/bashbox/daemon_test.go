//go:build !bashbox_front && linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox/bench"
)

// launcherDirs builds the launcher (launcher/bashbox.c) as make build
// does and returns two directories: trio, where it sits beside the lean
// front and bashbox-full as installed, and alone, where it has no Go CLI
// to fall back to, so that a run it does not hand to the daemon fails
// with 127: what it prints there was the daemon's work. Both are 0755,
// so that other users may run what is in them.
func launcherDirs(t testing.TB) (trio, alone string) {
	t.Helper()
	front, full := buildPair(t)
	base, err := os.MkdirTemp("", "bashbox-launcher-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	trio, alone = filepath.Join(base, "trio"), filepath.Join(base, "alone")
	for _, d := range []string{base, trio, alone} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o755)
	}
	// As make build links it: statically against musl where musl-gcc is
	// (CI installs it), else with the C library at hand.
	args := []string{"-O2", "-Wall", "-Wextra", "-Werror", "-o", filepath.Join(trio, "bashbox"), "../../launcher/bashbox.c"}
	cc := exec.Command("cc", args...)
	if musl, err := exec.LookPath("musl-gcc"); err == nil {
		cc = exec.Command(musl, append([]string{"-static"}, args...)...)
	}
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("building the launcher (CI installs a C compiler): %v\n%s", err, out)
	}
	for _, l := range [][2]string{{filepath.Join(trio, "bashbox"), filepath.Join(alone, "bashbox")}, {front, filepath.Join(trio, "bashbox-lean")}, {full, filepath.Join(trio, fullName)}} {
		if err := copyFile(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	return trio, alone
}

func copyFile(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// startDaemon starts `full daemon` on a socket in a fresh 0700 directory
// and returns the socket; the daemon stops with the test.
func startDaemon(t testing.TB, full string, cred *syscall.Credential, sockDir string) string {
	sock, _ := startDaemonCmd(t, full, cred, sockDir)
	return sock
}

// startDaemonCmd is startDaemon, also returning the daemon's process.
func startDaemonCmd(t testing.TB, full string, cred *syscall.Credential, sockDir string) (string, *exec.Cmd) {
	t.Helper()
	if sockDir == "" {
		sockDir = filepath.Join(t.TempDir(), "sock")
	}
	sock := filepath.Join(sockDir, "daemon.sock")
	cmd := exec.Command(full, "daemon", "--socket", sock)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	cmd.Dir = "/"
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var said strings.Builder
		for sc.Scan() {
			said.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "listening on") {
				ready <- ""
				for sc.Scan() {
				}
				return
			}
		}
		ready <- said.String()
	}()
	select {
	case said := <-ready:
		if said != "" {
			t.Fatalf("the daemon did not start: %s", said)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the daemon did not listen within 20s")
	}
	return sock, cmd
}

type launched struct {
	stdout, stderr string
	code           int
}

// launchVia runs exe with args in dir, with sock as BASHBOX_SOCKET and
// stdin, under sh when umask is set.
func launchVia(t *testing.T, exe, sock, dir, stdin, umask string, args ...string) launched {
	t.Helper()
	var cmd *exec.Cmd
	if umask != "" {
		cmd = exec.Command("/bin/sh", append([]string{"-c", `umask ` + umask + `; exec "$@"`, "sh", exe}, args...)...)
	} else {
		cmd = exec.Command(exe, args...)
	}
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "BASHBOX_SOCKET=" + sock}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return launched{out.String(), errb.String(), code}
}

var durationField = regexp.MustCompile(`"duration_ms":[0-9]+`)

// A run the daemon serves prints and ends exactly as the CLI's own: same
// stdout, stderr and status, with paths relative to the launcher's
// working directory, its stdin, its umask.
func TestLauncherRunsAsTheCLI(t *testing.T) {
	trio, alone := launcherDirs(t)
	sock := startDaemon(t, filepath.Join(trio, fullName), nil, "")
	work := t.TempDir()
	for _, d := range []string{"vol", "rwA", "rwB"} {
		os.Mkdir(filepath.Join(work, d), 0o755)
	}
	os.WriteFile(filepath.Join(work, "vol", "f"), []byte("data\n"), 0o644)
	os.WriteFile(filepath.Join(work, "script.sh"), []byte("echo \"script $0 $*\"; pwd\n"), 0o644)

	cases := []struct {
		name, stdin string
		args        []string
	}{
		{"status and both streams", "", []string{"run", "-c", "echo hi; echo err >&2; exit 3"}},
		{"relative volume", "", []string{"run", "-v", "vol:/work", "-c", "cat f; ls -l | wc -l"}},
		{"relative script file", "", []string{"run", "-v", "vol", "script.sh", "a", "b"}},
		{"script on stdin", "echo from stdin; exit 4", []string{"run"}},
		{"stdin of the script", "abc\n", []string{"run", "-c", "tr a-z A-Z"}},
		{"json", "", []string{"run", "--json", "-c", "echo j; echo e >&2"}},
		{"missing volume", "", []string{"run", "-v", "nosuch", "-c", "true"}},
		{"budget", "", []string{"run", "--max-commands", "3", "-c", "true; true; true; true; echo no"}},
		{"timeout", "", []string{"run", "--timeout", "300ms", "-c", "sleep 5"}},
		{"bad script", "", []string{"run", "-c", "if then"}},
	}
	for _, c := range cases {
		served := launchVia(t, filepath.Join(alone, "bashbox"), sock, work, c.stdin, "", c.args...)
		cold := launchVia(t, filepath.Join(trio, "bashbox"), "off", work, c.stdin, "", c.args...)
		served.stdout = durationField.ReplaceAllString(served.stdout, `"duration_ms":0`)
		cold.stdout = durationField.ReplaceAllString(cold.stdout, `"duration_ms":0`)
		if served != cold {
			t.Errorf("%s: through the daemon %+v, the CLI alone %+v", c.name, served, cold)
		}
	}

	// Files made on a read-write volume, and --changes-out relative to
	// the launcher's directory, with the launcher's umask (the daemon's).
	for i, exe := range []string{filepath.Join(alone, "bashbox"), filepath.Join(trio, "bashbox")} {
		rw := []string{"rwA", "rwB"}[i]
		s := []string{sock, "off"}[i]
		out := fmt.Sprintf("changes%d.tar", i)
		r := launchVia(t, exe, s, work, "", "", "run", "-v", rw+":/w:rw", "-c", "echo x > /w/new; mkdir /w/d")
		if r.code != 0 {
			t.Fatalf("%s: %+v", exe, r)
		}
		r = launchVia(t, exe, s, work, "", "", "run", "-v", "vol", "--changes", "tar", "--changes-out", out, "-c", "echo x > new")
		if r.code != 0 {
			t.Fatalf("%s: %+v", exe, r)
		}
		if _, err := os.Stat(filepath.Join(work, out)); err != nil {
			t.Errorf("--changes-out %s: %v", out, err)
		}
	}
	for _, name := range []string{"new", "d"} {
		a, errA := os.Stat(filepath.Join(work, "rwA", name))
		b, errB := os.Stat(filepath.Join(work, "rwB", name))
		if errA != nil || errB != nil || a.Mode() != b.Mode() {
			t.Errorf("%s: through the daemon %v %v, alone %v %v", name, a.Mode(), errA, b.Mode(), errB)
		}
	}
}

// What the daemon cannot run exactly as the CLI would, it declines before
// reading or writing anything, and the launcher runs the Go CLI: the lone
// launcher, which has none beside it, then fails with 127.
func TestLauncherFallsBackToTheCLI(t *testing.T) {
	trio, alone := launcherDirs(t)
	sock := startDaemon(t, filepath.Join(trio, fullName), nil, "")
	for _, c := range []struct {
		name, umask string
		args        []string
	}{
		{"another subcommand", "", []string{"version"}},
		{"help", "", []string{"run", "--help"}},
		{"a bad flag", "", []string{"run", "--no-such-flag"}},
		{"fallback commands", "", []string{"run", "--fallback", "git", "-c", "true"}},
		{"another umask", "077", []string{"run", "-c", "true"}},
	} {
		r := launchVia(t, filepath.Join(alone, "bashbox"), sock, "/", "", c.umask, c.args...)
		if r.code != 127 || !strings.Contains(r.stderr, "cannot start") {
			t.Errorf("%s: the daemon took it: %+v", c.name, r)
		}
		cold := launchVia(t, filepath.Join(trio, "bashbox"), sock, "/", "", c.umask, c.args...)
		if cold.code == 127 || strings.Contains(cold.stderr, "cannot start") {
			t.Errorf("%s: the CLI beside the launcher did not run it: %+v", c.name, cold)
		}
	}
	// No daemon at all: the CLI, with its own output.
	r := launchVia(t, filepath.Join(trio, "bashbox"), filepath.Join(t.TempDir(), "none.sock"), "/", "", "", "run", "-c", "echo cold")
	if r.code != 0 || r.stdout != "cold\n" {
		t.Errorf("without a daemon: %+v", r)
	}
}

// SIGINT to the launcher interrupts the run as it does the CLI's (status
// 130); a launcher killed outright cancels its run, which then does no
// more; a write to a pipe with no reader kills the launcher with SIGPIPE,
// as it kills the CLI.
func TestLauncherSignals(t *testing.T) {
	trio, alone := launcherDirs(t)
	sock := startDaemon(t, filepath.Join(trio, fullName), nil, "")
	exe := filepath.Join(alone, "bashbox")

	cmd := exec.Command(exe, "run", "-c", "sleep 10")
	cmd.Env = []string{"BASHBOX_SOCKET=" + sock}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 || time.Since(start) > 5*time.Second {
		t.Errorf("SIGINT: %v after %v, want status 130", err, time.Since(start))
	}

	rw := t.TempDir()
	cmd = exec.Command(exe, "run", "-v", rw+":/w:rw", "-c", "sleep 1; echo late > /w/late")
	cmd.Env = []string{"BASHBOX_SOCKET=" + sock}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	time.Sleep(2 * time.Second)
	if _, err := os.Stat(filepath.Join(rw, "late")); err == nil {
		t.Error("the run of a killed launcher went on and wrote its file")
	}

	for _, s := range []string{sock, "off"} {
		pipe := exec.Command("bash", "-c", `"$0" run -c 'while :; do echo y; done' | head -1 >/dev/null; echo "${PIPESTATUS[0]}"`, exe)
		if s == "off" {
			pipe.Args[3] = filepath.Join(trio, "bashbox")
		}
		pipe.Env = []string{"PATH=" + os.Getenv("PATH"), "BASHBOX_SOCKET=" + s}
		out, err := pipe.Output()
		if err != nil || strings.TrimSpace(string(out)) != "141" {
			t.Errorf("socket %s: a closed pipe gave %q %v, want 141", s, out, err)
		}
	}
}

// TM-DMN-002 and TM-DMN-003: the launcher hands its descriptors (its
// terminal, its input, its files) only to a daemon of its own user, on a
// socket in a directory of its own user that nobody else may enter.
// Otherwise it runs the CLI itself (here, alone, it fails with 127 to
// show it did not hand the run over). Needs root to play the other user,
// and fails without it.
func TestLauncherTrustsOnlyItsOwnUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("TM-DMN-002/003 need root, to run a daemon as another user (CI runs as root)")
	}
	trio, alone := launcherDirs(t)
	full := filepath.Join(trio, fullName)
	exe := filepath.Join(alone, "bashbox")
	sock := startDaemon(t, full, nil, "")
	if r := launchVia(t, exe, sock, "/", "", "", "run", "-c", "echo served"); r.stdout != "served\n" {
		t.Fatalf("the daemon does not serve at all: %+v", r)
	}
	dir := filepath.Dir(sock)
	for _, bad := range []func(){
		func() { os.Chmod(dir, 0o755) },        // others may enter
		func() { os.Chmod(dir, 0o770) },        // the group may
		func() { os.Chown(dir, 65534, 65534) }, // another user's
	} {
		os.Chmod(dir, 0o700)
		os.Chown(dir, 0, 0)
		bad()
		if r := launchVia(t, exe, sock, "/", "", "", "run", "-c", "echo served"); r.code != 127 {
			fi, _ := os.Stat(dir)
			t.Errorf("socket directory %v: the launcher used it: %+v", fi.Mode(), r)
		}
	}
	os.Chmod(dir, 0o700)
	os.Chown(dir, 0, 0)

	// A listener of another user that would take anything, its socket
	// moved into a directory that passes the directory check: the peer's
	// credentials must stop the launcher before it sends a byte. (A real
	// daemon of another user would decline by itself, TM-DMN-001; this
	// one does not, so only the launcher's check stands.)
	nobodyDir, err := os.MkdirTemp("", "bashbox-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(nobodyDir)
	os.Chown(nobodyDir, 65534, 65534)
	os.Chmod(nobodyDir, 0o755)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(nobodyDir, "fake-daemon")
	if err := copyFile(self, helper); err != nil {
		t.Fatal(err)
	}
	os.Chmod(helper, 0o755)
	fakeSock := filepath.Join(nobodyDir, "fake.sock")
	fake := exec.Command(helper, "-test.run=^TestFakeDaemonHelper$")
	fake.Env = []string{"BBX_FAKE_DAEMON=" + fakeSock}
	fake.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	fakeOut, _ := fake.StdoutPipe()
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { fake.Process.Kill(); fake.Wait() }()
	if line, err := bufio.NewReader(fakeOut).ReadString('\n'); err != nil || !strings.Contains(line, "listening") {
		t.Fatalf("the fake daemon did not start: %q %v", line, err)
	}
	mine := filepath.Join(t.TempDir(), "safe")
	if err := os.Mkdir(mine, 0o700); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(mine, "daemon.sock")
	if err := os.Rename(fakeSock, planted); err != nil {
		t.Fatal(err)
	}
	if r := launchVia(t, exe, planted, "/", "", "", "run", "-c", "echo served"); r.code != 127 {
		t.Errorf("the launcher handed its run to another user's listener: %+v", r)
	}
	if got, err := os.ReadFile(fakeSock + ".got"); err == nil {
		t.Errorf("another user's listener received %d bytes of the launcher's request", len(got))
	}
}

// TestFakeDaemonHelper is the listener TestLauncherTrustsOnlyItsOwnUser
// runs as another user: it answers every connection as a daemon that ran
// the command, and records what it was sent.
func TestFakeDaemonHelper(t *testing.T) {
	sock := os.Getenv("BBX_FAKE_DAEMON")
	if sock == "" {
		t.Skip("run by TestLauncherTrustsOnlyItsOwnUser")
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o777)
	fmt.Println("listening on", sock)
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.SetReadDeadline(time.Now().Add(time.Second))
		buf := make([]byte, 4096)
		if n, _ := c.Read(buf); n > 0 {
			os.WriteFile(sock+".got", buf[:n], 0o644)
		}
		c.Write([]byte{'A', 'X', 0, 0, 0, 0})
		c.Close()
	}
}

// bashbox bench runs its start-up op through a daemon it starts, and
// reports start-up against bash both through it and without it.
func TestBenchStartupThroughTheDaemon(t *testing.T) {
	trio, _ := launcherDirs(t)
	corpus, out, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	cmd := exec.Command(filepath.Join(trio, fullName), "bench", "--corpus", corpus, "--ops", "startup", "--reps", "1", "--memory-op", "none", "--out", out)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp}
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, got)
	}
	for _, want := range []string{"startup ", "(through the daemon, its CPU time included)", "(no daemon)"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("bench output lacks %q:\n%s", want, got)
		}
	}
	// The daemon's socket directory goes with it (in the bench's own
	// TMPDIR, so no other bench on the machine can confuse this).
	if left, _ := filepath.Glob(filepath.Join(tmp, "bashbox-bench-daemon-*")); len(left) > 0 {
		t.Errorf("bench left %v behind", left)
	}
}

// BenchmarkStartupViaDaemon times `bashbox run -c true` through the
// launcher and a running daemon against `bash -c true` and `dash -c true`,
// paired as BenchmarkStartup is. bashbox's CPU is the launcher's (wait4)
// plus what the daemon spent meanwhile (its threads' schedstat), so that
// moving work into the daemon hides none of it.
//
//	go test ./cmd/bashbox -run '^$' -bench StartupViaDaemon -benchtime 200x
func BenchmarkStartupViaDaemon(b *testing.B) {
	trio, _ := launcherDirs(b)
	sock, daemonCmd := startDaemonCmd(b, filepath.Join(trio, fullName), nil, "")
	daemonCPU := func() time.Duration { return bench.ProcessCPU(daemonCmd.Process.Pid) }
	type runner struct {
		name      string
		argv      []string
		extra     func() time.Duration
		wall, cpu time.Duration
	}
	runners := []*runner{
		{name: "bashbox", argv: []string{filepath.Join(trio, "bashbox"), "run", "-c", "true"}, extra: daemonCPU},
		{name: "bash", argv: []string{"bash", "-c", "true"}},
		{name: "dash", argv: []string{"dash", "-c", "true"}},
	}
	launch := func(r *runner) (wall, cpu time.Duration) {
		cmd := exec.Command(r.argv[0], r.argv[1:]...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "BASHBOX_SOCKET=" + sock}
		var before time.Duration
		if r.extra != nil {
			before = r.extra()
		}
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v: %s", strings.Join(r.argv, " "), err, out)
		}
		wall, cpu = time.Since(start), cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()
		if r.extra != nil {
			cpu += r.extra() - before
		}
		return wall, cpu
	}
	for _, r := range runners {
		launch(r)
	}
	n := 0
	for b.Loop() {
		for _, r := range runners {
			w, c := launch(r)
			r.wall, r.cpu = r.wall+w, r.cpu+c
		}
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
	for _, r := range runners {
		b.ReportMetric(ms(r.wall), r.name+"-wall-ms")
		b.ReportMetric(ms(r.cpu), r.name+"-cpu-ms")
	}
	b.ReportMetric(float64(runners[0].wall)/float64(runners[1].wall), "x-bash-wall")
	b.ReportMetric(float64(runners[0].cpu)/float64(max(runners[1].cpu, 1)), "x-bash-cpu")
	b.ReportMetric(float64(runners[0].wall)/float64(runners[2].wall), "x-dash-wall")
	b.ReportMetric(0, "ns/op")
}
