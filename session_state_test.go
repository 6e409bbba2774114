package bashbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// stateCases are the parts of a session's shell state a saved session
// carries: each setup runs in one session, the check in the session
// restored from its saved state.
//
// probe, when set, shows that the engine introspects the part at all
// (bash's own output of it contains probeWant): an engine without it
// cannot save that part, which is reported as a skip naming the missing
// introspection, not hidden. Real bash round-trips every case
// (TestSessionStateReplayInBash).
var stateCases = []struct {
	name, setup, check, want string
	probe, probeWant         string
}{
	{"cwd", `cd /work/src`, `pwd`, "/work/src\n", "", ""},
	{"plain and exported variables", `plain='a b'; export EXP="x'y\"z"`, `echo "$plain|$EXP"; env | grep -c '^EXP='`, "a b|x'y\"z\n1\n", "", ""},
	{"newline in a value", `nl=$'one\ntwo'`, `echo "$nl"`, "one\ntwo\n", `nl=$'a\nb'; s=$(declare -p nl); unset nl; eval "$s"; [ "$nl" = $'a\nb' ] && echo same`, "same"},
	{"indexed array", `arr=(1 "two x" 3)`, `echo "${#arr[@]} ${arr[1]}"`, "3 two x\n", "", ""},
	{"associative array", `declare -A m=([k]=v [other]="w x")`, `echo "${m[k]} ${m[other]}"`, "v w x\n", "", ""},
	{"integer attribute", `declare -i n=5`, `n+=2; echo $n`, "7\n", `declare -i n=5; declare -p n`, "declare -i n="},
	{"readonly attribute", `declare -r ro=1`, `(ro=2) 2>/dev/null; echo $ro`, "1\n", "", ""},
	{"function", `f() { echo "f:$1"; }`, `f arg`, "f:arg\n", `f() { :; }; declare -f`, "{"},
	{"alias", `alias hi='echo hello'`, "shopt -s expand_aliases\nhi", "hello\n", `alias hi=x; alias -p`, "alias hi="},
	{"set option", `set -o pipefail`, `false | true; echo $?`, "1\n", "", ""},
	{"shopt", `shopt -s nullglob`, `echo /nonexistent/*`, "\n", `shopt -p nullglob`, "shopt -u nullglob"},
	{"trap", `trap 'echo caught' USR1`, `trap -p USR1 > /tmp/t; read -r t < /tmp/t; eval "set -- $t"; echo "$3|$4"`, "echo caught|SIGUSR1\n", `trap 'echo caught' USR1; trap -p USR1`, "caught"},
}

func saveRestore(t *testing.T, b *bashbox.Box, s *bashbox.Session) *bashbox.Session {
	t.Helper()
	var buf bytes.Buffer
	if err := s.SaveState(context.Background(), &buf, 0); err != nil {
		t.Fatal(err)
	}
	r, err := b.RestoreSession(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func runIn(t *testing.T, s *bashbox.Session, script string) *bashbox.Result {
	t.Helper()
	res, err := s.Run(context.Background(), bashbox.Request{Script: script})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSessionStateShellRoundTrip(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work"}}})
	for _, c := range stateCases {
		t.Run(c.name, func(t *testing.T) {
			s, err := b.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if c.probe != "" {
				if res := runIn(t, s, c.probe); !strings.Contains(res.Stdout, c.probeWant) {
					t.Skipf("the engine does not introspect this (%q printed %q, bash prints %q)", c.probe, res.Stdout, c.probeWant)
				}
			}
			if res := runIn(t, s, c.setup); res.ExitCode != 0 {
				t.Fatalf("setup: %d %s", res.ExitCode, res.Stderr)
			}
			r := saveRestore(t, b, s)
			if res := runIn(t, r, c.check); res.Stdout != c.want {
				t.Errorf("restored: got %q, want %q (stderr %q)", res.Stdout, c.want, res.Stderr)
			}
		})
	}
}

func TestSessionStateFilesRoundTrip(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{
		{HostDir: dir, GuestPath: "/work"},
		{GuestPath: "/scratch", Mode: volumes.Ephemeral},
	}})
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	setup := `set -e
printf 'tmp\n' > /tmp/a.txt; mkdir -p ~/d/e; printf 'home' > ~/d/e/f; chmod 750 ~/d
printf '\x00\x01bin' > /scratch/bin; ln -s /scratch/bin /scratch/link; chmod 600 /scratch/bin
echo changed > /work/README.md; rm -r /work/src; echo new > /work/new.txt; mv /work/script.sh /work/moved.sh
mkdir /work/src; echo again > /work/src/again; mkfifo -m 640 /tmp/fifo /work/fifo`
	if res := runIn(t, s, setup); res.ExitCode != 0 {
		t.Fatalf("setup: %s", res.Stderr)
	}
	r := saveRestore(t, b, s)
	check := `cat /tmp/a.txt ~/d/e/f; echo; stat -c %a ~/d /scratch/bin; od -An -c /scratch/bin; readlink /scratch/link
cat /work/README.md /work/new.txt /work/moved.sh /work/src/again; ls /work/src; test -e /work/script.sh || echo no-script
stat -c '%F %a' /tmp/fifo /work/fifo`
	want := runIn(t, s, check)
	got := runIn(t, r, check)
	if got.Stdout != want.Stdout || got.ExitCode != 0 {
		t.Fatalf("restored files differ:\n got %q (%s)\nwant %q", got.Stdout, got.Stderr, want.Stdout)
	}
	if r.Size() != s.Size() {
		t.Errorf("restored session holds %d bytes, the original %d", r.Size(), s.Size())
	}
	// The host directory is untouched by both.
	if data, _ := os.ReadFile(filepath.Join(dir, "README.md")); strings.Contains(string(data), "changed") {
		t.Fatal("the read-only volume's host file was written")
	}
	if _, err := os.Stat(filepath.Join(dir, "script.sh")); err != nil {
		t.Fatal("the read-only volume's host file was removed")
	}
}

func TestSessionStateLimitAndBadInput(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runIn(t, s, `head -c 100000 /dev/zero > /tmp/big`)
	var buf bytes.Buffer
	if err := s.SaveState(context.Background(), &buf, 50000); !errors.Is(err, bashbox.ErrStateTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := b.RestoreSession(context.Background(), strings.NewReader("not a state")); err == nil || !strings.Contains(err.Error(), "not a saved session") {
		t.Fatalf("garbage restored: %v", err)
	}
}

// BenchmarkSessionState is the cost of saving and restoring a session
// by the size of its in-memory files (make loadtest prints it): what a
// call on a Redis-backed session adds, besides the Redis round trips.
func BenchmarkSessionState(b *testing.B) {
	box := newBox(b, bashbox.Config{})
	for _, size := range []int{0, 64 << 10, 1 << 20, 16 << 20} {
		s, err := box.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.Run(context.Background(), bashbox.Request{Script: fmt.Sprintf(
			"for i in 1 2 3 4 5 6 7 8; do head -c %d /dev/urandom > /tmp/f$i; done; x=1; f() { :; }", size/8)})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.Stderr)
		}
		var buf bytes.Buffer
		b.Run(fmt.Sprintf("save/%dKiB", size>>10), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := s.SaveState(context.Background(), &buf, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "state-bytes")
		})
		b.Run(fmt.Sprintf("restore/%dKiB", size>>10), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r, err := box.RestoreSession(context.Background(), bytes.NewReader(buf.Bytes()))
				if err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
		s.Close()
	}
}
