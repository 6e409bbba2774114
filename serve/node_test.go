package serve

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeScriptSDKClient drives `bashbox serve` over stdio with the
// official TypeScript MCP SDK (installed into testdata by .ci/run).
func TestTypeScriptSDKClient(t *testing.T) {
	// CI installs both (.ci/run), so there a missing one is a failure.
	missing := t.Skip
	if os.Getenv("CI") != "" {
		missing = t.Fatal
	}
	if _, err := os.Stat("testdata/node_modules/@modelcontextprotocol/sdk/package.json"); err != nil {
		missing("TypeScript MCP SDK not installed: npm ci --prefix serve/testdata")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not installed")
	}
	bin := filepath.Join(t.TempDir(), "bashbox")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/bashbox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "testdata/mcp-client.mjs", bin, dir).Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, out)
	}
	var got struct {
		Tools    []string `json:"tools"`
		Text     string   `json:"text"`
		Exit     int      `json:"exit"`
		Progress []string `json:"progress"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Join(got.Progress, "|") != "p1\n|p2\n" {
		t.Errorf("progress notifications: %q", got.Progress)
	}
	if strings.Join(got.Tools, " ") != "Bashbox read_file write_file" || got.Text != "original\nchanged\n" || got.Exit != 0 {
		t.Fatalf("got %+v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(data) != "original\n" {
		t.Fatalf("read-only volume changed: %q", data)
	}
}
