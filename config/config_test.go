package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestExampleDocumentsEveryKey: bashbox.example.yaml loads, and every key
// the configuration accepts appears in it at its place.
func TestExampleDocumentsEveryKey(t *testing.T) {
	t.Setenv("BASHBOX_TOKEN", "example-token")
	t.Chdir("..") // the example's host directories are relative to the repository
	data, err := os.ReadFile("bashbox.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("bashbox.example.yaml", data); err != nil {
		t.Fatalf("the example does not load: %v", err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	keys := keysOf(reflect.TypeFor[File](), "")
	if len(keys) < 30 {
		t.Fatalf("only %d keys found: %v", len(keys), keys)
	}
	for _, k := range keys {
		if !hasPath(root.Content[0], strings.Split(k, ".")) {
			t.Errorf("bashbox.example.yaml does not show the key %s", k)
		}
	}
}

// hasPath says whether some mapping path matches keys, "*" matching any name.
func hasPath(n *yaml.Node, keys []string) bool {
	if len(keys) == 0 {
		return true
	}
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if (keys[0] == "*" || n.Content[i].Value == keys[0]) && hasPath(n.Content[i+1], keys[1:]) {
			return true
		}
	}
	return false
}

// goTypeRE matches what would betray the Go implementation in a message.
var goTypeRE = regexp.MustCompile(`config\.|time\.Duration|int64|\bint\b|!!|unmarshal|yaml:|EOF|reflect|struct`)

func TestErrorsNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		yaml, want string // want: the error's text after the file name
	}{
		{"", ": the file is empty"},
		{"# only a comment\n", ": the file is empty"},
		{"server: 5\nprofiles: {a: {}}\n", `:1:9: server: want a mapping of keys (http, max_concurrent`},
		{"server:\n  max_concurrent: lots\nprofiles: {a: {}}\n", `:2:19: server.max_concurrent: want a whole number; got "lots"`},
		{"server:\n  max_queue: -3\nprofiles: {a: {}}\n", `:2:14: server.max_queue: must not be negative`},
		{"server:\n  session_idle_timeout: 10\nprofiles: {a: {}}\n", `:2:25: server.session_idle_timeout: want a duration with a unit`},
		{"server:\n  audit_scripts: maybe\nprofiles: {a: {}}\n", `:2:18: server.audit_scripts: want true or false`},
		{"server:\n  htp: x\nprofiles: {a: {}}\n", `:2:3: server.htp: unknown key; the keys here are http, max_concurrent`},
		{"profiles:\n  a:\n    limits:\n      max_output: lots\n", `:4:19: profiles.a.limits.max_output: want a size in bytes`},
		{"profiles:\n  a:\n    limits:\n      timeout: forever\n", `:4:16: profiles.a.limits.timeout: want a duration with a unit, e.g. 30s`},
		{"profiles:\n  a:\n    limits:\n      timeout: -5s\n", `:4:16: profiles.a.limits.timeout: must not be negative`},
		{"profiles:\n  a:\n    workers: -1\n", `:3:14: profiles.a.workers: must not be negative`},
		{"profiles:\n  a:\n    volumes: repo\n", `:3:14: profiles.a.volumes: want a list`},
		{"profiles:\n  a:\n    env: [A=1]\n", `:3:10: profiles.a.env: want a mapping of names to values; got a list`},
		{"profiles:\n  a:\n    volumes: [nosuch]\n", `:3:5: profiles.a.volumes: unknown volume "nosuch"`},
		{"profiles:\n  a:\n    bash_tool: {enabled: true}\n", `:3:5: profiles.a.bash_tool: the Bash tool needs a root`},
		{"volumes:\n  r: {host: " + dir + "}\nprofiles:\n  a:\n    volumes: [r]\n    bash_tool: {enabled: true}\n", `:6:5: profiles.a.bash_tool: the Bash tool may write in its root, and the profile's first volume r is read-only`},
		{"volumes:\n  r: {host: " + dir + ", mode: rx}\nprofiles: {a: {}}\n", `:2:`},
		{"profiles:\n  a:\n    volumes: [x\n", `:2: not valid YAML`},
		{"volumes:\n  r: {host: /nonexistent-xyz}\nprofiles: {a: {}}\n", `:2:7: volumes.r.host: host directory /nonexistent-xyz does not exist`},
		{"volumes: {}\n", `: profiles: at least one profile is required`},
	}
	for _, c := range cases {
		name := filepath.Join(dir, "bashbox.yaml")
		if err := os.WriteFile(name, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(name)
		if err == nil {
			t.Errorf("%q: accepted", c.yaml)
			continue
		}
		if !strings.HasPrefix(err.Error(), name+c.want) {
			t.Errorf("%q:\n got %s\nwant %s%s...", c.yaml, err, name, c.want)
		}
		if m := goTypeRE.FindString(strings.TrimPrefix(err.Error(), name)); m != "" {
			t.Errorf("%q: the error names Go internals (%q): %s", c.yaml, m, err)
		}
	}
}

func TestBashToolRootIsFirstVolume(t *testing.T) {
	dir := t.TempDir()
	f, err := Parse("x.yaml", []byte("volumes:\n  w: {host: "+dir+", mode: rw}\nprofiles:\n  a:\n    volumes: [w]\n    bash_tool: {enabled: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Profiles["a"].BashTool.Root; got != dir {
		t.Fatalf("bash_tool root %q, want the first volume's host directory %q", got, dir)
	}
}

// TestWorkersReachTheBox: a profile's workers is the box's Config.Workers.
func TestWorkersReachTheBox(t *testing.T) {
	f, err := Parse("x.yaml", []byte("profiles:\n  a:\n    workers: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := f.BoxConfig("a")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Workers != 2 {
		t.Fatalf("Config.Workers %d, want 2", cfg.Workers)
	}
}
