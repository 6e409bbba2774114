//go:build !bashbox_front

package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox/config"
	"github.com/bashbox/bashbox/serve"
	"github.com/bashbox/bashbox/volumes"
)

func serveCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox serve", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf sandboxFlags
	sf.register(fs)
	cfgFile := fs.String("config", "", "operator configuration (bashbox.yaml); without it the flags define the profile 'default'")
	addr := fs.String("http", "", "serve MCP at /mcp and the HTTP API on ADDR instead of MCP on stdio")
	token := fs.String("token", "", "bearer token of the 'default' profile over HTTP (default $BASHBOX_TOKEN)")
	profile := fs.String("profile", "default", "the profile served over stdio")
	sessionStore := fs.String("session-store", "", "where sessions live: memory, or redis://host:port/db to share them between replicas (overrides sessions.store)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox serve [--config FILE] [--http ADDR] [run's volume, budget, env and fallback flags]\n\n%s\n%s", volumeHelp, fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	var cfg *config.File
	var err error
	if *cfgFile != "" {
		cfg, err = config.Load(*cfgFile)
	} else {
		cfg, err = flagsConfig(&sf, *token)
	}
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	cfg.Host = hostConfig()
	if *sessionStore != "" {
		if err := cfg.Sessions.SetStore(*sessionStore); err != nil {
			return usageError(stderr, fs, "%v", err)
		}
	}
	if *addr == "" {
		*addr = cfg.Server.HTTP
		if fs.Changed("http") || *cfgFile == "" {
			*addr = ""
		}
	}
	if *addr != "" {
		hasToken := false
		for _, p := range cfg.Profiles {
			hasToken = hasToken || p.Token != ""
		}
		if !hasToken {
			return usageError(stderr, fs, "serving over HTTP needs a bearer token: --token, $BASHBOX_TOKEN or a profile token in the config")
		}
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	srv, err := serve.New(cfg, log)
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		if err := srv.ServeStdio(ctx, *profile); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "bashbox: %v\n", err)
			return 1
		}
		return 0
	}
	hs := &http.Server{Addr: *addr, Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		<-ctx.Done()
		// Not ready and refusing new runs at once; the runs in flight get
		// the drain timeout; then the listener closes.
		drain, cancel := context.WithTimeout(context.Background(), cfg.Server.DrainTimeout)
		defer cancel()
		srv.Drain(drain)
		shutdown, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel2()
		hs.Shutdown(shutdown)
	}()
	if cfg.Server.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.Server.TLSCert, cfg.Server.TLSKey)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox: server.tls_cert/tls_key: %v\n", err)
			return 2
		}
		hs.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox: %v\n", err)
		return 1
	}
	scheme := "http"
	if cfg.Server.TLSCert != "" {
		scheme = "https"
	}
	// The address actually bound (with --http 127.0.0.1:0, the port the
	// system chose), for whoever starts the server.
	log.Info("bashbox serving", "addr", ln.Addr().String(), "url", scheme+"://"+ln.Addr().String())
	if cfg.Server.TLSCert != "" {
		err = hs.ServeTLS(ln, "", "")
	} else {
		err = hs.Serve(ln)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "bashbox: %v\n", err)
		return 1
	}
	<-drained
	return 0
}

// flagsConfig makes the one-profile configuration of `serve` without
// --config.
func flagsConfig(sf *sandboxFlags, token string) (*config.File, error) {
	if token == "" {
		token = os.Getenv("BASHBOX_TOKEN")
	}
	f := &config.File{Volumes: map[string]config.Volume{}, Profiles: map[string]*config.Profile{}}
	p := &config.Profile{Token: token, Workdir: sf.workdir}
	for i, spec := range sf.volumes {
		v, err := volumes.Parse(spec)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("v%d", i)
		f.Volumes[name] = config.Volume{Host: v.HostDir, Guest: v.GuestPath, Mode: v.Mode}
		p.Volumes = append(p.Volumes, name)
	}
	p.Limits.Timeout = sf.timeout
	p.Limits.MaxCommands = sf.maxCommands
	p.Limits.MaxLoopIterations = sf.maxLoop
	p.Limits.MaxOverlayFiles = sf.maxOvlFiles
	p.Limits.MaxWriteFiles = sf.maxWrFiles
	p.Limits.MaxNesting = sf.maxNesting
	p.Workers = sf.workers
	for _, s := range []struct {
		val string
		dst *config.Size
	}{{sf.maxOutput, &p.Limits.MaxOutput}, {sf.maxMemory, &p.Limits.MaxMemory}, {sf.maxOvlBytes, &p.Limits.MaxOverlayBytes}, {sf.maxWrBytes, &p.Limits.MaxWriteBytes}} {
		if s.val != "" {
			n, err := config.ParseSize(s.val)
			if err != nil {
				return nil, err
			}
			*s.dst = config.Size(n)
		}
	}
	p.Env = map[string]string{}
	for _, kv := range sf.env {
		k, v, _ := cutEnv(kv)
		p.Env[k] = v
	}
	p.Fallback = config.Fallback{Commands: sf.fallback, Env: sf.fallbackEnv, Network: sf.fallbackNet}
	f.Profiles["default"] = p
	return config.FromFile(f)
}

func cutEnv(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}
