package serve

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/bashbox/bashbox/config"
)

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the OpenAPI document does not validate: %v", err)
	}
	return doc
}

// TestOpenAPIDocument validates the checked-in document, checks that the
// server serves it, and that the routes the server registers and the
// operations the document describes are the same set.
func TestOpenAPIDocument(t *testing.T) {
	doc := loadOpenAPI(t)
	onDisk, err := os.ReadFile("openapi.json")
	if err != nil || !bytes.Equal(onDisk, openAPIDoc) {
		t.Fatal("serve/openapi.json differs from the embedded document")
	}
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, body := call(t, "GET", ts.URL+"/v1/openapi.json", "", nil)
	if resp.StatusCode != 200 || !bytes.Equal(body, openAPIDoc) || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("served document: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}

	documented := map[string]bool{} // "METHOD /path"
	for p, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+p] = true
		}
	}
	registered := map[string]bool{}
	for _, rt := range s.routes() {
		method, p, ok := strings.Cut(rt.pattern, " ")
		if !ok { // every method: the document must describe at least one
			p, method = rt.pattern, ""
		}
		p = strings.ReplaceAll(p, "...}", "}")
		if method == "" {
			found := false
			for k := range documented {
				if strings.HasSuffix(k, " "+p) {
					registered[k], found = true, true
				}
			}
			if !found {
				t.Errorf("route %s is not in the OpenAPI document", rt.pattern)
			}
			continue
		}
		registered[method+" "+p] = true
		if !documented[method+" "+p] {
			t.Errorf("route %s is not in the OpenAPI document", rt.pattern)
		}
	}
	var extra []string
	for k := range documented {
		if !registered[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		t.Errorf("the OpenAPI document describes %s, which the server does not serve", k)
	}
}

// TestOpenAPIResponses checks real requests and responses against the
// document's schemas.
func TestOpenAPIResponses(t *testing.T) {
	doc := loadOpenAPI(t)
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	doc.Servers = openapi3.Servers{{URL: ts.URL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	auth := func(ctx context.Context, in *openapi3filter.AuthenticationInput) error { return nil }
	check := func(method, path, token, contentType, body string, want int) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		// The document's {path} holds slashes, which OpenAPI routers do not
		// match: look the route up with them escaped.
		lookup := req.Clone(context.Background())
		if head, rest, ok := strings.Cut(path, "/files/"); ok {
			lookup.URL, _ = lookup.URL.Parse(ts.URL + head + "/files/" + strings.ReplaceAll(rest, "/", "%2F"))
		}
		route, params, err := router.FindRoute(lookup)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: auth}}
		if want < 300 {
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Fatalf("%s %s: request does not match the document: %v", method, path, err)
			}
		}
		req.Body = io.NopCloser(strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, data, want)
		}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
			Options: &openapi3filter.Options{IncludeResponseStatus: true}}
		out.SetBodyBytes(data)
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s %d: response does not match the document: %v", method, path, resp.StatusCode, err)
		}
		return data
	}
	check("GET", "/healthz", "", "", "", 200)
	check("POST", "/v1/run", "secret-token", "application/json", `{"script":"echo hi; exit 3","timeout":"5s","env":{"A":"b"}}`, 200)
	check("POST", "/v1/run", "secret-token", "application/json", `{"script":"while :; do :; done","timeout":0.2}`, 200)
	check("POST", "/v1/run", "secret-token", "application/json", `{"script":"true","timeout":"x"}`, 400)
	check("POST", "/v1/run", "", "application/json", `{"script":"true"}`, 401)
	check("POST", "/v1/run", "secret-token", "application/json", `{"script":"true","profile":"other"}`, 403)
	check("POST", "/v1/run", "secret-token", "application/json", `{"script":"true","session":"nosuch"}`, 404)
	data := check("POST", "/v1/sessions", "secret-token", "", "", 201)
	id := decode(t, data)["id"].(string)
	check("GET", "/v1/sessions", "secret-token", "", "", 200)
	check("GET", "/v1/sessions/"+id, "secret-token", "", "", 200)
	check("PUT", "/v1/sessions/"+id+"/files/tmp/a.txt", "secret-token", "application/octet-stream", "hello", 200)
	check("GET", "/v1/sessions/"+id+"/files/tmp/a.txt", "secret-token", "", "", 200)
	check("GET", "/v1/sessions/"+id+"/files/tmp/none", "secret-token", "", "", 404)
	check("POST", "/v1/sessions", "secret-token", "", "", 201)
	check("POST", "/v1/sessions", "secret-token", "", "", 429)
	check("DELETE", "/v1/sessions/"+id, "secret-token", "", "", 204)
	check("GET", "/v1/sessions/"+id, "secret-token", "", "", 404)
	check("GET", "/v1/openapi.json", "", "", "", 200)
	check("GET", "/v1/files/work/hello.txt", "secret-token", "", "", 200)
	check("GET", "/v1/files/work", "secret-token", "", "", 200)
	check("PUT", "/v1/files/work/new.txt", "secret-token", "application/octet-stream", "x", 409)
}

// TestExampleConfig keeps bashbox.example.yaml loadable.
func TestExampleConfig(t *testing.T) {
	t.Setenv("BASHBOX_TOKEN", "example-token")
	cfg, err := config.Load("../bashbox.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
