package bashbox_test

import (
	"context"
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
