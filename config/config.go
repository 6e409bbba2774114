// Package config reads the operator's bashbox.yaml: named volumes, profiles
// (volumes, budgets, env, fallbacks, tokens) and server settings. Every
// problem is refused at start with the key and its position in the file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/volumes"
)

// File is bashbox.yaml.
type File struct {
	Server   Server              `yaml:"server"`
	Volumes  map[string]Volume   `yaml:"volumes"`
	Profiles map[string]*Profile `yaml:"profiles"`
	// Sessions says where sessions live (see config/sessions.go).
	Sessions SessionStore `yaml:"sessions"`
	// Host is not read from the file: the program sets it (see
	// config/host.go).
	Host Host `yaml:"-"`
}

// Server holds the serving settings.
type Server struct {
	HTTP               string        `yaml:"http"`
	MaxConcurrent      int           `yaml:"max_concurrent"`
	MaxQueue           int           `yaml:"max_queue"`
	MaxRequestBytes    int64         `yaml:"max_request_bytes"`
	AuditScripts       bool          `yaml:"audit_scripts"`
	SessionIdleTimeout time.Duration `yaml:"session_idle_timeout"`
	// MetricsToken, when set, is the bearer token /metrics requires.
	MetricsToken string `yaml:"metrics_token"`
	// TLSCert and TLSKey (PEM files) make the HTTP server serve HTTPS.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
	// MaxMemory bounds the whole process (Go's soft memory limit); new
	// runs are refused with 503 as it nears. 0: a fraction of the
	// machine's (or cgroup's) memory, chosen by the server.
	MaxMemory Size `yaml:"max_memory"`
	// GoMaxProcs is how many goroutines run Go code at once (Go's
	// GOMAXPROCS). 0: twice the processors Go would use, chosen by the
	// server.
	GoMaxProcs int `yaml:"gomaxprocs"`
	// DrainTimeout bounds how long a stopping server lets runs in flight
	// finish before it cuts them.
	DrainTimeout time.Duration `yaml:"drain_timeout"`
}

// Volume is a named host directory binding.
type Volume struct {
	Host  string       `yaml:"host"`
	Guest string       `yaml:"guest"`
	Mode  volumes.Mode `yaml:"mode"`
}

// Profile is what one tenant or agent gets.
type Profile struct {
	Volumes  []string          `yaml:"volumes"`
	Workdir  string            `yaml:"workdir"`
	Token    string            `yaml:"token"`
	TokenEnv string            `yaml:"token_env"`
	Limits   Limits            `yaml:"limits"`
	Env      map[string]string `yaml:"env"`
	Fallback Fallback          `yaml:"fallback"`
	Sessions Sessions          `yaml:"sessions"`
	BashTool BashTool          `yaml:"bash_tool"`
	// MaxConcurrent bounds this profile's runs at once (0: only the
	// server's limit); Rate and Burst are a token bucket of runs per
	// second (0: no rate limit). Past either: 429 with Retry-After.
	MaxConcurrent int     `yaml:"max_concurrent"`
	Rate          float64 `yaml:"rate"`
	Burst         int     `yaml:"burst"`
	// Workers bounds the goroutines one command of a run may search or decode
	// with (grep -r, find, jq): 0 lets it pick from the CPUs, 1 keeps it sequential.
	Workers int `yaml:"workers"`
}

// Limits are a profile's budgets; sizes accept 10MiB-style strings.
type Limits struct {
	Timeout           time.Duration `yaml:"timeout"`
	MaxOutput         Size          `yaml:"max_output"`
	MaxCommands       int64         `yaml:"max_commands"`
	MaxLoopIterations int64         `yaml:"max_loop_iterations"`
	MaxMemory         Size          `yaml:"max_memory"`
	MaxOverlayBytes   Size          `yaml:"max_overlay_bytes"`
	MaxOverlayFiles   int64         `yaml:"max_overlay_files"`
	MaxWriteBytes     Size          `yaml:"max_write_bytes"`
	MaxWriteFiles     int64         `yaml:"max_write_files"`
	MaxNesting        int64         `yaml:"max_nesting"`
}

// Fallback names host commands and the env they may see. Network lists
// the commands given the host network (in the file: an entry
// {name: gh, network: true} in commands; see config/fallback.go).
type Fallback struct {
	Commands []string `yaml:"commands"`
	Env      []string `yaml:"env"`
	Network  []string `yaml:"-"`
}

// Sessions enables persistent sessions for a profile.
type Sessions struct {
	Max int `yaml:"max"`
}

// BashTool enables the classic host Bash tool for a profile. Its commands
// start in Root and may write there; Root defaults to the host directory
// of the profile's first volume, which must then be read-write.
type BashTool struct {
	Enabled  bool     `yaml:"enabled"`
	Root     string   `yaml:"root"`
	Read     []string `yaml:"read"`
	Write    []string `yaml:"write"`
	EnvAllow []string `yaml:"env_allow"`
}

// Size is a byte count written as 1048576, 512KiB, 10MiB or 1GB.
type Size int64

func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseSize(n.Value)
	if err != nil {
		return err
	}
	*s = Size(v)
	return nil
}

// ParseSize reads 1024, 10k, 10KiB, 5M, 5MB, 1GiB.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	lower := strings.ToLower(t)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1}} {
		if strings.HasSuffix(lower, u.suffix) {
			mult = u.m
			t = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			break
		}
	}
	var n int64
	if _, err := fmt.Sscanf(t, "%d", &n); err != nil || n < 0 || fmt.Sprint(n) != t {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return n * mult, nil
}

// Error is a configuration problem at a place in the file.
type Error struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	return b.String() + ": " + e.Msg
}

// Load reads and validates a config file.
func Load(name string) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return Parse(name, data)
}

// Parse decodes data (named name in errors) strictly: unknown keys are
// refused, then the contents are checked.
func Parse(name string, data []byte) (*File, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, syntaxError(name, err)
	}
	if err := checkTree(name, &root); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		// checkTree has seen every shape problem; what is left is rare
		// enough to report as the parser words it.
		return nil, &Error{File: name, Msg: err.Error()}
	}
	if err := f.validate(name, &root); err != nil {
		return nil, err
	}
	return &f, nil
}

// pos finds the node of a key path like "profiles.default.volumes".
func pos(root *yaml.Node, keys ...string) (int, int) {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line, col := 0, 0
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			break
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, col = n.Content[i].Line, n.Content[i].Column
				n = n.Content[i+1]
				found = true
				break
			}
		}
		if !found {
			break
		}
	}
	return line, col
}

func (f *File) validate(name string, root *yaml.Node) error {
	fail := func(msg string, keys ...string) error {
		l, c := pos(root, keys...)
		return &Error{File: name, Line: l, Col: c, Key: strings.Join(keys, "."), Msg: msg}
	}
	if len(f.Profiles) == 0 {
		return fail("at least one profile is required", "profiles")
	}
	for vn, v := range f.Volumes {
		switch v.Mode {
		case "":
			v.Mode = volumes.ReadOnly
		case volumes.ReadOnly, volumes.ReadWrite, volumes.Ephemeral:
		default:
			return fail(fmt.Sprintf("unknown mode %q (want ro, rw or ephemeral)", v.Mode), "volumes", vn, "mode")
		}
		if v.Guest == "" {
			v.Guest = volumes.DefaultGuestPath
		}
		if !path.IsAbs(v.Guest) {
			return fail("guest path must be absolute", "volumes", vn, "guest")
		}
		if v.Mode != volumes.Ephemeral {
			if v.Host == "" {
				return fail("host directory is required", "volumes", vn)
			}
			if fi, err := os.Stat(v.Host); err != nil || !fi.IsDir() {
				return fail(fmt.Sprintf("host directory %s does not exist", v.Host), "volumes", vn, "host")
			}
		}
		f.Volumes[vn] = v
	}
	for pn, p := range f.Profiles {
		if p == nil {
			p = &Profile{}
			f.Profiles[pn] = p
		}
		var vols []volumes.Volume
		for _, vn := range p.Volumes {
			v, ok := f.Volumes[vn]
			if !ok {
				return fail(fmt.Sprintf("unknown volume %q", vn), "profiles", pn, "volumes")
			}
			vols = append(vols, volumes.Volume{HostDir: v.Host, GuestPath: v.Guest, Mode: v.Mode})
		}
		if tb, err := volumes.NewTable(vols); err != nil {
			return fail(err.Error(), "profiles", pn, "volumes")
		} else {
			tb.Close()
		}
		if err := p.bashToolRoot(f.Volumes); err != nil {
			return fail(err.Error(), "profiles", pn, "bash_tool")
		}
		if p.TokenEnv != "" && p.Token == "" {
			p.Token = os.Getenv(p.TokenEnv)
			if p.Token == "" {
				return fail(fmt.Sprintf("environment variable %s is not set", p.TokenEnv), "profiles", pn, "token_env")
			}
		}
		if p.MaxConcurrent < 0 {
			return fail("must not be negative", "profiles", pn, "max_concurrent")
		}
		if p.Rate < 0 {
			return fail("must not be negative", "profiles", pn, "rate")
		}
		if p.Burst < 0 {
			return fail("must not be negative", "profiles", pn, "burst")
		}
		if p.Workers < 0 {
			return fail("must not be negative", "profiles", pn, "workers")
		}
		if len(p.Fallback.Commands) > 0 {
			r, err := fallback.New(f.fallbackConfig(p.Fallback, discardLog))
			if err != nil {
				return fail(err.Error(), "profiles", pn, "fallback", "commands")
			}
			r.Close()
		}
	}
	if err := f.checkTokens(fail); err != nil {
		return err
	}
	if (f.Server.TLSCert == "") != (f.Server.TLSKey == "") {
		return fail("tls_cert and tls_key go together", "server")
	}
	for _, k := range []struct{ key, file string }{{"tls_cert", f.Server.TLSCert}, {"tls_key", f.Server.TLSKey}} {
		if k.file == "" {
			continue
		}
		if _, err := os.Stat(k.file); err != nil {
			return fail(fmt.Sprintf("%s: %v", k.file, errors.Unwrap(err)), "server", k.key)
		}
	}
	if f.Server.GoMaxProcs < 0 {
		return fail(fmt.Sprintf("gomaxprocs %d: must be 0 (the default) or more", f.Server.GoMaxProcs), "server", "gomaxprocs")
	}
	if f.Server.MaxConcurrent <= 0 {
		f.Server.MaxConcurrent = 32
	}
	if f.Server.MaxQueue <= 0 {
		f.Server.MaxQueue = 4 * f.Server.MaxConcurrent
	}
	if f.Server.MaxRequestBytes <= 0 {
		f.Server.MaxRequestBytes = 1 << 20
	}
	if f.Server.SessionIdleTimeout <= 0 {
		f.Server.SessionIdleTimeout = 10 * time.Minute
	}
	if f.Server.DrainTimeout <= 0 {
		f.Server.DrainTimeout = 30 * time.Second
	}
	return f.Sessions.validate(fail)
}

// bashToolRoot fills in the Bash tool's root: the profile's first volume,
// since the tool writes in its root and the profile's files are there.
func (p *Profile) bashToolRoot(vols map[string]Volume) error {
	bt := &p.BashTool
	if !bt.Enabled {
		return nil
	}
	if bt.Root == "" {
		if len(p.Volumes) == 0 {
			return errors.New("the Bash tool needs a root: set root, or give the profile a volume")
		}
		v := vols[p.Volumes[0]]
		switch v.Mode {
		case volumes.Ephemeral:
			return fmt.Errorf("the Bash tool runs in the profile's first volume, and %s is ephemeral (no host directory): set root", p.Volumes[0])
		case volumes.ReadOnly:
			return fmt.Errorf("the Bash tool may write in its root, and the profile's first volume %s is read-only: set root, or make %s rw", p.Volumes[0], p.Volumes[0])
		}
		bt.Root = v.Host
	}
	abs, err := filepath.Abs(bt.Root)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("root %s is not a directory", bt.Root)
	}
	bt.Root = abs
	return nil
}

// checkTokens refuses a token shared by two profiles: the server could
// only ever reach one of them.
func (f *File) checkTokens(fail func(string, ...string) error) error {
	names := make([]string, 0, len(f.Profiles))
	for pn := range f.Profiles {
		names = append(names, pn)
	}
	sort.Strings(names)
	owner := map[string]string{}
	for _, pn := range names {
		tok := f.Profiles[pn].Token
		if tok == "" {
			continue
		}
		if other, dup := owner[tok]; dup {
			return fail(fmt.Sprintf("profiles %s and %s have the same token; each profile needs its own", other, pn), "profiles", pn, "token")
		}
		owner[tok] = pn
	}
	if mt := f.Server.MetricsToken; mt != "" {
		if pn, dup := owner[mt]; dup {
			return fail(fmt.Sprintf("the metrics token is profile %s's token; give /metrics its own", pn), "server", "metrics_token")
		}
	}
	return nil
}

// BoxConfig turns a profile into a box configuration; the fallback runner
// (if any) must be closed by the caller.
func (f *File) BoxConfig(profile string) (bashbox.Config, *fallback.Runner, error) {
	p, ok := f.Profiles[profile]
	if !ok {
		return bashbox.Config{}, nil, fmt.Errorf("unknown profile %q", profile)
	}
	cfg := bashbox.Config{Workdir: p.Workdir, Workers: p.Workers}
	for _, vn := range p.Volumes {
		v := f.Volumes[vn]
		cfg.Volumes = append(cfg.Volumes, volumes.Volume{HostDir: v.Host, GuestPath: v.Guest, Mode: v.Mode})
	}
	cfg.Limits = bashbox.Limits{
		Timeout: p.Limits.Timeout, MaxOutputBytes: int64(p.Limits.MaxOutput), MaxCommands: p.Limits.MaxCommands,
		MaxLoopIterations: p.Limits.MaxLoopIterations, MaxMemoryBytes: int64(p.Limits.MaxMemory),
		MaxOverlayBytes: int64(p.Limits.MaxOverlayBytes), MaxOverlayFiles: p.Limits.MaxOverlayFiles,
		MaxWriteBytes: int64(p.Limits.MaxWriteBytes), MaxWriteFiles: p.Limits.MaxWriteFiles,
		MaxNesting: p.Limits.MaxNesting,
	}
	for k, v := range p.Env {
		cfg.Env = append(cfg.Env, k+"="+v)
	}
	var fb *fallback.Runner
	if len(p.Fallback.Commands) > 0 {
		var err error
		fb, err = fallback.New(f.fallbackConfig(p.Fallback, nil))
		if err != nil {
			return cfg, nil, err
		}
		cfg.Fallback = fb.Run
	}
	return cfg, fb, nil
}

// FromFile validates a configuration built in code (the CLI flags).
func FromFile(f *File) (*File, error) {
	var root yaml.Node
	if err := f.validate("flags", &root); err != nil {
		return nil, err
	}
	return f, nil
}
