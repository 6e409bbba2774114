package bashtool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func envMap(env [][2]string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		m[kv[0]] = kv[1]
	}
	return m
}

func TestSecretShaped(t *testing.T) {
	for _, n := range []string{"OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "DB_PASSWORD",
		"NPM_TOKEN", "STRIPE_KEY", "MY_APIKEY", "SLACK_CLIENT_SECRET", "PGPASSWORD", "SENTRY_DSN", "GH_PAT", "VAULT_PASS",
		"GOOGLE_APPLICATION_CREDENTIALS", "SSH_PRIVATE_KEY", "BASHBOX_TOKEN", "api_key", "x_auth"} {
		if !SecretShaped(n) {
			t.Errorf("%s should be secret-shaped", n)
		}
	}
	for _, n := range []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "GOPATH", "GIT_AUTHOR_NAME", "PWD", "EDITOR",
		"XDG_CONFIG_HOME", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "KEYBOARD", "CI", "NO_COLOR"} {
		if SecretShaped(n) {
			t.Errorf("%s should not be secret-shaped", n)
		}
	}
}

func TestBuildEnv(t *testing.T) {
	host := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=C", "https_proxy=http://proxy:3128", "CI=true",
		"OPENAI_API_KEY=sk-1", "GITHUB_TOKEN=ghp-1", "MYAPP_MODE=dev", "MYAPP_SECRET=s", "RANDOM_VAR=x",
		"SYSTEMROOT=C:\\Windows", "PAGER=less", "NODE_OPTIONS=--require evil.js", "GIT_SSH_COMMAND=evil",
	}
	env := envMap(BuildEnv(host, nil))
	for _, want := range []string{"PATH", "HOME", "LC_ALL", "https_proxy", "CI", "SYSTEMROOT"} {
		if _, ok := env[want]; !ok {
			t.Errorf("default allowlist lost %s", want)
		}
	}
	for _, gone := range []string{"OPENAI_API_KEY", "GITHUB_TOKEN", "MYAPP_MODE", "RANDOM_VAR", "NODE_OPTIONS", "GIT_SSH_COMMAND"} {
		if _, ok := env[gone]; ok {
			t.Errorf("%s passed without being allowed", gone)
		}
	}
	if env["PAGER"] != "cat" || env["GIT_PAGER"] != "cat" || env["GIT_TERMINAL_PROMPT"] != "0" || env["GIT_EDITOR"] != "true" {
		t.Errorf("non-interactive defaults: %v", env)
	}
	// The operator extends; a prefix never admits a secret, an exact name does.
	env = envMap(BuildEnv(host, []string{"MYAPP_*", "GITHUB_TOKEN", "PAGER"}))
	if env["MYAPP_MODE"] != "dev" || env["GITHUB_TOKEN"] != "ghp-1" || env["PATH"] != "/usr/bin" {
		t.Errorf("operator list not applied: %v", env)
	}
	if _, ok := env["MYAPP_SECRET"]; ok {
		t.Error("a prefix admitted a secret-shaped name")
	}
	if _, ok := env["OPENAI_API_KEY"]; ok {
		t.Error("unlisted secret passed")
	}
	if env["PAGER"] != "less" {
		t.Errorf("operator-passed PAGER should win, got %q", env["PAGER"])
	}
	// Listing a default name again (or a smaller list) cannot shrink the defaults.
	env = envMap(BuildEnv(host, []string{"PATH"}))
	if _, ok := env["HOME"]; !ok {
		t.Error("operator list shrank the defaults")
	}
}

func TestHeadTailCapture(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := newHeadTail(100, f)
	h.Write([]byte("short"))
	if s, tr := h.render(f.Name()); s != "short" || tr {
		t.Fatalf("short output: %q %v", s, tr)
	}
	body := strings.Repeat("é", 200) // 400 bytes of 2-byte runes
	for i := 0; i < 10; i++ {
		h.Write([]byte(body[i*40 : (i+1)*40]))
	}
	h.Write([]byte("THE-END"))
	s, tr := h.render(f.Name())
	if !tr || !strings.Contains(s, f.Name()) || !strings.HasSuffix(s, "THE-END") || !strings.HasPrefix(s, "shortéé") {
		t.Fatalf("capped output %q", s)
	}
	if !utf8.ValidString(s) {
		t.Fatalf("cut inside a rune: %q", s)
	}
	saved, _ := os.ReadFile(f.Name())
	if string(saved) != "short"+body+"THE-END" {
		t.Fatalf("saved %d bytes", len(saved))
	}
	// One huge write keeps the last bytes.
	h2 := newHeadTail(10, nil)
	h2.Write([]byte("0123456789abcdefghijklmnopqrstuvwxyz"))
	if s, _ := h2.render(""); !strings.HasPrefix(s, "01234") || !strings.HasSuffix(s, "vwxyz") {
		t.Fatalf("got %q", s)
	}
}

func TestStreamBufferDropsOldestWhenFull(t *testing.T) {
	b := &streamBuffer{limit: 8}
	b.Write([]byte("abcdef"))
	b.Write([]byte("ghijkl"))
	s, dropped := b.take()
	if s != "efghijkl" || dropped != 4 {
		t.Fatalf("got %q dropped %d", s, dropped)
	}
	if s, d := b.take(); s != "" || d != 0 {
		t.Fatalf("second take %q %d", s, d)
	}
}

func TestLooksNetworkDependent(t *testing.T) {
	for _, c := range []string{"curl https://x", "wget x", "git clone https://x", "git  fetch origin", "npm install", "pnpm add x",
		"yarn", "pip install requests", "python -m pip install x", "cargo fetch", "cargo install ripgrep", "apt-get update",
		"brew install jq", "ssh host", "go mod download", "g''it pull"} {
		if !looksNetworkDependent(c) {
			t.Errorf("%q should look network-dependent", c)
		}
	}
	for _, c := range []string{"go test ./...", "git status", "npm test", "ls", "cargo build", "make"} {
		if looksNetworkDependent(c) {
			t.Errorf("%q should not look network-dependent", c)
		}
	}
}
