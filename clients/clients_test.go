// Package clients_test runs the TypeScript and Python clients' own tests
// against a live `bashbox serve`, and checks serving over TLS.
package clients_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBashbox builds the CLI once per test binary.
func buildBashbox(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "bashbox-clients-"); buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "bashbox"), "../cmd/bashbox").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "bashbox")
}

// startServer runs `bashbox serve` with the YAML config and returns its URL.
func startServer(t *testing.T, bin, yml string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "bashbox.yaml")
	if err := os.WriteFile(cfg, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--config", cfg, "--http", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		sent := false
		for sc.Scan() {
			var line struct{ Msg, URL string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "bashbox serving" && !sent {
				urls <- line.URL
				sent = true
			}
		}
		if !sent {
			close(urls)
		}
	}()
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatal("bashbox serve exited before serving")
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("bashbox serve did not start")
	}
	return ""
}

func clientConfig(t *testing.T) string {
	dir, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "README"), []byte("a read-only volume\n"), 0o644)
	return `
server:
  max_concurrent: 8
volumes:
  repo: {host: ` + dir + `, guest: /work, mode: ro}
  out: {host: ` + out + `, guest: /out, mode: rw}
profiles:
  default:
    volumes: [repo, out]
    token: client-token
    sessions: {max: 8}
  other:
    volumes: [repo]
    token: other-token
    sessions: {max: 1}
`
}

// needTool fails in CI (where .ci/run installs everything) and skips
// elsewhere when a client's toolchain is missing.
func needTool(t *testing.T, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing; .ci/run installs it", what)
	}
	t.Skipf("%s is missing", what)
}

func clientEnv(url string) []string {
	return append(os.Environ(), "BASHBOX_URL="+url, "BASHBOX_TOKEN=client-token", "BASHBOX_OTHER_TOKEN=other-token")
}

func TestPythonClient(t *testing.T) {
	py, err := exec.LookPath("python3")
	needTool(t, "python3", err == nil)
	url := startServer(t, buildBashbox(t), clientConfig(t))
	cmd := exec.Command(py, "-m", "unittest", "discover", "-v", "-s", "python/tests")
	cmd.Env = clientEnv(url)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("python client tests: %v", err)
	}
}

func TestTypeScriptClient(t *testing.T) {
	npm, err := exec.LookPath("npm")
	needTool(t, "npm", err == nil)
	_, err = os.Stat("typescript/node_modules/typescript/package.json")
	needTool(t, "clients/typescript/node_modules (npm ci --prefix clients/typescript)", err == nil)
	url := startServer(t, buildBashbox(t), clientConfig(t))
	cmd := exec.Command(npm, "test", "--silent")
	cmd.Dir = "typescript"
	cmd.Env = clientEnv(url)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("typescript client tests: %v", err)
	}
}

// TestTypeScriptTypesCurrent checks that src/schema.d.ts is what
// openapi-typescript makes of the checked-in OpenAPI document.
func TestTypeScriptTypesCurrent(t *testing.T) {
	_, err := os.Stat("typescript/node_modules/.bin/openapi-typescript")
	needTool(t, "openapi-typescript (npm ci --prefix clients/typescript)", err == nil)
	out := filepath.Join(t.TempDir(), "schema.d.ts")
	cmd := exec.Command("node_modules/.bin/openapi-typescript", "../../serve/openapi.json", "-o", out)
	cmd.Dir = "typescript"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openapi-typescript: %v\n%s", err, msg)
	}
	want, _ := os.ReadFile(out)
	got, _ := os.ReadFile("typescript/src/schema.d.ts")
	if string(got) != string(want) {
		t.Fatal("clients/typescript/src/schema.d.ts is stale: run npm run generate in clients/typescript")
	}
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	yml := clientConfig(t) + "\n" // server settings go first
	yml = strings.Replace(yml, "server:\n", "server:\n  tls_cert: "+certFile+"\n  tls_key: "+keyFile+"\n", 1)
	url := startServer(t, buildBashbox(t), yml)
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("url %s", url)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("POST", url+"/v1/run", strings.NewReader(`{"script":"echo over tls"}`))
	req.Header.Set("Authorization", "Bearer client-token")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"stdout":"over tls\n"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	// Plain HTTP to the TLS port is not served.
	plain := strings.Replace(url, "https://", "http://", 1)
	if resp, err := http.Get(plain + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Fatal("plain HTTP served on the TLS port")
		}
	}
}

func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "bashbox test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
