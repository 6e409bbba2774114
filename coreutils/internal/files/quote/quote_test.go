package quote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var names = []string{"plain", "a b", "it's", `a"b`, "a\nb", "a$b", "#x", "x#", "~x", "x~", "{", "x{y", "t\tab", "\x01c",
	"é", "\xff", "a'b c", "a'b$c", "a'b!", "a'b@", "a'b%", "''", "é'", "\u200b", "\xc2\x85", "a\\b", "-x", "=x", "a:b"}

// TestAgainstLs compares every style with GNU ls --quoting-style.
func TestAgainstLs(t *testing.T) {
	if _, err := exec.LookPath("ls"); err != nil {
		t.Skip("no ls")
	}
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range Styles {
		for _, n := range names {
			cmd := exec.Command("ls", "-1", "--quoting-style="+st.Name, "--", n)
			cmd.Dir = dir
			cmd.Env = []string{"LANG=C.UTF-8"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("ls %q: %v", n, err)
			}
			want := strings.TrimSuffix(string(out), "\n")
			if got := Quote(n, st.Style); got != want {
				t.Errorf("%s %q: got %q want %q", st.Name, n, got, want)
			}
		}
	}
}

func TestWidth(t *testing.T) {
	for s, w := range map[string]int{"abc": 3, "é": 1, "日本": 4, "a\tb": 2, "e\u0301": 1, "\xff": 1} {
		if got := Width(s); got != w {
			t.Errorf("Width(%q) = %d, want %d", s, got, w)
		}
	}
}

func TestQ(t *testing.T) {
	if got := Q("x", true); got != "\u2018x\u2019" {
		t.Errorf("Q utf8: %q", got)
	}
	if got := Q("x", false); got != "'x'" {
		t.Errorf("Q C: %q", got)
	}
	if !UTF8Locale(func(k string) string { return map[string]string{"LANG": "C.UTF-8"}[k] }) {
		t.Error("C.UTF-8 is UTF-8")
	}
	if UTF8Locale(func(k string) string { return map[string]string{"LC_ALL": "C", "LANG": "C.UTF-8"}[k] }) {
		t.Error("LC_ALL=C wins")
	}
}
