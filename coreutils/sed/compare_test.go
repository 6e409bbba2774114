package sed_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/sed"
)

// dcase is a differential case: it runs under the real GNU sed and ours,
// over the same files, and everything must agree: standard output,
// standard error, status and the files left behind.
type dcase struct {
	args  []string
	stdin string
	files map[string]string
}

func realSed(t *testing.T) string {
	p, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("no sed on this machine")
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || !bytes.Contains(out, []byte("GNU sed")) {
		t.Skip("sed is not GNU sed")
	}
	return p
}

type outcome struct {
	stdout, stderr string
	code           int
	files          map[string]string
	timedOut       bool
}

func runGNU(t *testing.T, bin string, dc dcase) outcome {
	dir := t.TempDir()
	for name, content := range dc.files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, dc.args...)
	cmd.Args[0] = "sed"
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(dc.stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if ctx.Err() != nil {
		return outcome{timedOut: true}
	}
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = string(b)
		}
		return nil
	})
	return outcome{stdout: so.String(), stderr: se.String(), code: code, files: files}
}

func runOurs(dc dcase) outcome {
	env := cmdtest.Env{Files: dc.files, Stdin: dc.stdin}
	res := env.Run(sed.Run, append([]string{"sed"}, dc.args...)...)
	files := map[string]string{}
	walk(res.FS, "/work", "", files)
	return outcome{stdout: res.Stdout, stderr: res.Stderr, code: res.Code, files: files}
}

func walk(fsys builtins.FS, dir, rel string, files map[string]string) {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := dir + "/" + e.Name()
		r := e.Name()
		if rel != "" {
			r = rel + "/" + e.Name()
		}
		if e.IsDir() {
			walk(fsys, p, r, files)
			continue
		}
		if !e.Mode().IsRegular() {
			continue
		}
		f, err := fsys.Open(p)
		if err != nil {
			continue
		}
		var b bytes.Buffer
		b.ReadFrom(f)
		f.Close()
		files[r] = b.String()
	}
}

func diffFiles(a, b map[string]string) string {
	var names []string
	seen := map[string]bool{}
	for n := range a {
		names = append(names, n)
		seen[n] = true
	}
	for n := range b {
		if !seen[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		x, okx := a[n]
		y, oky := b[n]
		if okx != oky || x != y {
			out = append(out, n+": gnu="+quote(x, okx)+" ours="+quote(y, oky))
		}
	}
	return strings.Join(out, "; ")
}

func quote(s string, ok bool) string {
	if !ok {
		return "<missing>"
	}
	return "\"" + strings.ReplaceAll(s, "\n", `\n`) + "\""
}

func runDiff(t *testing.T, cases []dcase) {
	bin := realSed(t)
	for _, dc := range cases {
		name := strings.Join(dc.args, " ")
		g := runGNU(t, bin, dc)
		if g.timedOut {
			continue // an endless script
		}
		o := runOurs(dc)
		if g.stdout != o.stdout || g.stderr != o.stderr || g.code != o.code {
			t.Errorf("sed %s (stdin %q files %q)\n gnu:  out=%q err=%q code=%d\n ours: out=%q err=%q code=%d",
				name, dc.stdin, dc.files, g.stdout, g.stderr, g.code, o.stdout, o.stderr, o.code)
			continue
		}
		if d := diffFiles(g.files, o.files); d != "" {
			t.Errorf("sed %s: files differ: %s", name, d)
		}
	}
}

// c builds a case from arguments, with stdin "in".
func c(stdin string, args ...string) dcase { return dcase{args: args, stdin: stdin} }

// cf builds a case with files.
func cf(files map[string]string, stdin string, args ...string) dcase {
	return dcase{args: args, stdin: stdin, files: files}
}
