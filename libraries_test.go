package bashbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// TM-EXEC-006: yq's library has operators that read the host's
// environment and files and run host commands.
func TestYqLibraryStaysInSandbox(t *testing.T) {
	t.Setenv("BASHBOX_YQ_CANARY", "yq-canary-31337")
	host := t.TempDir()
	secret := filepath.Join(host, "secret.yaml")
	if err := os.WriteFile(secret, []byte("s: host-secret-yq\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := roBox(t)
	script := `yq -n '.a = strenv(BASHBOX_YQ_CANARY)'; yq -n 'env(BASHBOX_YQ_CANARY)'; yq -n '"${BASHBOX_YQ_CANARY}" | envsubst'
yq -n 'load("` + secret + `")'; yq -n 'load_str("` + secret + `")'; yq -n '"` + secret + `" | load(.)'
yq -n '"cat ` + secret + `" | system(.)'; yq -n 'system("cat"; "` + secret + `")'
echo 'a: 1' > /tmp/in.yaml; yq --front-matter=process '.a' /tmp/in.yaml; yq -i '.a = 2' /tmp/in.yaml; cat /tmp/in.yaml`
	res := run(t, b, script)
	out := res.Stdout + res.Stderr
	if strings.Contains(out, "yq-canary-31337") || strings.Contains(out, "host-secret-yq") {
		t.Fatalf("yq reached the host:\n%s", out)
	}
	if !strings.Contains(res.Stdout, "a: 2") {
		t.Fatalf("yq did not work in the sandbox:\n%s", out)
	}
}

// TM-FS-014: the SQLite library's default VFS opens host files; a URI
// file name can name it (ATTACH, VACUUM INTO).
func TestSqliteStaysInSandbox(t *testing.T) {
	dir := hostTree(t)
	host := t.TempDir()
	secretDB := filepath.Join(host, "secret.db")
	if err := os.WriteFile(secretDB, []byte("not a database but secret-sqlite"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}}})
	escape := filepath.Join(host, "escape.db")
	attacks := []string{
		`sqlite3 :memory: "attach 'file:` + secretDB + `?vfs=os' as s" 'select * from s.sqlite_schema'`,
		`sqlite3 :memory: "ATTACH 'FILE:` + escape + `?vfs=os&mode=rwc' as s" 'create table s.t(x)'`,
		`sqlite3 :memory: 'create table t(x)' "vacuum into 'file:` + escape + `?vfs=os'"`,
		`sqlite3 'file:` + escape + `?vfs=os' 'create table t(x)'`,
		`sqlite3 ` + escape + ` 'create table t(x)'`,
		`sqlite3 :memory: "attach '` + secretDB + `' as s" 'select * from s.sqlite_schema'`,
		`echo ".open ` + escape + `
create table t(x);" | sqlite3`,
	}
	for _, a := range attacks {
		res := run(t, b, a)
		if strings.Contains(res.Stdout+res.Stderr, "secret-sqlite") {
			t.Fatalf("%s: read the host file: %q %q", a, res.Stdout, res.Stderr)
		}
		if _, err := os.Stat(escape); err == nil {
			t.Fatalf("%s: created a host file (stderr %q)", a, res.Stderr)
		}
	}
	// A database on the read-only volume is read, written in the overlay
	// and left unchanged on the host.
	db := filepath.Join(dir, "ro.db")
	seed := run(t, newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}}),
		`sqlite3 /work/ro.db 'create table t(x); insert into t values (1)'`)
	if seed.ExitCode != 0 {
		t.Fatalf("seed: %s", seed.Stderr)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, b, `sqlite3 /work/ro.db 'insert into t values (2)' 'select sum(x) from t'; sqlite3 /work/ro.db 'select count(*) from t'`)
	if res.Stdout != "3\n2\n" {
		t.Fatalf("overlay writes: %q %q", res.Stdout, res.Stderr)
	}
	after, _ := os.ReadFile(db)
	if string(after) != string(before) {
		t.Fatal("the read-only volume's database changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) == 0 {
		t.Fatal("volume empty")
	}
	for _, e := range []string{"ro.db-journal", "ro.db-wal"} {
		if _, err := os.Stat(filepath.Join(dir, e)); err == nil {
			t.Fatalf("%s left on the host", e)
		}
	}
}
