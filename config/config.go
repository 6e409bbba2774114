// Package config reads the operator's bashbox.yaml: named volumes, profiles
// (volumes, budgets, env, fallbacks, tokens) and server settings. Every
// problem is refused at start with the key and its position in the file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
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
}

// Server holds the serving settings.
type Server struct {
	HTTP               string        `yaml:"http"`
	MaxConcurrent      int           `yaml:"max_concurrent"`
	MaxQueue           int           `yaml:"max_queue"`
	MaxRequestBytes    int64         `yaml:"max_request_bytes"`
	AuditScripts       bool          `yaml:"audit_scripts"`
	SessionIdleTimeout time.Duration `yaml:"session_idle_timeout"`
	// MaxMemory bounds the whole process (Go's soft memory limit); new
	// runs are refused with 503 as it nears. 0: a fraction of the
	// machine's (or cgroup's) memory, chosen by the server.
	MaxMemory Size `yaml:"max_memory"`
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
}

// Fallback names host commands and the env they may see.
type Fallback struct {
	Commands []string `yaml:"commands"`
	Env      []string `yaml:"env"`
}

// Sessions enables persistent sessions for a profile.
type Sessions struct {
	Max int `yaml:"max"`
}

// BashTool enables the classic host Bash tool for a profile.
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
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Msg)
}

// Load reads and validates a config file.
func Load(name string) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Parse decodes data (named name in errors) strictly: unknown keys are
// refused, then the contents are checked.
func Parse(name string, data []byte) (*File, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			return nil, fmt.Errorf("%s: %s", name, strings.Join(te.Errors, "; "))
		}
		return nil, fmt.Errorf("%s: %v", name, err)
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
		if len(p.Fallback.Commands) > 0 {
			r, err := fallback.New(fallback.Config{Commands: p.Fallback.Commands, Env: p.Fallback.Env})
			if err != nil {
				return fail(err.Error(), "profiles", pn, "fallback", "commands")
			}
			r.Close()
		}
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
	return nil
}

// BoxConfig turns a profile into a box configuration; the fallback runner
// (if any) must be closed by the caller.
func (f *File) BoxConfig(profile string) (bashbox.Config, *fallback.Runner, error) {
	p, ok := f.Profiles[profile]
	if !ok {
		return bashbox.Config{}, nil, fmt.Errorf("unknown profile %q", profile)
	}
	cfg := bashbox.Config{Workdir: p.Workdir}
	for _, vn := range p.Volumes {
		v := f.Volumes[vn]
		cfg.Volumes = append(cfg.Volumes, volumes.Volume{HostDir: v.Host, GuestPath: v.Guest, Mode: v.Mode})
	}
	cfg.Limits = bashbox.Limits{
		Timeout: p.Limits.Timeout, MaxOutputBytes: int64(p.Limits.MaxOutput), MaxCommands: p.Limits.MaxCommands,
		MaxLoopIterations: p.Limits.MaxLoopIterations, MaxMemoryBytes: int64(p.Limits.MaxMemory),
		MaxOverlayBytes: int64(p.Limits.MaxOverlayBytes), MaxOverlayFiles: p.Limits.MaxOverlayFiles,
		MaxWriteBytes: int64(p.Limits.MaxWriteBytes), MaxWriteFiles: p.Limits.MaxWriteFiles,
	}
	for k, v := range p.Env {
		cfg.Env = append(cfg.Env, k+"="+v)
	}
	var fb *fallback.Runner
	if len(p.Fallback.Commands) > 0 {
		var err error
		fb, err = fallback.New(fallback.Config{Commands: p.Fallback.Commands, Env: p.Fallback.Env})
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
