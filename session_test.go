package bashbox_test

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

func TestSessionKeepsState(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work"}}})
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	steps := []struct{ script, want string }{
		{`export GREETING=hi; plain=1; cd src; f() { echo "f:$1"; }; echo x > /tmp/keep; echo y > /work/overlay.txt`, ""},
		{`echo "$GREETING $plain $(pwd)"; f arg; read -r k < /tmp/keep; echo "$k $(< /work/overlay.txt)"`, "hi 1 /work/src\nf:arg\nx y\n"},
	}
	for _, st := range steps {
		res, err := s.Run(ctx, bashbox.Request{Script: st.script})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stdout != st.want {
			t.Fatalf("%q: got %q (stderr %q)", st.script, res.Stdout, res.Stderr)
		}
	}
	if s.Workdir() != "/work/src" {
		t.Fatalf("workdir %q", s.Workdir())
	}
	// Budgets are per call.
	res, _ := s.Run(ctx, bashbox.Request{Script: `while :; do :; done`, Timeout: 200 * 1e6})
	if res.ExitCode != 124 {
		t.Fatalf("budget in session: %d", res.ExitCode)
	}
	// A stateless Run sees none of the session.
	res, _ = b.Run(ctx, bashbox.Request{Script: `echo "[$GREETING]"; pwd`})
	if res.Stdout != "[]\n/work\n" {
		t.Fatalf("stateless run saw session state: %q", res.Stdout)
	}
}

func TestSessionFiles(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{
		Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work"}, {GuestPath: "/scratch", Mode: volumes.Ephemeral}},
		Limits:  bashbox.Limits{MaxOverlayBytes: 1 << 20},
	})
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bin := make([]byte, 256*1024)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	// A write to the read-only volume lands in the session's overlay.
	if _, err := s.WriteFile(ctx, "src/new.bin", bytes.NewReader(bin), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/new.bin")); err == nil {
		t.Fatal("write reached the read-only host directory")
	}
	res, _ := s.Run(ctx, bashbox.Request{Script: "cat src/new.bin | wc -c; cat /scratch/in/a.txt", Files: map[string]string{"/scratch/in/a.txt": "given\n"}})
	if res.Stdout != "262144\ngiven\n" {
		t.Fatalf("script view: %q %q", res.Stdout, res.Stderr)
	}
	r, fi, err := s.Open("/work/src/new.bin")
	if err != nil || fi.Size() != int64(len(bin)) {
		t.Fatal(err, fi)
	}
	got, _ := io.ReadAll(r)
	r.Close()
	if !bytes.Equal(got, bin) {
		t.Fatal("binary file changed on the way out")
	}
	if s.Size() < int64(len(bin)) {
		t.Fatalf("size %d", s.Size())
	}
	// Over the overlay budget: refused, not written.
	if _, err := s.WriteFile(ctx, "/tmp/big", bytes.NewReader(make([]byte, 2<<20)), 0); !bashbox.IsNoSpace(err) {
		t.Fatalf("overlay budget: %v", err)
	}
	if _, err := s.Stat("/tmp/big"); err == nil {
		t.Fatal("a refused write left a partial file")
	}
	// Tar out and back in, elsewhere.
	var tb bytes.Buffer
	if err := s.ReadTar(ctx, "/work/src", &tb); err != nil {
		t.Fatal(err)
	}
	if n, err := s.WriteTar(ctx, "/scratch/copy", &tb); err != nil || n != 3 {
		t.Fatal(n, err)
	}
	res, _ = s.Run(ctx, bashbox.Request{Script: "cd /scratch/copy && find . -type f | sort && cmp new.bin /work/src/new.bin && echo same"})
	if res.Stdout != "./main.go\n./new.bin\n./util/util.go\nsame\n" {
		t.Fatalf("tar copy: %q %q", res.Stdout, res.Stderr)
	}
	// Archives that leave their directory are refused.
	for _, bad := range []tar.Header{{Name: "../x", Typeflag: tar.TypeReg}, {Name: "/abs", Typeflag: tar.TypeReg}, {Name: "dev", Typeflag: tar.TypeChar}} {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&bad)
		tw.Close()
		if _, err := s.WriteTar(ctx, "/scratch/bad", &buf); err == nil {
			t.Errorf("%s accepted", bad.Name)
		}
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/tmp"})
	tw.WriteHeader(&tar.Header{Name: "l/x", Typeflag: tar.TypeReg})
	tw.Close()
	if _, err := s.WriteTar(ctx, "/scratch/bad2", &buf); err == nil || !strings.Contains(err.Error(), "link") {
		t.Errorf("write through the archive's link: %v", err)
	}
	// Per-call env is exported into the session.
	res, _ = s.Run(ctx, bashbox.Request{Script: "echo $A", Env: []string{"A=it's"}})
	res2, _ := s.Run(ctx, bashbox.Request{Script: "bash -c 'echo $A'"})
	if res.Stdout != "it's\n" || res2.Stdout != "it's\n" {
		t.Fatalf("env: %q %q", res.Stdout, res2.Stdout)
	}
	if _, err := s.Run(ctx, bashbox.Request{Script: "true", Env: []string{"1x=y"}}); err == nil {
		t.Fatal("bad env name accepted")
	}
	s.Close()
	if _, err := s.Run(ctx, bashbox.Request{Script: "true"}); !errors.Is(err, bashbox.ErrSessionClosed) {
		t.Fatalf("run after close: %v", err)
	}
	if _, err := s.WriteFile(ctx, "x", strings.NewReader(""), 0); !errors.Is(err, bashbox.ErrSessionClosed) {
		t.Fatalf("write after close: %v", err)
	}
}
