package serve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRunReturnsChanges(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, out := post(t, ts.URL, "secret-token", `{"script":"echo bye > hello.txt","changes":"diff"}`)
	ch, _ := out["changes"].(map[string]any)
	if resp.StatusCode != 200 || ch == nil || ch["volume"] != "/work" || ch["count"] != float64(1) {
		t.Fatalf("%d %v", resp.StatusCode, out)
	}
	if data, _ := ch["data"].(string); !strings.Contains(data, "-hello from the volume\n+bye\n") {
		t.Fatalf("diff %q", data)
	}
	for _, bad := range []string{`"changes":"patch"`, `"changes":"diff:/nowhere"`} {
		resp, out = post(t, ts.URL, "secret-token", `{"script":"true",`+bad+`}`)
		if resp.StatusCode != 400 || out["error"] == nil {
			t.Errorf("%s: %d %v", bad, resp.StatusCode, out)
		}
	}
}

func getChanges(t *testing.T, url, token string) (*http.Response, string) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func TestSessionChangesEndpoint(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	_, out := post(t, ts.URL, "secret-token", `{"script":"echo one > a.txt","session":"new"}`)
	id, _ := out["session"].(string)
	post(t, ts.URL, "secret-token", `{"script":"echo two >> a.txt; rm hello.txt","session":"`+id+`"}`)
	resp, body := getChanges(t, ts.URL+"/v1/sessions/"+id+"/changes?format=diff", "secret-token")
	if resp.StatusCode != 200 || resp.Header.Get("X-Bashbox-Changes-Count") != "2" ||
		!strings.Contains(body, "+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n") || !strings.Contains(body, "deleted file mode 100644") {
		t.Fatalf("%d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	resp, body = getChanges(t, ts.URL+"/v1/sessions/"+id+"/changes?format=json", "secret-token")
	var list []map[string]any
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list) != 2 || list[0]["op"] != "deleted" {
		t.Fatalf("json: %v %s", err, body)
	}
	for _, c := range []struct {
		url, token string
		code       int
	}{
		{"/v1/sessions/" + id + "/changes", "other-token", 404}, // another profile's session
		{"/v1/sessions/nosuch/changes", "secret-token", 404},
		{"/v1/sessions/" + id + "/changes?format=zip", "secret-token", 400},
		{"/v1/sessions/" + id + "/changes", "", 401},
	} {
		if resp, body := getChanges(t, ts.URL+c.url, c.token); resp.StatusCode != c.code {
			t.Errorf("%s: %d %s", c.url, resp.StatusCode, body)
		}
	}
}

// mcpClient connects an in-memory MCP client to the default profile's
// server; the session closes with the test.
func mcpClient(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	srv, err := s.MCPServer("default")
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	go srv.Run(context.Background(), st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestMCPChangesField(t *testing.T) {
	s, _ := newServer(t)
	cs := mcpClient(t, s)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{"command": "echo new > n.txt", "changes": "json"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	sc, _ := json.Marshal(res.StructuredContent)
	var got struct {
		Changes struct {
			Volume, Format, Data string
			Count                int
		}
	}
	json.Unmarshal(sc, &got)
	if !strings.Contains(text, "[changes of /work: 1 entry in json form") || got.Changes.Volume != "/work" || got.Changes.Count != 1 || !strings.Contains(got.Changes.Data, `"path":"n.txt"`) {
		t.Fatalf("text %q structured %s", text, sc)
	}
}
