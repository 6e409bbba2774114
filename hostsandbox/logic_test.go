package hostsandbox

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
)

// These tests cover the platform-independent logic of every backend; they
// run on every OS.

func TestManifestValidate(t *testing.T) {
	abs := "/abs"
	if runtime.GOOS == "windows" {
		abs = `C:\abs`
	}
	for _, tc := range []struct {
		m       Manifest
		wantErr string
	}{
		{Manifest{FSReadAllow: []string{abs}}, ""},
		{Manifest{FSReadAllow: []string{"relative"}}, "not an absolute path"},
		{Manifest{FSWriteAllow: []string{"./x"}}, "not an absolute path"},
		{Manifest{FSWriteAllow: []string{abs + "\nx"}}, "NUL or newline"},
		{Manifest{Network: NetworkPolicy{Mode: "open"}}, "unknown network policy"},
		{Manifest{Syscalls: "loose"}, "unknown syscall policy"},
		{Manifest{Env: [][2]string{{"A=B", "x"}}}, "invalid environment entry"},
	} {
		err := tc.m.Validate()
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%+v: got %v, want %q", tc.m, err, tc.wantErr)
		}
		if tc.wantErr == "not an absolute path" && !errors.Is(err, ErrPathDenied) {
			t.Errorf("relative path error should wrap ErrPathDenied: %v", err)
		}
	}
	if (NetworkPolicy{}).effective() != NetworkDeny {
		t.Error("the zero network policy must mean deny")
	}
}

// fakeFS answers lstat/readlink for bwrapArgs without touching the disk.
type fakeFS map[string]string // path -> "dir", "file" or "->target"

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (f fakeInfo) Name() string       { return f.name }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return nil }

func (f fakeFS) lstat(p string) (fs.FileInfo, error) {
	switch v := f[p]; {
	case v == "dir":
		return fakeInfo{p, fs.ModeDir}, nil
	case v == "file":
		return fakeInfo{p, 0}, nil
	case strings.HasPrefix(v, "->"):
		return fakeInfo{p, fs.ModeSymlink}, nil
	}
	return nil, fs.ErrNotExist
}

func (f fakeFS) readlink(p string) (string, error) {
	if v, ok := strings.CutPrefix(f[p], "->"); ok {
		return v, nil
	}
	return "", fs.ErrInvalid
}

func indexOf(args []string, seq ...string) int {
	for i := 0; i+len(seq) <= len(args); i++ {
		match := true
		for j, s := range seq {
			if args[i+j] != s {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

func TestBwrapArgs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bwrap paths are Unix paths")
	}
	ffs := fakeFS{
		"/usr": "dir", "/bin": "->usr/bin", "/lib": "->usr/lib", "/etc": "dir", "/etc/shadow": "file",
		"/work": "dir", "/work/.git/hooks": "dir", "/work/.git/config": "file", "/work/.bashrc": "file",
		"/data": "dir", "/work/vendor": "dir",
	}
	m := &Manifest{
		FSReadAllow:  []string{"/work/vendor", "/data"},
		FSWriteAllow: []string{"/work"},
		Network:      NetworkPolicy{Mode: NetworkDeny},
		Env:          [][2]string{{"PATH", "/usr/bin"}, {"HOME", "/home/u"}},
	}
	plan := bwrapPlan{m: m, req: Request{Args: []string{"bash", "-c", "x"}, Dir: "/work"}, lstat: ffs.lstat, readlink: ffs.readlink,
		protect: []protectedPath{{path: "/work/.git/hooks", dir: true}, {path: "/work/.git/config"}, {path: "/work/.bashrc"},
			{path: "/work/.git/config.worktree", placeholder: true}, {path: "/work/.git/modules/m/hooks", dir: true, placeholder: true},
			{path: "/work/.envrc", sweep: true}}}
	args, err := bwrapArgs(plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range [][]string{
		{"--die-with-parent", "--unshare-all", "--new-session", "--clearenv"},
		{"--ro-bind", "/usr", "/usr"}, {"--symlink", "usr/bin", "/bin"}, {"--ro-bind", "/etc", "/etc"},
		{"--ro-bind", "/dev/null", "/etc/shadow"},
		{"--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"},
		{"--bind", "/work", "/work"}, {"--ro-bind", "/work/vendor", "/work/vendor"}, {"--ro-bind", "/data", "/data"},
		{"--ro-bind", "/work/.git/hooks", "/work/.git/hooks"}, {"--ro-bind", "/work/.git/config", "/work/.git/config"},
		{"--ro-bind", "/work/.bashrc", "/work/.bashrc"},
		{"--ro-bind", "/dev/null", "/work/.git/config.worktree"},
		{"--tmpfs", "/work/.git/modules/m/hooks", "--remount-ro", "/work/.git/modules/m/hooks"},
		{"--tmpfs", "/home/u"}, {"--setenv", "PATH", "/usr/bin"}, {"--chdir", "/work"},
		{"--", "bash", "-c", "x"},
	} {
		if indexOf(args, seq...) < 0 {
			t.Errorf("missing %q in %q", seq, args)
		}
	}
	if indexOf(args, "--share-net") >= 0 {
		t.Error("--share-net under deny")
	}
	if indexOf(args, "/work/.envrc") >= 0 {
		t.Error("a swept path was bound")
	}
	// Order: the writable root before what is nested in it, protected
	// files last, the private HOME before the allow lists.
	if !(indexOf(args, "--bind", "/work", "/work") < indexOf(args, "--ro-bind", "/work/vendor", "/work/vendor") &&
		indexOf(args, "--ro-bind", "/work/vendor", "/work/vendor") < indexOf(args, "--ro-bind", "/work/.git/hooks", "/work/.git/hooks") &&
		indexOf(args, "--tmpfs", "/home/u") < indexOf(args, "--bind", "/work", "/work")) {
		t.Errorf("mount order wrong: %q", args)
	}

	m.Network.Mode = NetworkInherit
	m.Syscalls = SyscallStrict
	plan.seccompFD = 3
	plan.disableUserns = true
	plan.helperPath = "/opt/bashbox"
	plan.landlock = true
	args, err = bwrapArgs(plan)
	if err != nil {
		t.Fatal(err)
	}
	if indexOf(args, "--share-net") < 0 || indexOf(args, "--seccomp", "3") < 0 || indexOf(args, "--ro-bind", "/opt/bashbox", helperMountPath) < 0 ||
		indexOf(args, "--unshare-user", "--disable-userns") < 0 {
		t.Errorf("inherit/strict/helper flags missing: %q", args)
	}
	i := indexOf(args, "--", helperMountPath, helperMarker)
	if i < 0 {
		t.Fatalf("command not wrapped by the helper: %q", args)
	}
	var cfg helperConfig
	if err := json.Unmarshal([]byte(args[i+3]), &cfg); err != nil || cfg.Landlock == nil {
		t.Fatalf("helper config %q: %v", args[i+3], err)
	}
	if !contains(cfg.Landlock.Write, "/work") || !contains(cfg.Landlock.Read, "/data") || cfg.Landlock.DenyTCP {
		t.Errorf("landlock rules %+v", cfg.Landlock)
	}
	if strings.Join(args[i+4:], " ") != "bash -c x" {
		t.Errorf("command after the helper config: %q", args[i+4:])
	}

	// Limits without a helper, or a missing allow path, are refused.
	plan.helperPath, plan.landlock = "", false
	m.MaxCPUSecs = 5
	if _, err := bwrapArgs(plan); !errors.Is(err, ErrPolicyNotSupported) {
		t.Errorf("CPU limit without helper: %v", err)
	}
	m.MaxCPUSecs = 0
	m.FSReadAllow = []string{"/missing"}
	if _, err := bwrapArgs(plan); !errors.Is(err, ErrPathDenied) {
		t.Errorf("missing path: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSBPLProfile(t *testing.T) {
	m := &Manifest{FSReadAllow: []string{`/Users/a "quoted" \dir`}, FSWriteAllow: []string{"/Users/a/work"}, Network: NetworkPolicy{Mode: NetworkDeny}}
	p, err := sbplProfile(m, "/private/tmp/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(deny default)", "(allow process-fork)", `(allow file-read* (literal "/"))`,
		`(allow file-read* (subpath "/Users/a \"quoted\" \\dir"))`,
		`(allow file-read* file-write* (subpath "/Users/a/work"))`,
		`(allow file-read* file-write* (subpath "/private/tmp/x"))`,
		`(sysctl-name-prefix "hw.")`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %s:\n%s", want, p)
		}
	}
	if strings.Contains(p, "network") {
		t.Error("deny must add no network rule")
	}
	m.Network.Mode = NetworkInherit
	if p, _ := sbplProfile(m, "", nil); !strings.Contains(p, "(allow network*)") {
		t.Error("inherit must allow the network")
	}
	for _, bad := range []string{"/a\nb", "/a\x00b", "/a\rb"} {
		if _, err := sbplQuote(bad); !errors.Is(err, ErrPathDenied) {
			t.Errorf("sbplQuote(%q) = %v, want a refusal", bad, err)
		}
	}
	// A path trying to close the string and add a rule stays one literal.
	q, _ := sbplQuote(`/x") (allow default) ("`)
	if q != `"/x\") (allow default) (\""` {
		t.Errorf("injection not escaped: %s", q)
	}
	m.Network = NetworkPolicy{Mode: NetworkAllowHosts, Hosts: []string{"a.example"}}
	if _, err := (&sandboxExec{path: "/usr/bin/sandbox-exec"}).Start(context.Background(), m, Request{Args: []string{"true"}}); !errors.Is(err, ErrPolicyNotSupported) && runtime.GOOS != "windows" {
		t.Errorf("allow_hosts on sandbox-exec: %v", err)
	}
}

func absPath(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}

func TestDockerContainerSpec(t *testing.T) {
	m := &Manifest{
		FSReadAllow: []string{absPath("/src")}, FSWriteAllow: []string{absPath("/work"), absPath("/src")},
		MaxMemoryBytes: 256 << 20, MaxCPUSecs: 10, Env: [][2]string{{"LANG", "C.UTF-8"}},
	}
	spec, err := containerSpecFor(m, Request{Args: []string{"bash", "-c", "ls"}, Dir: absPath("/work")})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Image != DefaultDockerImage || spec.HostConfig.NetworkMode != "none" || spec.OpenStdin || spec.Tty {
		t.Errorf("spec %+v", spec)
	}
	if len(spec.HostConfig.Mounts) != 2 {
		t.Fatalf("mounts %+v", spec.HostConfig.Mounts)
	}
	for _, mt := range spec.HostConfig.Mounts {
		if mt.Type != "bind" || mt.ReadOnly {
			t.Errorf("both paths are writable (write wins): %+v", mt)
		}
	}
	if spec.HostConfig.Memory != 256<<20 || spec.HostConfig.MemorySwap != 256<<20 || len(spec.HostConfig.Ulimits) != 1 || spec.HostConfig.Ulimits[0].Hard != 10 {
		t.Errorf("limits %+v", spec.HostConfig)
	}
	if !contains(spec.HostConfig.CapDrop, "ALL") || !contains(spec.Env, "LANG=C.UTF-8") {
		t.Errorf("hardening or env missing: %+v", spec)
	}
	m.Network.Mode, m.Image = NetworkInherit, "alpine:3"
	spec, _ = containerSpecFor(m, Request{Args: []string{"sh"}})
	if spec.HostConfig.NetworkMode != "bridge" || spec.Image != "alpine:3" {
		t.Errorf("inherit/image: %+v", spec)
	}
	m.Network = NetworkPolicy{Mode: NetworkAllowHosts, Hosts: []string{"x"}}
	if _, err := containerSpecFor(m, Request{Args: []string{"sh"}}); !errors.Is(err, ErrPolicyNotSupported) {
		t.Errorf("allow_hosts: %v", err)
	}
	m.Network = NetworkPolicy{}
	m.FSReadAllow = []string{"rel"}
	if _, err := containerSpecFor(m, Request{Args: []string{"sh"}}); !errors.Is(err, ErrPathDenied) {
		t.Errorf("relative path: %v", err)
	}
}

func frame(stream byte, s string) []byte {
	h := make([]byte, 8, 8+len(s))
	h[0] = stream
	binary.BigEndian.PutUint32(h[4:], uint32(len(s)))
	return append(h, s...)
}

func TestDockerDemux(t *testing.T) {
	var stream []byte
	stream = append(stream, frame(1, "out1\n")...)
	stream = append(stream, frame(2, "err1\n")...)
	stream = append(stream, frame(1, "out2\n")...)
	var out, errb strings.Builder
	if err := demuxDockerStream(strings.NewReader(string(stream)), &out, &errb); err != nil {
		t.Fatal(err)
	}
	if out.String() != "out1\nout2\n" || errb.String() != "err1\n" {
		t.Fatalf("demux: %q %q", out.String(), errb.String())
	}
	if err := demuxDockerStream(strings.NewReader(string(stream[:10])), &out, &errb); err == nil {
		t.Fatal("truncated frame accepted")
	}
}

// fakeEngine is a minimal Docker Engine API on a unix socket, to drive the
// backend's create/start/logs/wait/delete sequence without Docker.
type fakeEngine struct {
	mu      sync.Mutex
	created containerSpec
	calls   []string
	killed  chan struct{}
	block   bool // wait blocks until kill
}

func (f *fakeEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	switch {
	case r.URL.Path == "/_ping":
		io.WriteString(w, "OK")
	case r.URL.Path == "/containers/create":
		f.mu.Lock()
		json.NewDecoder(r.Body).Decode(&f.created)
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"Id":"c0ffee"}`)
	case strings.HasSuffix(r.URL.Path, "/start"):
		w.WriteHeader(http.StatusNoContent)
	case strings.HasSuffix(r.URL.Path, "/logs"):
		w.Write(frame(1, "hello\n"))
		w.Write(frame(2, "warn\n"))
	case strings.HasSuffix(r.URL.Path, "/wait"):
		if f.block {
			<-f.killed
			io.WriteString(w, `{"StatusCode":137}`)
			return
		}
		io.WriteString(w, `{"StatusCode":3}`)
	case strings.HasSuffix(r.URL.Path, "/kill"):
		close(f.killed)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"no such route"}`)
	}
}

func startFakeEngine(t *testing.T, f *fakeEngine) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("unix sockets")
	}
	dir, err := os.MkdirTemp("", "dk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "d.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: f}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "unix://" + sock
}

func TestDockerBackendAgainstFakeEngine(t *testing.T) {
	f := &fakeEngine{killed: make(chan struct{})}
	host := startFakeEngine(t, f)
	b := Select(Policy{Sandbox: "docker", DockerHost: host})
	if b.Name() != "docker" {
		t.Fatalf("selected %s with a reachable engine", b.Name())
	}
	var out strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	oc, err := Run(context.Background(), b, &Manifest{FSWriteAllow: []string{t.TempDir()}}, Request{Args: []string{"bash", "-c", "x"}, Stdout: w, Stderr: w})
	if err != nil {
		t.Fatal(err)
	}
	if oc.ExitCode != 3 || out.String() != "hello\nwarn\n" {
		t.Fatalf("exit %d output %q", oc.ExitCode, out.String())
	}
	f.mu.Lock()
	calls := strings.Join(f.calls, ",")
	spec := f.created
	f.mu.Unlock()
	for _, want := range []string{"POST /containers/create", "POST /containers/c0ffee/start", "POST /containers/c0ffee/wait", "DELETE /containers/c0ffee"} {
		if !strings.Contains(calls, want) {
			t.Errorf("missing %s in %s", want, calls)
		}
	}
	if spec.HostConfig.NetworkMode != "none" || strings.Join(spec.Cmd, " ") != "bash -c x" {
		t.Errorf("create body %+v", spec)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestDockerTimeoutKillsContainer(t *testing.T) {
	f := &fakeEngine{killed: make(chan struct{}), block: true}
	d, err := newDocker(startFakeEngine(t, f))
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(context.Background(), d, &Manifest{Timeout: 200 * time.Millisecond}, Request{Args: []string{"sleep", "60"}})
	if err != nil || !oc.TimedOut || oc.ExitCode != ExitTimedOut {
		t.Fatalf("outcome %+v, %v", oc, err)
	}
}

func TestSelectFailsClosed(t *testing.T) {
	env := map[string]string{EnvSandbox: "none"}
	getenv := func(k string) string { return env[k] }
	if b := Select(PolicyFromEnv(getenv)); b.Name() != "fail-closed" {
		t.Errorf("%s=none alone selected %s", EnvSandbox, b.Name())
	}
	env[EnvAllowNoSandbox] = "true"
	if b := Select(PolicyFromEnv(getenv)); b.Name() != "none" {
		t.Errorf("none + allow selected %s", b.Name())
	}
	env[EnvAllowNoSandbox] = "yes" // only 1 or true count
	if b := Select(PolicyFromEnv(getenv)); b.Name() != "fail-closed" {
		t.Errorf("allow=yes selected %s", b.Name())
	}
	// The library itself never reads the environment.
	t.Setenv(EnvSandbox, "none")
	t.Setenv(EnvAllowNoSandbox, "1")
	if b := Select(Policy{Sandbox: "none"}); b.Name() != "fail-closed" {
		t.Errorf("Select read %s from the process environment: %s", EnvAllowNoSandbox, b.Name())
	}
	b := Select(Policy{Sandbox: "docker", AllowNoSandbox: true, DockerHost: "unix://" + filepath.Join(t.TempDir(), "missing.sock")})
	if b.Name() != "fail-closed" {
		t.Fatalf("docker without an engine selected %s", b.Name())
	}
	if _, err := b.Start(context.Background(), &Manifest{}, Request{Args: []string{"true"}}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Docker") {
		t.Errorf("refusal %v", err)
	}
	if b := Select(Policy{Sandbox: "firejail"}); b.Name() != "fail-closed" {
		t.Errorf("unknown value selected %s", b.Name())
	}
}

func TestAppContainerPlan(t *testing.T) {
	m := &Manifest{FSReadAllow: []string{absPath("/tools")}, FSWriteAllow: []string{absPath("/work")}, MaxMemoryBytes: 1 << 30, MaxCPUSecs: 7,
		Env: [][2]string{{"PATH", `C:\Windows`}}}
	p, err := planAppContainer(m, Request{Args: []string{`C:\Program Files\Git\bin\bash.exe`, "-c", `echo "hi" \\`}, Dir: absPath("/work")})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Grants) != 2 || len(p.Capabilities) != 0 || p.MemoryLimit != 1<<30 || p.CPUTime != 7*time.Second {
		t.Errorf("plan %+v", p)
	}
	for _, g := range p.Grants {
		if g.Write != (g.Path == absPath("/work")) {
			t.Errorf("grant %+v", g)
		}
	}
	if want := `"C:\Program Files\Git\bin\bash.exe" -c "echo \"hi\" \\\\"`; p.CommandLine != want {
		t.Errorf("command line %s, want %s", p.CommandLine, want)
	}
	m.Network.Mode = NetworkInherit
	if p, _ := planAppContainer(m, Request{Args: []string{"x"}}); len(p.Capabilities) != 3 {
		t.Errorf("inherit capabilities %v", p.Capabilities)
	}
	m.Syscalls = SyscallStrict
	if _, err := planAppContainer(m, Request{Args: []string{"x"}}); !errors.Is(err, ErrPolicyNotSupported) {
		t.Errorf("strict: %v", err)
	}
}

func TestWindowsCommandLineQuoting(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"a", "b c", ""}, `a "b c" ""`},
		{[]string{`C:\dir\`, `a\"b`}, `C:\dir\ "a\\\"b"`},
		{[]string{`x y\`}, `"x y\\"`},
	} {
		if got, _ := windowsCommandLine(tc.args); got != tc.want {
			t.Errorf("%q: got %s want %s", tc.args, got, tc.want)
		}
	}
	if _, err := windowsCommandLine([]string{"a\x00b"}); err == nil {
		t.Error("NUL accepted")
	}
}

func TestWindowsEnvBlock(t *testing.T) {
	block := windowsEnvBlock([]string{"b=2", "A=1"})
	want := append(append(utf16.Encode([]rune("A=1")), 0), append(utf16.Encode([]rune("b=2")), 0, 0)...)
	if string(utf16.Decode(block)) != string(utf16.Decode(want)) {
		t.Errorf("block %q", string(utf16.Decode(block)))
	}
}

func TestDoctorReportText(t *testing.T) {
	r := Report{Capabilities: []Capability{{Name: "bubblewrap", Kind: "backend", Available: true, Detail: "/usr/bin/bwrap"}}, Selected: "bubblewrap"}
	if txt := r.Text(); !strings.Contains(txt, "bubblewrap") || !strings.Contains(txt, "bash would use: bubblewrap") {
		t.Errorf("text %q", txt)
	}
	rep := Inspect(Policy{})
	names := map[string]bool{}
	for _, c := range rep.Capabilities {
		names[c.Name] = true
	}
	for _, want := range []string{"bubblewrap", "landlock", "seccomp", "sandbox-exec", "appcontainer", "docker", "none"} {
		if !names[want] {
			t.Errorf("doctor does not report %s", want)
		}
	}
	if rep.Selected == "" {
		t.Error("doctor names no selected backend")
	}
	// Fallback confinement is reported, and matches the selected backend.
	want := map[string]string{"fail-closed": "refused", "none": "unconfined"}[rep.Selected]
	if want == "" {
		want = "confined"
	}
	if rep.Fallback != want || !strings.Contains(rep.Text(), "fallback commands: "+want) {
		t.Errorf("fallback confinement %q (want %q) in %q", rep.Fallback, want, rep.Text())
	}
	for _, c := range rep.Capabilities {
		if (c.Name == "sandbox-exec" || c.Name == "appcontainer") && !strings.Contains(c.Detail, "EXPERIMENTAL") {
			t.Errorf("%s not marked experimental: %q", c.Name, c.Detail)
		}
	}
	if r := Inspect(Policy{Sandbox: "bogus"}); r.Fallback != "refused" || !strings.Contains(r.FallbackDetail, "bogus") {
		t.Errorf("fail-closed policy: fallback %q %q", r.Fallback, r.FallbackDetail)
	}
	if r := Inspect(Policy{Sandbox: "none", AllowNoSandbox: true}); r.Fallback != "unconfined" {
		t.Errorf("no-sandbox policy: fallback %q", r.Fallback)
	}
}
