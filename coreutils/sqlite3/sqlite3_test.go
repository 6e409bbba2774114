package sqlite3_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/sqlite3"
)

func TestDatabaseLivesInTheSandbox(t *testing.T) {
	e := &cmdtest.Env{}
	fsys := e.NewFS()
	r := e.RunIn(fsys, sqlite3.Run, "sqlite3", "d.db", "create table t(a, b); insert into t values (1, 'x'), (2, null)")
	if r.Code != 0 {
		t.Fatalf("create: %d %q", r.Code, r.Stderr)
	}
	fi, err := fsys.Stat("/work/d.db")
	if err != nil || fi.Size() == 0 {
		t.Fatalf("database file: %v %v", fi, err)
	}
	r = e.RunIn(fsys, sqlite3.Run, "sqlite3", "-json", "/work/d.db", "select * from t order by a")
	if r.Stdout != "[{\"a\":1,\"b\":\"x\"},\n{\"a\":2,\"b\":null}]\n" {
		t.Fatalf("select: %q %q", r.Stdout, r.Stderr)
	}
	// Temporary files (a large sort, a temp table) work without a name.
	r = e.RunIn(fsys, sqlite3.Run, "sqlite3", "d.db", "pragma temp_store=file; create temp table x as select a from t; select count(*) from x")
	if r.Stdout != "2\n" {
		t.Fatalf("temp: %q %q", r.Stdout, r.Stderr)
	}
}

func TestCompleteStatements(t *testing.T) {
	e := &cmdtest.Env{Stdin: "select 'a;b'\n;\ncreate table t(a);\ncreate trigger tr after insert on t begin\nselect 1;\nend;\nselect /* ; */ 2; -- x\n"}
	r := e.Run(sqlite3.Run, "sqlite3")
	if r.Code != 0 || r.Stdout != "a;b\n2\n" {
		t.Fatalf("%d %q %q", r.Code, r.Stdout, r.Stderr)
	}
}

func TestErrors(t *testing.T) {
	e := &cmdtest.Env{Files: map[string]string{"dir/": ""}}
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{":memory:", "select * from x"}, 1, "Error: in prepare, no such table: x\n"},
		{[]string{"dir", "select 1"}, 1, "Error: unable to open database \"dir\": unable to open database file\n"},
		{[]string{"-bogus"}, 1, "sqlite3: Error: unknown option: -bogus\nUse -help for a list of options.\n"},
		{[]string{":memory:", ".bogus"}, 1, "Error: unknown command or invalid arguments:  \"bogus\". Enter \".help\" for help\n"},
	} {
		r := e.Run(sqlite3.Run, append([]string{"sqlite3"}, tc.args...)...)
		if r.Code != tc.code || r.Stderr != tc.err {
			t.Errorf("%q: %d %q", tc.args, r.Code, r.Stderr)
		}
	}
}

// Calls at once each have their own VFS and connection.
func TestConcurrentCalls(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := &cmdtest.Env{}
			q := fmt.Sprintf("create table t(x); insert into t values (%d); select x * 2 from t", i)
			r := e.Run(sqlite3.Run, "sqlite3", "f.db", q)
			if r.Code != 0 || strings.TrimSpace(r.Stdout) != fmt.Sprint(i*2) {
				t.Errorf("%d: %d %q %q", i, r.Code, r.Stdout, r.Stderr)
			}
		}()
	}
	wg.Wait()
}
