package bashbox_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

const writeQuota = 1 << 20

// hostBytes sums the sizes of the regular files under dir, .git excluded.
func hostBytes(t *testing.T, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, "/.git/") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// refusalClock records when the first "No space left on device" is
// written to it.
type refusalClock struct{ at atomic.Int64 }

func (r *refusalClock) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("No space left on device")) {
		r.at.CompareAndSwap(0, time.Now().UnixNano())
	}
	return len(p), nil
}

// TM-RES-005: writes through to a read-write volume stop at the call's
// write quota with ENOSPC and the budget line; the host disk grows by at
// most the quota, and what was there before is intact.
func TestWriteQuota(t *testing.T) {
	const mk = `head -c 1500000 /dev/urandom > /tmp/z; mkdir -p /tmp/tree/a /tmp/tree/b; for i in 1 2 3 4 5 6; do head -c 200000 /dev/urandom > /tmp/tree/a/f$i; done; `
	cases := []struct{ name, script, msg string }{
		{"cat-zero", `cat /dev/zero > big.bin`, "cat: write error: No space left on device"},
		{"head-c", `head -c 10G /dev/zero > f`, "No space left on device"},
		{"dd", `dd if=/dev/zero of=dd.bin bs=1M count=100`, "dd: error writing 'dd.bin': No space left on device"},
		{"split", mk + `split -b 100000 /tmp/z part`, "No space left on device"},
		{"tar-x", mk + `tar cf /tmp/a.tar -C /tmp tree z && tar xf /tmp/a.tar`, "No space left on device"},
		{"unzip", mk + `(cd /tmp && zip -0qr a.zip tree z) && unzip -q /tmp/a.zip`, "No space left on device"},
		{"gzip-bomb", `head -c 8000000 /dev/zero | gzip > /tmp/b.gz && gzip -dc /tmp/b.gz > out`, "No space left on device"},
		{"gunzip-bomb", `head -c 8000000 /dev/zero | gzip > /tmp/b.gz && cp /tmp/b.gz . && gzip -d b.gz`, "No space left on device"},
		{"cp-r", mk + `cp -r /tmp/tree copy`, "No space left on device"},
		{"sort-o", mk + `sort -o sorted /tmp/z`, "No space left on device"},
		{"sed-i", `sed -i 's/a/b/' big.txt`, "No space left on device"},
		{"git-checkout", `rm -rf tracked && git checkout -- tracked`, "No space left on device"},
		{"files", `i=0; while :; do : > n$i; i=$((i+1)); done`, "No space left on device"},
	}
	big := bytes.Repeat([]byte("a line of text to be edited\n"), 100000) // 2.8 MB
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.name == "git-checkout" {
				os.MkdirAll(filepath.Join(dir, "tracked"), 0o755)
				for i := 0; i < 8; i++ {
					os.WriteFile(filepath.Join(dir, "tracked", "f"+string(rune('0'+i))), bytes.Repeat([]byte{byte('a' + i)}, 300000), 0o644)
				}
				for _, args := range [][]string{{"init", "-q"}, {"add", "tracked"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"}} {
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
			}
			before := hostBytes(t, dir)
			b := newBox(t, bashbox.Config{
				Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}},
				Limits:  bashbox.Limits{MaxWriteBytes: writeQuota, MaxWriteFiles: 1000, Timeout: 90 * time.Second},
			})
			refused := &refusalClock{}
			res, err := b.Run(context.Background(), bashbox.Request{Script: tc.script, Stderr: refused})
			if err != nil {
				t.Fatal(err)
			}
			// The call ends within a second of the refused write (the
			// command's ENOSPC message is written at the refusal).
			if at := refused.at.Load(); at == 0 {
				t.Errorf("no ENOSPC message on the stream")
			} else if d := time.Since(time.Unix(0, at)); d > time.Second {
				t.Errorf("the call ended %v after the refused write", d)
			}
			if res.Budget == nil || !strings.HasPrefix(res.Budget.Name, "write_") || res.ExitCode != 125 {
				t.Fatalf("budget %+v exit %d\nstderr: %s", res.Budget, res.ExitCode, res.Stderr)
			}
			if !strings.Contains(res.Stderr, tc.msg) || !strings.Contains(res.Stderr, "bashbox: budget exceeded: "+res.Budget.Name+" (limit ") {
				t.Errorf("stderr %q", res.Stderr)
			}
			if strings.Contains(res.Stderr, "internal error") {
				t.Errorf("stderr %q", res.Stderr)
			}
			grew := hostBytes(t, dir) - before
			if tc.name == "git-checkout" {
				grew = hostBytes(t, dir) - int64(len(big)) // the tree was removed first
			}
			if grew > writeQuota {
				t.Errorf("host grew by %d bytes, quota %d", grew, writeQuota)
			}
			got, err := os.ReadFile(filepath.Join(dir, "big.txt"))
			if err != nil || !bytes.Equal(got, big) {
				t.Errorf("big.txt changed (%d bytes, %v)", len(got), err)
			}
			if entries, _ := os.ReadDir(dir); tc.name == "sed-i" && len(entries) != 1 {
				t.Errorf("sed -i left files behind: %v", entries)
			}
		})
	}
}
