package jq

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestEnvIsSandboxEnv(t *testing.T) {
	t.Setenv("BASHBOX_HOST_SECRET", "leak")
	e := cmdtest.Env{Env: []string{"ONLY=this", "HOME=/h"}}
	r := e.Run(Run, "jq", "-n", "-c", "[env, $ENV, (env.BASHBOX_HOST_SECRET)]")
	if want := `[{"ONLY":"this","HOME":"/h"},{"ONLY":"this","HOME":"/h"},null]` + "\n"; r.Stdout != want {
		t.Fatalf("got %q %q, want %q", r.Stdout, r.Stderr, want)
	}
}

func TestFilesComeFromSandbox(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{"d/a.json": `{"x":1}`, "/etc/only-in-box.json": `[2]`, "f.jq": ".x"}}
	r := e.Run(Run, "jq", "-c", ". as $v | input | [$v, .]", "d/a.json", "/etc/only-in-box.json")
	if r.Stdout != "[{\"x\":1},[2]]\n" || r.Code != 0 {
		t.Fatalf("got %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = e.Run(Run, "jq", "-f", "f.jq", "d/a.json")
	if r.Stdout != "1\n" {
		t.Fatalf("-f: %q %q", r.Stdout, r.Stderr)
	}
	r = e.Run(Run, "jq", ".", "/etc/passwd")
	if r.Code != 2 || !strings.Contains(r.Stderr, "Could not open file /etc/passwd: No such file or directory") {
		t.Fatalf("host file: %d %q", r.Code, r.Stderr)
	}
}

func TestHelpVersion(t *testing.T) {
	e := cmdtest.Env{}
	r := e.Run(Run, "jq", "--version")
	if r.Stdout != "jq (bashbox) "+builtins.ReleaseVersion+"\n" || r.Code != 0 {
		t.Fatalf("--version: %q", r.Stdout)
	}
	r = e.Run(Run, "jq", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage:\tjq [options] <jq filter> [file...]\n") {
		t.Fatalf("--help: %q", r.Stdout)
	}
	r = e.Run(Run, "jq", "-h")
	if r.Code != 0 || !strings.Contains(r.Stdout, "--arg a v") {
		t.Fatalf("-h: %q", r.Stdout)
	}
}

func TestKeyOrder(t *testing.T) {
	e := cmdtest.Env{Stdin: `{"z":1,"a":{"q":1,"b":2},"m":[{"y":1,"x":2}]}`}
	for _, tc := range []struct{ filter, want string }{
		{".", `{"z":1,"a":{"q":1,"b":2},"m":[{"y":1,"x":2}]}`},
		{".a", `{"q":1,"b":2}`},
		{".n = 1", `{"z":1,"a":{"q":1,"b":2},"m":[{"y":1,"x":2}],"n":1}`},
		{"del(.a)", `{"z":1,"m":[{"y":1,"x":2}]}`},
		{".a.q += 1", `{"z":1,"a":{"q":2,"b":2},"m":[{"y":1,"x":2}]}`},
		{"{m: .m, z: .z}", `{"m":[{"y":1,"x":2}],"z":1}`},
		{"keys_unsorted", `["z","a","m"]`},
		{"[to_entries[].key]", `["z","a","m"]`},
		{".a | tojson", `"{\"q\":1,\"b\":2}"`},
		{"-S", ""},
	} {
		if tc.filter == "-S" {
			r := e.Run(Run, "jq", "-S", "-c", ".")
			if r.Stdout != `{"a":{"b":2,"q":1},"m":[{"x":2,"y":1}],"z":1}`+"\n" {
				t.Errorf("-S: %q", r.Stdout)
			}
			continue
		}
		r := e.Run(Run, "jq", "-c", tc.filter)
		if r.Stdout != tc.want+"\n" {
			t.Errorf("%s: got %q %q, want %q", tc.filter, r.Stdout, r.Stderr, tc.want)
		}
	}
}

func TestNumberFormat(t *testing.T) {
	for in, want := range map[float64]string{
		1: "1", 1.5: "1.5", 1e20: "1e+20", 1e16: "1e+16", 1e15: "1000000000000000", 0.0001: "0.0001",
		0.00001: "1e-05", 3e-7: "3e-07", 12345678901234567890: "12345678901234567000", 1.7976931348623157e308: "1.7976931348623157e+308",
		-2.5: "-2.5", 123456.789: "123456.789", 5e-324: "5e-324",
	} {
		if got := formatNumber(in); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

// The decoder skips the duplicate-key lookup while an object's keys follow
// the previous object's; a nested object (which changes the previous key
// list) or a repeated key must still give jq's last-one-wins object.
func TestDuplicateKeysAfterRecords(t *testing.T) {
	e := cmdtest.Env{Stdin: `{"a":1,"b":2}` + "\n" + `{"a":{"b":1,"a":1},"a":5}` + "\n" + `{"a":1,"b":2,"a":3}` + "\n" + `{"a":1,"a":5,"b":2}` + "\n"}
	r := e.Run(Run, "jq", "-c", "[., keys_unsorted]")
	want := `[{"a":1,"b":2},["a","b"]]` + "\n" + `[{"a":5},["a"]]` + "\n" + `[{"a":3,"b":2},["a","b"]]` + "\n" + `[{"a":5,"b":2},["a","b"]]` + "\n"
	if r.Stdout != want || r.Code != 0 {
		t.Fatalf("got %d %q %q, want %q", r.Code, r.Stdout, r.Stderr, want)
	}
}
