package bashbox_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// stoppedCalls are scripts that run until a budget stops them, one per
// command family: each must end within a second of its budget.
var stoppedCalls = []struct{ name, script string }{
	{"shell-loop", `while :; do :; done`},
	{"grep-P", `yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! | grep -P '^(a+)+$'`},
	{"grep-backref", `yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | grep -E '^(a|aa)+\1\1b'`},
	{"sed-backref", `yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | sed -E 's/^(a|aa)+\1\1b/x/'`},
	{"cat-fifo", `cat fifo; cat < fifo; echo x > fifo; while :; do :; done`},
	{"fifo-open-read", `mkfifo /tmp/p; cat /tmp/p`},
	{"fifo-open-write", `mkfifo /tmp/p; echo x > /tmp/p`},
	{"fifo-full", `mkfifo /tmp/p; exec 3<>/tmp/p; yes >&3`},
	{"fifo-read-empty", `mkfifo /tmp/p; exec 3<>/tmp/p; cat <&3`},
	{"sort", `sort /dev/zero`},
	{"tac", `tac /dev/zero`},
	{"uniq", `yes | uniq -c`},
	{"shuf", `shuf /dev/zero`},
	{"awk", `awk 'BEGIN { while (1) a[i++] = i }'`},
	{"jq", `jq -n '[range(1e12)] | length'`},
	// Its input decoded ahead by a second goroutine (coreutils/jq/ahead.go)
	// while the filter is stopped on the first value.
	{"jq-ahead", `seq 20000 | jq '[range(1e12)] | length'`},
	{"sed-hold", `yes | sed -n 'H; $p'`},
	{"xargs", `yes | xargs -n1 true`},
	{"gzip", `gzip -c < /dev/zero > /dev/null`},
	{"digest", `sha256sum /dev/zero`},
	{"tr-wc", `tr '\0' a < /dev/zero | wc -c`},
	{"find", `while :; do find / > /dev/null; done`},
	{"diff", `diff /dev/zero /dev/urandom`},
	{"sleep", `sleep 100`},
	{"pipeline", `yes | cat | cat | cat | cat | head -c 100000000000 | cat > /dev/null`},
	{"background", `for i in 1 2 3 4; do (while :; do :; done) & done; wait`},
	{"tail-follow", `yes | tail -f -c 10`},
	{"subst", `x=$(cat /dev/zero | tr '\0' a)`},
	{"git", `git init -q /tmp/r && cd /tmp/r && git hash-object /dev/zero`},
	{"git-add", `git init -q /tmp/r && cd /tmp/r && { yes > big & sleep 0.2; git add big; }`},
	{"regex-shell", `x=$(head -c 60000000 /dev/zero | tr '\0' a); [[ $x =~ (a|aa)*c ]]`},
	{"find-regex", `mkdir /tmp/d; touch /tmp/d/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; while :; do find /tmp/d -regextype posix-extended -regex '/tmp/d/(a|aa)+\1\1b'; done`},
	{"awk-gsub", `awk 'BEGIN { s = "x"; while (1) gsub(/[x]/, "xx", s) }'`},
	{"awk-sub-long-match", `awk 'BEGIN { s = "x"; while (1) sub(/x+/, "&&", s) }'`},
	{"awk-regex", `yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | awk '/^(a|aa)+$/ { n++ }'`},
	{"dd", `dd if=/dev/zero of=/dev/null bs=1M`},
	{"head-tail", `head -c 100000000000 /dev/zero | tail -c 10`},
	{"split", `cd /tmp && split -b 1m /dev/zero`},
	{"tar", `head -c 20000000 /dev/zero > /tmp/z; while :; do tar cf - /tmp/z > /dev/null; done`},
	{"zip", `zip -q /tmp/a.zip - < /dev/zero`},
	{"unzip", `head -c 300000000 /dev/zero > /tmp/z; zip -q /tmp/a.zip /tmp/z; while :; do unzip -p /tmp/a.zip > /dev/null; done`},
	{"xz", `xz -c < /dev/zero > /dev/null`},
	{"zstd", `zstd -c < /dev/zero > /dev/null`},
	{"encode", `base64 /dev/zero | xxd | od | cut -c1-3 | rev | fold -w 3 | nl | paste - - > /dev/null`},
	{"strings", `strings /dev/urandom > /dev/null`},
	{"rg", `yes abc | rg -c 'a(b|c)+'`},
	{"fd-ls-du-tree", `mkdir -p /tmp/t/a/b; while :; do fd . / > /dev/null; ls -R / > /dev/null; du -s / > /dev/null; tree / > /dev/null; done`},
	{"column", `yes 'a b c' | column -t`},
	{"bc", `echo 'while (1) { x = x + 1 }' | bc`},
	{"seq-tee", `seq 1 inf | tee /dev/null > /dev/null`},
	{"timeout-xargs", `timeout 100 sh -c 'while :; do :; done'`},
	{"bzip2", `bzip2 -c < /dev/zero > /dev/null`},
	{"decompress-bombs", `head -c 20000000 /dev/zero > /tmp/z; gzip -k /tmp/z; bzip2 -k /tmp/z; xz -0 -k /tmp/z; zstd -q /tmp/z; rm /tmp/z
while :; do gzip -dc /tmp/z.gz; bzip2 -dc /tmp/z.bz2; xz -dc /tmp/z.xz; zstd -dc /tmp/z.zst; done > /dev/null`},
	{"cp-zero", `cp /dev/zero /tmp/f`},
	{"cp-r", `mkdir -p /tmp/t; head -c 20000000 /dev/zero > /tmp/t/f; while :; do cp -r /tmp/t /tmp/u; rm -rf /tmp/u; done`},
	{"tar-x", `mkdir /tmp/x; head -c 20000000 /dev/zero > /tmp/z; tar cf /tmp/a.tar -C /tmp z; while :; do tar xf /tmp/a.tar -C /tmp/x; done`},
	{"sort-o", `sort -o /tmp/s /dev/zero`},
	{"sed-i", `head -c 20000000 /dev/zero | tr '\0' '\n' > /tmp/z; while :; do sed -i 's/^/a/' /tmp/z; done`},
	{"head-c-file", `head -c 100000000000 /dev/zero > /tmp/f`},
	{"dd-file", `dd if=/dev/zero of=/tmp/f bs=64k`},
	{"sqlite3", `sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c'`},
	{"yq", `yes 'a: 1' | yq .`},
	{"iconv", `iconv -f latin1 -t utf-16 /dev/zero > /dev/null`},
}

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// settled waits up to 3 s for the goroutines and descriptors to come back
// to base (regexp2's clock goroutine stops a second after its last use).
func settled(t *testing.T, goBase, fdBase int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		g, fds := runtime.NumGoroutine(), openFDs(t)
		if g <= goBase && fds <= fdBase {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("after the calls: %d goroutines (base %d), %d descriptors (base %d)\n%s", g, goBase, fds, fdBase, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TM-RES-004: no goroutine or descriptor of a call outlives it, whichever
// command a budget stops, and each stops within a second of the budget.
func TestNoWorkOutlivesItsCall(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{
		Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}},
		// The default overlay quota: in-memory files grow block by block,
		// so filling it (cp-zero, dd-file) holds no stop for long.
		Limits: bashbox.Limits{Timeout: 400 * time.Millisecond, MaxMemoryBytes: 32 << 20},
	})
	run(t, b, `echo warm | grep -P 'w(a)+' | sed 's/\(a\)\1/b/' > /dev/null`)
	time.Sleep(1500 * time.Millisecond) // regexp2's clock goroutine ends
	goBase, fdBase := runtime.NumGoroutine(), openFDs(t)
	for _, tc := range stoppedCalls {
		start := time.Now()
		res, err := b.Run(context.Background(), bashbox.Request{Script: tc.script})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := time.Since(start)
		t.Logf("%s: %v, budget %+v, exit %d", tc.name, d.Round(time.Millisecond), res.Budget, res.ExitCode)
		// Each must run until stopped: a case ending at once on an error
		// would test nothing. sed-backref ends on its own backtracking
		// limit (status 4, GNU's message), which is how it is bounded.
		if res.Budget == nil && !(tc.name == "sed-backref" && res.ExitCode == 4) {
			t.Errorf("%s: ended without a budget: exit %d, stderr %q", tc.name, res.ExitCode, res.Stderr)
		}
		if d > 400*time.Millisecond+time.Second {
			t.Errorf("%s: took %v to stop (budget %+v)", tc.name, d, res.Budget)
		}
		if strings.Contains(res.Stderr, "internal error") {
			t.Errorf("%s: %s", tc.name, res.Stderr)
		}
	}
	settled(t, goBase, fdBase)
}

// TM-FS-012: nothing a script does in a read-write volume leaves a
// setuid, setgid or sticky file or directory on the host.
func TestNoSetuidOnHost(t *testing.T) {
	dir := t.TempDir()
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}})
	res := run(t, b, `set -e
cd /tmp; mkdir -p src/d; echo x > src/s; chmod 6755 src/s; chmod 3777 src/d
ls -l src/s | grep -q '^-rwsr-sr-x'
tar cf a.tar src; zip -qr a.zip src
cd /work
echo x > f; chmod 4755 f; chmod g+s f; chmod u+s,o+t f
mkdir d; chmod 7777 d; mkdir -m 2755 d2
tar xpf /tmp/a.tar -C /work; mv src fromtar
unzip -q /tmp/a.zip; mv src fromzip
cp -p /tmp/src/s copied; cp -a /tmp/src cpa
install -m 4755 /tmp/src/s installed
touch newfile; umask 0; mkdir -p deep/er; chmod -R 7777 deep
echo done`)
	if !strings.HasSuffix(res.Stdout, "done\n") {
		t.Fatalf("script failed: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		n++
		if st.Mode&(syscall.S_ISUID|syscall.S_ISGID|syscall.S_ISVTX) != 0 {
			t.Errorf("%s: mode %o", p, st.Mode)
		}
		return nil
	})
	if n < 15 {
		t.Fatalf("only %d entries on the host", n)
	}
}
