package hostsandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// EnvDockerHost names the Docker engine endpoint (unix:///path or
// tcp://host:port), as the docker CLI reads it.
const EnvDockerHost = "DOCKER_HOST"

// DefaultDockerImage is used when the manifest names no image; it must
// contain the shell the caller runs.
const DefaultDockerImage = "debian:bookworm-slim"

// docker runs each command in a fresh container through the Engine HTTP
// API: the allow lists become bind mounts at the same paths, deny becomes
// network mode "none", memory and CPU limits are enforced by the engine,
// and the container is removed afterwards.
type docker struct {
	client *http.Client
	base   string // scheme and host for request URLs
}

func (d *docker) Name() string { return "docker" }

func (d *docker) DefaultTimeout() time.Duration { return 30 * time.Second }

// connectDocker connects to host (DOCKER_HOST's syntax) or, when empty,
// the default socket, and pings the engine.
func connectDocker(host string) (*docker, error) {
	if host == "" {
		host = "unix:///var/run/docker.sock"
		if home, err := os.UserHomeDir(); err == nil {
			desktop := filepath.Join(home, ".docker", "run", "docker.sock")
			if _, err := os.Stat("/var/run/docker.sock"); err != nil {
				if _, err := os.Stat(desktop); err == nil {
					host = "unix://" + desktop
				}
			}
		}
	}
	d, err := newDocker(host)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := d.ping(ctx); err != nil {
		return nil, err
	}
	return d, nil
}

func newDocker(host string) (*docker, error) {
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("bad %s %q: %v", EnvDockerHost, host, err)
	}
	switch u.Scheme {
	case "unix":
		sock := u.Path
		tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}
		return &docker{client: &http.Client{Transport: tr}, base: "http://docker"}, nil
	case "tcp", "http":
		return &docker{client: &http.Client{}, base: "http://" + u.Host}, nil
	default:
		return nil, fmt.Errorf("%s scheme %q is not supported (use unix:// or tcp://)", EnvDockerHost, u.Scheme)
	}
}

func (d *docker) ping(ctx context.Context) error {
	resp, err := d.do(ctx, http.MethodGet, "/_ping", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// do sends one API request; a non-2xx answer becomes an error carrying the
// engine's message.
func (d *docker) do(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("docker engine: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		var msg struct {
			Message string `json:"message"`
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if json.Unmarshal(data, &msg) != nil || msg.Message == "" {
			msg.Message = strings.TrimSpace(string(data))
		}
		return nil, fmt.Errorf("docker engine: %s %s: %d %s", method, path, resp.StatusCode, msg.Message)
	}
	return resp, nil
}

// containerSpec is the body of POST /containers/create (the fields we set).
type containerSpec struct {
	Image        string
	Cmd          []string
	Env          []string
	WorkingDir   string `json:",omitempty"`
	AttachStdout bool
	AttachStderr bool
	OpenStdin    bool
	Tty          bool
	HostConfig   containerHostConfig
}

type containerHostConfig struct {
	Mounts      []containerMount
	NetworkMode string
	Memory      int64           `json:",omitempty"`
	MemorySwap  int64           `json:",omitempty"`
	Ulimits     []containerUlim `json:",omitempty"`
	CapDrop     []string
	SecurityOpt []string
	PidsLimit   int64
	Init        bool
	Tmpfs       map[string]string
}

type containerMount struct {
	Type     string
	Source   string
	Target   string
	ReadOnly bool
}

type containerUlim struct {
	Name string
	Soft int64
	Hard int64
}

// containerSpecFor translates a manifest and request into the container
// configuration. Mounts use the structured API, so paths with ':' or ','
// need no escaping.
func containerSpecFor(m *Manifest, req Request) (containerSpec, error) {
	if err := m.Validate(); err != nil {
		return containerSpec{}, err
	}
	if err := requireNoHostAllowlist(m, "docker"); err != nil {
		return containerSpec{}, err
	}
	if len(req.Args) == 0 {
		return containerSpec{}, errors.New("no command given")
	}
	image := m.Image
	if image == "" {
		image = DefaultDockerImage
	}
	spec := containerSpec{
		Image: image, Cmd: req.Args, Env: m.envList(), WorkingDir: req.Dir,
		AttachStdout: true, AttachStderr: true,
		HostConfig: containerHostConfig{
			NetworkMode: "none",
			// Dropping every capability, no-new-privileges and the engine's
			// default seccomp profile cover the strict policy's intent
			// (ptrace, mounts, modules, raw sockets).
			CapDrop:     []string{"ALL"},
			SecurityOpt: []string{"no-new-privileges"},
			PidsLimit:   4096,
			Init:        true, // reaps and forwards signals to the whole tree
			Tmpfs:       map[string]string{"/tmp": "rw,nosuid,nodev"},
		},
	}
	if m.Network.effective() == NetworkInherit {
		// The engine's default network: outbound access, without the
		// host's loopback services.
		spec.HostConfig.NetworkMode = "bridge"
	}
	writable := map[string]bool{}
	for _, p := range cleanPaths(m.FSWriteAllow) {
		writable[p] = true
	}
	seen := map[string]bool{}
	for _, p := range cleanPaths(append(append([]string{}, m.FSReadAllow...), m.FSWriteAllow...)) {
		if seen[p] {
			continue
		}
		seen[p] = true
		spec.HostConfig.Mounts = append(spec.HostConfig.Mounts, containerMount{Type: "bind", Source: p, Target: filepath.ToSlash(p), ReadOnly: !writable[p]})
	}
	if m.MaxMemoryBytes > 0 {
		spec.HostConfig.Memory = int64(m.MaxMemoryBytes)
		spec.HostConfig.MemorySwap = int64(m.MaxMemoryBytes) // no swap beyond the limit
	}
	if m.MaxCPUSecs > 0 {
		spec.HostConfig.Ulimits = []containerUlim{{Name: "cpu", Soft: int64(m.MaxCPUSecs), Hard: int64(m.MaxCPUSecs)}}
	}
	if m.MaxFileBytes > 0 {
		spec.HostConfig.Ulimits = append(spec.HostConfig.Ulimits, containerUlim{Name: "fsize", Soft: int64(m.MaxFileBytes), Hard: int64(m.MaxFileBytes)})
	}
	return spec, nil
}

func (d *docker) Start(runCtx context.Context, m *Manifest, req Request) (Process, error) {
	if err := requireBasicManifest(m, "docker"); err != nil {
		return nil, err
	}
	if req.Stdin != nil {
		return nil, fmt.Errorf("%w: the docker backend does not forward stdin", ErrPolicyNotSupported)
	}
	spec, err := containerSpecFor(m, req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(runCtx, 30*time.Second)
	defer cancel()
	resp, err := d.do(ctx, http.MethodPost, "/containers/create", spec)
	if err != nil {
		if strings.Contains(err.Error(), "No such image") {
			return nil, fmt.Errorf("%w (pull it first: docker pull %s)", err, spec.Image)
		}
		return nil, err
	}
	var created struct{ Id string }
	err = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if err != nil || created.Id == "" {
		return nil, fmt.Errorf("docker engine: bad create answer: %v", err)
	}
	p := &dockerProcess{d: d, id: created.Id, done: make(chan struct{})}
	if resp, err := d.do(ctx, http.MethodPost, "/containers/"+created.Id+"/start", nil); err != nil {
		p.remove()
		return nil, err
	} else {
		resp.Body.Close()
	}
	go p.run(req.Stdout, req.Stderr)
	stop := killOnDone(runCtx, p)
	go func() {
		<-p.done
		stop()
	}()
	return p, nil
}

type dockerProcess struct {
	d    *docker
	id   string
	done chan struct{}
	code int
	err  error
}

func (p *dockerProcess) run(stdout, stderr io.Writer) {
	defer close(p.done)
	logsDone := make(chan struct{})
	go func() {
		defer close(logsDone)
		resp, err := p.d.do(context.Background(), http.MethodGet, "/containers/"+p.id+"/logs?follow=1&stdout=1&stderr=1", nil)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		_ = demuxDockerStream(resp.Body, stdout, stderr)
	}()
	resp, err := p.d.do(context.Background(), http.MethodPost, "/containers/"+p.id+"/wait", nil)
	if err != nil {
		p.err = err
		p.code = -1
	} else {
		var w struct {
			StatusCode int
			Error      *struct{ Message string }
		}
		if err := json.NewDecoder(resp.Body).Decode(&w); err != nil {
			p.err = fmt.Errorf("docker engine: bad wait answer: %v", err)
		}
		resp.Body.Close()
		p.code = w.StatusCode
	}
	select {
	case <-logsDone:
	case <-time.After(OutputDrainDelay):
	}
	p.remove()
}

func (p *dockerProcess) remove() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if resp, err := p.d.do(ctx, http.MethodDelete, "/containers/"+p.id+"?force=1", nil); err == nil {
		resp.Body.Close()
	}
}

func (p *dockerProcess) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

func (p *dockerProcess) Kill() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p.d.do(ctx, http.MethodPost, "/containers/"+p.id+"/kill?signal=KILL", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// demuxDockerStream splits the engine's multiplexed log stream: each frame
// is an 8-byte header (stream 1 = stdout, 2 = stderr; big-endian length in
// the last four bytes) followed by its payload.
func demuxDockerStream(r io.Reader, stdout, stderr io.Writer) error {
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		n := int64(binary.BigEndian.Uint32(hdr[4:]))
		var w io.Writer = io.Discard
		switch hdr[0] {
		case 1:
			if stdout != nil {
				w = stdout
			}
		case 2:
			if stderr != nil {
				w = stderr
			}
		}
		if _, err := io.CopyN(w, r, n); err != nil {
			return err
		}
	}
}
