package serve

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bashbox/bashbox/config"
)

// call sends one API request and returns the response with its body read.
func call(t *testing.T, method, url, token string, body io.Reader, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return m
}

func TestSessionAPI(t *testing.T) {
	s, log := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, body := call(t, "POST", ts.URL+"/v1/sessions", "secret-token", nil)
	if resp.StatusCode != 201 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	a := decode(t, body)
	id := a["id"].(string)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) || resp.Header.Get("Location") != "/v1/sessions/"+id {
		t.Fatalf("id %q, location %q", id, resp.Header.Get("Location"))
	}
	_, out := post(t, ts.URL, "secret-token", `{"script":"cd /tmp && head -c 1000 /dev/zero > f","session":"`+id+`"}`)
	if out["session"] != id || out["exit_code"] != float64(0) {
		t.Fatalf("run in session: %v", out)
	}
	if !strings.Contains(log.String(), `"session":"`+id+`"`) {
		t.Fatalf("audit line lacks the session id: %s", log.String())
	}
	// A second session through "new"; the profile's limit is two.
	_, out = post(t, ts.URL, "secret-token", `{"script":"true","session":"new"}`)
	id2, _ := out["session"].(string)
	if id2 == "" || id2 == id || strings.Contains(log.String(), `"session":"new"`) {
		t.Fatalf("new session: %v", out)
	}
	resp, body = call(t, "POST", ts.URL+"/v1/sessions", "secret-token", nil)
	if resp.StatusCode != 429 || decode(t, body)["field"] != "session" {
		t.Fatalf("over the limit: %d %s", resp.StatusCode, body)
	}
	_, body = call(t, "GET", ts.URL+"/v1/sessions", "secret-token", nil)
	var list struct{ Sessions []SessionInfo }
	json.Unmarshal(body, &list)
	if len(list.Sessions) != 2 || list.Sessions[0].ID != id || list.Sessions[0].Size < 1000 || list.Sessions[0].Workdir != "/tmp" ||
		list.Sessions[0].Created.IsZero() || list.Sessions[0].LastUsed.Before(list.Sessions[0].Created) {
		t.Fatalf("list: %s", body)
	}
	// Another profile sees none of them: 404, as for ids that never were.
	_, body = call(t, "GET", ts.URL+"/v1/sessions", "other-token", nil)
	if string(body) != "{\"sessions\":[]}\n" {
		t.Fatalf("other profile's list: %s", body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if resp, _ := call(t, m, ts.URL+"/v1/sessions/"+id, "other-token", nil); resp.StatusCode != 404 {
			t.Fatalf("%s from another profile: %d", m, resp.StatusCode)
		}
	}
	if resp, _ := call(t, "GET", ts.URL+"/v1/sessions/"+id+"/files/tmp/f", "other-token", nil); resp.StatusCode != 404 {
		t.Fatalf("file from another profile: %d", resp.StatusCode)
	}
	if resp, _ := post(t, ts.URL, "other-token", `{"script":"true","session":"`+id+`"}`); resp.StatusCode != 404 {
		t.Fatalf("run from another profile: %d", resp.StatusCode)
	}
	// A running session is locked: 409 for a second call, a file, a delete.
	done := make(chan struct{})
	go func() {
		defer close(done)
		post(t, ts.URL, "secret-token", `{"script":"sleep 2","session":"`+id+`"}`)
	}()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, body := call(t, "GET", ts.URL+"/v1/sessions/"+id, "secret-token", nil)
		if decode(t, body)["busy"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session never became busy")
		}
	}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/v1/run", `{"script":"true","session":"` + id + `"}`},
		{"GET", "/v1/sessions/" + id + "/files/tmp/f", ""},
		{"PUT", "/v1/sessions/" + id + "/files/tmp/g", "x"},
		{"DELETE", "/v1/sessions/" + id, ""},
	} {
		resp, body := call(t, c.method, ts.URL+c.path, "secret-token", strings.NewReader(c.body))
		if resp.StatusCode != 409 {
			t.Errorf("%s %s while running: %d %s", c.method, c.path, resp.StatusCode, body)
		}
	}
	<-done
	if resp, body := call(t, "DELETE", ts.URL+"/v1/sessions/"+id, "secret-token", nil); resp.StatusCode != 204 {
		t.Fatalf("delete: %d %s", resp.StatusCode, body)
	}
	if resp, _ := post(t, ts.URL, "secret-token", `{"script":"true","session":"`+id+`"}`); resp.StatusCode != 404 {
		t.Fatalf("run on a deleted session: %d", resp.StatusCode)
	}
	// The freed place takes a new session at once.
	if resp, _ := call(t, "POST", ts.URL+"/v1/sessions", "secret-token", nil); resp.StatusCode != 201 {
		t.Fatalf("create after delete: %d", resp.StatusCode)
	}
}

func TestFilesAPI(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	hostDir := s.cfg.Volumes["repo"].Host
	_, body := call(t, "POST", ts.URL+"/v1/sessions", "secret-token", nil)
	base := ts.URL + "/v1/sessions/" + decode(t, body)["id"].(string)
	for _, size := range []int{0, 1, 300_001, 50 << 20} {
		data := make([]byte, size)
		rand.Read(data)
		// Onto the read-only volume: the write lands in the session's overlay.
		start := time.Now()
		resp, body := call(t, "PUT", base+"/files/work/sub/blob.bin", "secret-token", bytes.NewReader(data))
		if resp.StatusCode != 200 || decode(t, body)["size"] != float64(size) {
			t.Fatalf("put %d: %d %s", size, resp.StatusCode, body)
		}
		resp, got := call(t, "GET", base+"/files/work/sub/blob.bin", "secret-token", nil)
		if resp.StatusCode != 200 || sha256.Sum256(got) != sha256.Sum256(data) {
			t.Fatalf("get %d: %d, %d bytes back", size, resp.StatusCode, len(got))
		}
		t.Logf("%d bytes: PUT and GET in %v", size, time.Since(start))
	}
	if _, err := os.Stat(filepath.Join(hostDir, "sub")); err == nil {
		t.Fatal("a write reached the read-only host directory")
	}
	// The script sees what was put, and the API sees what the script wrote.
	_, out := post(t, ts.URL, "secret-token", `{"script":"wc -c sub/blob.bin; printf 'a\\0b' > /tmp/out.bin","session":"`+strings.TrimPrefix(base, ts.URL+"/v1/sessions/")+`"}`)
	if out["stdout"] != "52428800 sub/blob.bin\n" {
		t.Fatalf("script view: %v", out)
	}
	if _, got := call(t, "GET", base+"/files/tmp/out.bin", "secret-token", nil); string(got) != "a\x00b" {
		t.Fatalf("script's file: %q", got)
	}
	// Directories go both ways as tar.
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	// A slice, not a map: the memory layer lists in creation order, so the
	// tar that comes back follows the order the entries went in.
	for _, e := range []struct{ name, content string }{{"a.txt", "A\n"}, {"d/b.bin", "\x00\x01\x02"}} {
		tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.content)), Typeflag: tar.TypeReg})
		tw.Write([]byte(e.content))
	}
	tw.WriteHeader(&tar.Header{Name: "link", Linkname: "a.txt", Typeflag: tar.TypeSymlink})
	tw.Close()
	resp, body := call(t, "PUT", base+"/files/tmp/tree", "secret-token", &tb, "Content-Type", "application/x-tar")
	if resp.StatusCode != 200 || decode(t, body)["files"] != float64(2) {
		t.Fatalf("tar put: %d %s", resp.StatusCode, body)
	}
	resp, got := call(t, "GET", base+"/files/tmp/tree", "secret-token", nil)
	if resp.Header.Get("Content-Type") != "application/x-tar" {
		t.Fatalf("directory get: %s", resp.Header.Get("Content-Type"))
	}
	tr := tar.NewReader(bytes.NewReader(got))
	var names []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		data, _ := io.ReadAll(tr)
		names = append(names, h.Name+"="+string(data)+h.Linkname)
	}
	if strings.Join(names, " ") != "a.txt=A\n d/= d/b.bin=\x00\x01\x02 link=a.txt" {
		t.Fatalf("tar got %q", names)
	}
	// Errors name the path, with the status of what went wrong.
	for _, c := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/files/tmp/nosuch", 404},
		{"PUT", "/files/bin/ls", 409}, // the command list is not writable
		{"GET", "/files/tmp/tree/a.txt/x", 404},
	} {
		resp, body := call(t, c.method, base+c.path, "secret-token", strings.NewReader("x"))
		if resp.StatusCode != c.code || decode(t, body)["field"] != "path" {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, resp.StatusCode, body, c.code)
		}
	}
	if resp, _ := call(t, "GET", ts.URL+"/v1/sessions/nosuch/files/tmp", "secret-token", nil); resp.StatusCode != 404 {
		t.Fatalf("unknown session: %d", resp.StatusCode)
	}
}

func TestFilesOverlayBudget(t *testing.T) {
	s, _ := newServerWith(t, "  small:\n    volumes: [repo]\n    token: small-token\n    sessions: {max: 1}\n    limits: {max_overlay_bytes: 1MiB}\n")
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	_, body := call(t, "POST", ts.URL+"/v1/sessions", "small-token", nil)
	base := ts.URL + "/v1/sessions/" + decode(t, body)["id"].(string)
	resp, body := call(t, "PUT", base+"/files/tmp/big", "small-token", bytes.NewReader(make([]byte, 2<<20)))
	if resp.StatusCode != 413 || !strings.Contains(string(body), "overlay budget") {
		t.Fatalf("over budget: %d %s", resp.StatusCode, body)
	}
	if resp, _ := call(t, "GET", base+"/files/tmp/big", "small-token", nil); resp.StatusCode != 404 {
		t.Fatalf("a refused upload left a file: %d", resp.StatusCode)
	}
	// Per-call files are charged the same way.
	resp, body = call(t, "POST", ts.URL+"/v1/run", "small-token", strings.NewReader(`{"script":"true","files":{"/tmp/x":"`+strings.Repeat("x", 2<<20)+`"}}`))
	if resp.StatusCode != 413 && resp.StatusCode != 400 {
		t.Fatalf("files over budget: %d %s", resp.StatusCode, body)
	}
}

func TestRequestShape(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for _, body := range []string{`{"script":"sleep 5","timeout":"300ms"}`, `{"script":"sleep 5","timeout":0.3}`, `{"script":"sleep 5","timeout":"0.3"}`} {
		start := time.Now()
		resp, out := post(t, ts.URL, "secret-token", body)
		if resp.StatusCode != 200 || out["exit_code"] != float64(124) || time.Since(start) > 3*time.Second {
			t.Fatalf("%s: %d %v", body, resp.StatusCode, out)
		}
	}
	_, out := post(t, ts.URL, "secret-token", `{"script":"cat /tmp/in/a.txt; echo \"$GREETING\"; cat","stdin":"from stdin\n","env":{"GREETING":"hi there"},"files":{"/tmp/in/a.txt":"from files\n"},"volume":"work"}`)
	if out["stdout"] != "from files\nhi there\nfrom stdin\n" {
		t.Fatalf("request fields: %v", out)
	}
	cases := []struct {
		body, field string
		code        int
	}{
		{`{"script":"true","timeout":"1 sec"}`, "timeout", 400},
		{`{"script":"true","timeout":-1}`, "timeout", 400},
		{`{"script":"true","timeout":true}`, "timeout", 400},
		{`{"script":1}`, "script", 400},
		{`{}`, "script", 400},
		{`{"script":"true","env":{"1X":"y"}}`, "env", 400},
		{`{"script":"true","env":{"X":1}}`, "env", 400},
		{`{"script":"true","files":{"":"y"}}`, "files", 400},
		{`{"script":"true","volume":"/nosuch"}`, "volume", 400},
		{`{"script":"true","volume":"/work","session":"new"}`, "volume", 400},
		{`{"script":"true","bogus":1}`, "bogus", 400},
		{`{"script":"true","profile":"other"}`, "profile", 403},
		{`{"script":"true","profile":"nosuch"}`, "profile", 403},
	}
	for _, c := range cases {
		resp, out := post(t, ts.URL, "secret-token", c.body)
		if resp.StatusCode != c.code || out["field"] != c.field || out["error"] == "" {
			t.Errorf("%s: %d %v, want %d naming %s", c.body, resp.StatusCode, out, c.code, c.field)
		}
	}
	// MCP takes the same fields, with the same refusals.
	srv, _ := s.MCPServer("default")
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{
		"script": "cat /tmp/in/a.txt; echo \"$GREETING\"; cat", "stdin": "from stdin\n", "env": map[string]string{"GREETING": "hi there"},
		"files": map[string]string{"/tmp/in/a.txt": "from files\n"}, "volume": "/work", "timeout": "5s"}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "from files\nhi there\nfrom stdin\n" {
		t.Fatalf("MCP fields: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{"script": "true", "volume": "/nosuch"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "volume: unknown volume") {
		t.Fatalf("MCP refusal: %v %+v", err, res)
	}
}

func TestMCPFileTools(t *testing.T) {
	rw := t.TempDir()
	cfg, err := config.Parse("test.yaml", []byte("volumes:\n  repo: {host: "+t.TempDir()+", guest: /work}\n  scratch: {host: "+rw+", guest: /out, mode: rw}\n"+
		"profiles:\n  default: {volumes: [repo], token: a, sessions: {max: 2}}\n  rw: {volumes: [scratch], token: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(cfg.Volumes["repo"].Host, "hello.txt"), []byte("hello from the volume\n"), 0o644)
	s, _ := newServerCfg(t, cfg)
	srv, _ := s.MCPServer("default")
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callTool := func(name string, args map[string]any) (string, map[string]any, bool) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		json.Unmarshal(sc, &m)
		return res.Content[0].(*mcp.TextContent).Text, m, res.IsError
	}
	text, out, isErr := callTool("write_file", map[string]any{"path": "notes/a.txt", "content": "AAEC/w==", "encoding": "base64", "session": "new"})
	id, _ := out["session"].(string)
	if isErr || id == "" || out["path"] != "/work/notes/a.txt" || out["size"] != float64(4) {
		t.Fatalf("write_file: %s %v", text, out)
	}
	_, out, _ = callTool("read_file", map[string]any{"path": "/work/notes/a.txt", "session": id})
	if out["content"] != "AAEC/w==" || out["encoding"] != "base64" {
		t.Fatalf("read_file binary: %v", out)
	}
	callTool("write_file", map[string]any{"path": "/tmp/t.txt", "content": "hello\n", "session": id})
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{"script": "cat /tmp/t.txt; od -An -tx1 notes/a.txt", "session": id}})
	if got := res.Content[0].(*mcp.TextContent).Text; got != "hello\n 00 01 02 ff\n" {
		t.Fatalf("script view of written files: %q", got)
	}
	text, _, _ = callTool("read_file", map[string]any{"path": "/tmp/t.txt", "session": id})
	if text != "hello\n" {
		t.Fatalf("read_file text: %q", text)
	}
	// Without a session, only a rw volume keeps a write; reads see the volumes.
	text, _, isErr = callTool("write_file", map[string]any{"path": "/work/x", "content": "x"})
	if !isErr || !strings.Contains(text, "would vanish") {
		t.Fatalf("stateless write to ro: %s", text)
	}
	text, _, isErr = callTool("read_file", map[string]any{"path": "/work/hello.txt"})
	if isErr || text != "hello from the volume\n" {
		t.Fatalf("stateless read: %s", text)
	}
	text, _, isErr = callTool("read_file", map[string]any{"path": "/work/nosuch"})
	if !isErr || !strings.Contains(text, "no such file") {
		t.Fatalf("missing file: %s", text)
	}
	srv2, _ := s.MCPServer("rw")
	ct2, st2 := mcp.NewInMemoryTransports()
	go srv2.Run(ctx, st2)
	cs2, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs2.Close()
	res, err = cs2.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "/out/result.txt", "content": "kept\n"}})
	if err != nil || res.IsError {
		t.Fatal(err, res)
	}
	if data, _ := os.ReadFile(filepath.Join(rw, "result.txt")); string(data) != "kept\n" {
		t.Fatalf("rw volume write: %q", data)
	}
	// The same over HTTP without a session: rw volumes only for writes.
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	data := make([]byte, 1<<20)
	rand.Read(data)
	if resp, body := call(t, "PUT", ts.URL+"/v1/files/out/deep/blob.bin", "b", bytes.NewReader(data)); resp.StatusCode != 200 {
		t.Fatalf("put into rw volume: %d %s", resp.StatusCode, body)
	}
	if got, _ := os.ReadFile(filepath.Join(rw, "deep/blob.bin")); !bytes.Equal(got, data) {
		t.Fatal("rw volume file differs")
	}
	if _, got := call(t, "GET", ts.URL+"/v1/files/out/deep/blob.bin", "b", nil); !bytes.Equal(got, data) {
		t.Fatal("rw volume file read back differs")
	}
	if resp, body := call(t, "PUT", ts.URL+"/v1/files/work/x", "a", strings.NewReader("x")); resp.StatusCode != 409 || !strings.Contains(string(body), "would vanish") {
		t.Fatalf("put outside rw volumes: %d %s", resp.StatusCode, body)
	}
	if _, got := call(t, "GET", ts.URL+"/v1/files/work/hello.txt", "a", nil); string(got) != "hello from the volume\n" {
		t.Fatalf("read from ro volume: %q", got)
	}
}

func TestOperations(t *testing.T) {
	cfg := testConfig(t, "")
	cfg.Server.MetricsToken = "metrics-secret"
	s, log := newServerCfg(t, cfg)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	// Request ids: the client's when sane, else a new one; in the audit line
	// with the client address.
	resp, _ := call(t, "POST", ts.URL+"/v1/run", "secret-token", strings.NewReader(`{"script":"echo"}`), "X-Request-Id", "req-42")
	if resp.Header.Get("X-Request-Id") != "req-42" || !strings.Contains(log.String(), `"request_id":"req-42","client":"127.0.0.1:`) {
		t.Fatalf("request id: %q, log %s", resp.Header.Get("X-Request-Id"), log.String())
	}
	resp, _ = call(t, "POST", ts.URL+"/v1/run", "secret-token", strings.NewReader(`{"script":"echo"}`), "X-Request-Id", "bad id!")
	if id := resp.Header.Get("X-Request-Id"); len(id) != 16 {
		t.Fatalf("generated request id %q", id)
	}
	// Every refusal is logged with its reason.
	refusals := []struct {
		method, path, token, body, reason string
	}{
		{"POST", "/v1/run", "", `{"script":"echo"}`, "missing or unknown bearer token"},
		{"POST", "/v1/run", "secret-token", `{"script":"` + strings.Repeat("x", 70000) + `"}`, "request body over 65536 bytes"},
		{"POST", "/v1/run", "secret-token", `{"script":""}`, "script: is required"},
		{"GET", "/v1/nosuch", "secret-token", "", "Not Found GET /v1/nosuch"},
		{"GET", "/metrics", "", "", "metrics need the metrics token"},
		{"POST", "/mcp", "", "{}", "missing or unknown bearer token"},
	}
	for _, r := range refusals {
		resp, _ := call(t, r.method, ts.URL+r.path, r.token, strings.NewReader(r.body), "X-Request-Id", "refused-"+r.method+strings.ReplaceAll(r.path, "/", "-"))
		want := `"request_id":"refused-` + r.method + strings.ReplaceAll(r.path, "/", "-") + `","client":"127.0.0.1:`
		if !strings.Contains(log.String(), want) || !strings.Contains(log.String(), `"status":`+itoa(resp.StatusCode)+`,"reason":"`+r.reason) {
			t.Errorf("%s %s (%d) not logged with its reason %q:\n%s", r.method, r.path, resp.StatusCode, r.reason, log.String())
		}
	}
	// The metrics token.
	if resp, _ := call(t, "GET", ts.URL+"/metrics", "secret-token", nil); resp.StatusCode != 401 {
		t.Fatalf("metrics with a profile token: %d", resp.StatusCode)
	}
	if resp, body := call(t, "GET", ts.URL+"/metrics", "metrics-secret", nil); resp.StatusCode != 200 || !strings.Contains(string(body), "bashbox_runs_total") {
		t.Fatalf("metrics with the metrics token: %d", resp.StatusCode)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestMCPSessionOfAnotherProfile(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Profile default opens an MCP session; the other profile's valid
	// token cannot use it: 403.
	var sessionID string
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer secret-token")
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && resp.Header.Get("Mcp-Session-Id") != "" {
			sessionID = resp.Header.Get("Mcp-Session-Id")
		}
		return resp, err
	})}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if sessionID == "" {
		t.Fatal("no MCP session id")
	}
	resp, body := call(t, "POST", ts.URL+"/mcp", "other-token", strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`),
		"Mcp-Session-Id", sessionID, "Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", "2025-06-18")
	if resp.StatusCode != 403 {
		t.Fatalf("another profile's token on the session: %d %s", resp.StatusCode, body)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestDuplicateTokens(t *testing.T) {
	dir := t.TempDir()
	yml := "volumes:\n  v: {host: " + dir + "}\nprofiles:\n  alpha: {volumes: [v], token: same}\n  beta: {volumes: [v], token: same}\n"
	_, err := config.Parse("test.yaml", []byte(yml))
	if err == nil || !strings.Contains(err.Error(), "profiles alpha and beta have the same token") {
		t.Fatalf("duplicate tokens: %v", err)
	}
	yml = "server: {metrics_token: t1}\nprofiles:\n  alpha: {token: t1}\n"
	if _, err := config.Parse("test.yaml", []byte(yml)); err == nil || !strings.Contains(err.Error(), "metrics token is profile alpha's token") {
		t.Fatalf("metrics token reused: %v", err)
	}
	yml = "server: {tls_cert: " + dir + "/nosuch.pem}\nprofiles:\n  alpha: {token: t1}\n"
	if _, err := config.Parse("test.yaml", []byte(yml)); err == nil || !strings.Contains(err.Error(), "tls_cert and tls_key go together") {
		t.Fatalf("tls half: %v", err)
	}
}
