package yq_test

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/yq"
)

func TestEnvComesFromTheCall(t *testing.T) {
	t.Setenv("YQ_HOST_SECRET", "host-secret-value")
	e := &cmdtest.Env{Env: []string{"V=sandbox"}}
	r := e.Run(yq.Run, "yq", "-n", ".a = strenv(V) | .b = strenv(YQ_HOST_SECRET)")
	if r.Code != 0 || r.Stdout != "a: sandbox\nb: \"\"\n" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	r = e.Run(yq.Run, "yq", "-n", `"$YQ_HOST_SECRET" | envsubst`)
	if strings.Contains(r.Stdout+r.Stderr, "host-secret") || r.Code != 1 {
		t.Fatalf("envsubst: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
}

func TestLoadReadsTheSandbox(t *testing.T) {
	host := t.TempDir() + "/host.yaml"
	if err := os.WriteFile(host, []byte("secret: host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := &cmdtest.Env{Files: map[string]string{"l.yaml": "k: v\n", "x.xml": "<a>1</a>"}}
	r := e.Run(yq.Run, "yq", "-n", `load("l.yaml").k, load_xml("x.xml").a, load_str("l.yaml")`)
	if r.Code != 0 || r.Stdout != "v\n1\nk: v\n\n" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	r = e.Run(yq.Run, "yq", "-n", fmt.Sprintf(`load(%q)`, host))
	if r.Code != 1 || strings.Contains(r.Stdout, "host") || !strings.Contains(r.Stderr, "no such file") {
		t.Fatalf("host file: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	r = e.Run(yq.Run, "yq", "-n", `"ls" | system(.)`)
	if r.Code != 1 {
		t.Fatalf("system: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
}

func TestInPlaceAndFormats(t *testing.T) {
	e := &cmdtest.Env{Files: map[string]string{"f.yaml": "a: 1 # c\n"}}
	fsys := e.NewFS()
	r := e.RunIn(fsys, yq.Run, "yq", "-i", ".a = 2", "f.yaml")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	r = e.RunIn(fsys, yq.Run, "yq", "-o", "json", "-I0", ".", "f.yaml")
	if r.Stdout != "{\"a\":2}\n" {
		t.Fatalf("out %q err %q", r.Stdout, r.Stderr)
	}
}

func TestBadInput(t *testing.T) {
	e := &cmdtest.Env{Files: map[string]string{"bad.yaml": "a: [1\n"}}
	for _, args := range [][]string{{"."}, {".", "bad.yaml"}, {".", "nosuch"}, {"-o", "zz", "-n", "1"}, {"--nosuch"}, {"-n", ".a |"}} {
		r := e.Run(yq.Run, append([]string{"yq"}, args...)...)
		if r.Code == 0 && len(args) > 1 || !strings.HasPrefix(r.Stderr, "Error: ") && r.Code != 0 {
			t.Errorf("%q: code %d out %q err %q", args, r.Code, r.Stdout, r.Stderr)
		}
	}
}

// Calls with different preferences run at once without sharing them.
func TestConcurrentCalls(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := &cmdtest.Env{Stdin: "a:\n  b: [1]\n", Env: []string{fmt.Sprintf("N=%d", i)}}
			indent := fmt.Sprint(i%4 + 1)
			r := e.Run(yq.Run, "yq", "-I", indent, "-o", []string{"json", "yaml"}[i%2], ".a.n = env(N)")
			if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprint(i)) {
				t.Errorf("%d: code %d out %q err %q", i, r.Code, r.Stdout, r.Stderr)
			}
			if i%2 == 0 && !strings.Contains(r.Stdout, "\n"+strings.Repeat(" ", i%4+1)+`"a"`) {
				t.Errorf("%d: indent %s not applied: %q", i, indent, r.Stdout)
			}
		}()
	}
	wg.Wait()
}
