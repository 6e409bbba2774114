package interp

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	shinterp "mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

func BenchmarkTmpUpstream(b *testing.B) {
	f, err := syntax.NewParser().Parse(strings.NewReader(os.Getenv("SCRIPT")), "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, _ := shinterp.New(shinterp.StdIO(nil, io.Discard, io.Discard), shinterp.Env(nil))
		if err := r.Run(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
