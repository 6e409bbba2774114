package yes

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// limitWriter accepts n bytes, then fails as a closed pipe does.
type limitWriter struct {
	buf bytes.Buffer
	n   int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		k := w.n - w.buf.Len()
		w.buf.Write(p[:k])
		return k, builtins.ErrPipeClosed
	}
	return w.buf.Write(p)
}

func run(ctx context.Context, w *limitWriter, args ...string) (int, string) {
	var errb bytes.Buffer
	c := &builtins.Call{Args: append([]string{"yes"}, args...), Stdin: strings.NewReader(""), Stdout: w, Stderr: &errb}
	return Run(ctx, c), errb.String()
}

func TestYes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		line string
	}{
		{nil, "y\n"},
		{[]string{"a", "b"}, "a b\n"},
		{[]string{"--", "-x"}, "-x\n"},
		{[]string{""}, "\n"},
		{[]string{strings.Repeat("z", 100000)}, strings.Repeat("z", 100000) + "\n"},
	} {
		w := &limitWriter{n: 300000}
		code, errs := run(context.Background(), w, tc.args...)
		if code != 141 || errs != "" {
			t.Errorf("yes %q: code %d stderr %q", tc.args, code, errs)
		}
		want := strings.Repeat(tc.line, 300000/len(tc.line)+1)[:300000]
		if w.buf.String() != want {
			t.Errorf("yes %q: wrong output", tc.args)
		}
	}
}

func TestYesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	w := &limitWriter{n: 1 << 62}
	done := make(chan int)
	go func() { code, _ := run(ctx, w); done <- code }()
	select {
	case code := <-done:
		if code == 0 {
			t.Errorf("cancelled yes returned 0")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("yes did not stop on cancel")
	}
}

func TestYesOptions(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "yes", "-x")
	if r.Code != 1 || r.Stderr != "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n" {
		t.Errorf("-x: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "yes", "a", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: yes [STRING]...\n") {
		t.Errorf("--help: %+v", r)
	}
}
