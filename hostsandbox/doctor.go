package hostsandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Capability is one backend or layer and whether this machine offers it.
type Capability struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"` // "backend" or "layer"
	Available bool   `json:"available"`
	Detail    string `json:"detail"`
}

// Report is what doctor prints: what the machine offers and what Select
// would choose.
type Report struct {
	Capabilities []Capability `json:"capabilities"`
	// Selected is the backend Select returns now ("fail-closed" when none).
	Selected string `json:"selected"`
	// SelectedDetail explains the choice (the fix, when failing closed).
	SelectedDetail string `json:"selected_detail"`
}

// Inspect probes every backend and layer. It runs a few short processes
// (bwrap and sandbox-exec probes) and may contact the Docker engine.
func Inspect() Report {
	var r Report
	add := func(name, kind string, ok bool, detail string) {
		r.Capabilities = append(r.Capabilities, Capability{Name: name, Kind: kind, Available: ok, Detail: detail})
	}

	switch runtime.GOOS {
	case "linux":
		if path, err := exec.LookPath("bwrap"); err != nil {
			add("bubblewrap", "backend", false, "bwrap not found on PATH (apt-get install bubblewrap)")
		} else if p := probeBubblewrap(path); p.err != nil {
			add("bubblewrap", "backend", false, p.err.Error())
		} else {
			add("bubblewrap", "backend", true, strings.TrimSpace(path+" "+p.version))
		}
	default:
		add("bubblewrap", "backend", false, "Linux only")
	}

	if abi := landlockABI(); abi > 0 {
		detail := fmt.Sprintf("kernel ABI v%d", abi)
		ok := true
		if _, helper := helperPath(); !helper {
			ok = false
			detail += "; this program does not serve the sandbox helper"
		}
		add("landlock", "layer", ok, detail+" (applied inside bubblewrap)")
	} else if runtime.GOOS == "linux" {
		add("landlock", "layer", false, "the kernel does not offer Landlock (needs Linux 5.13+ with the LSM enabled)")
	} else {
		add("landlock", "layer", false, "Linux only")
	}

	if seccompSupported() {
		add("seccomp", "layer", true, "strict syscall filter via bwrap --seccomp")
	} else if runtime.GOOS == "linux" {
		add("seccomp", "layer", false, "the kernel does not report seccomp support")
	} else {
		add("seccomp", "layer", false, "Linux only")
	}

	if s, err := newSandboxExec(); err != nil {
		add("sandbox-exec", "backend", false, err.Error())
	} else {
		add("sandbox-exec", "backend", true, s.path)
	}

	if _, err := newAppContainer(); err != nil {
		add("appcontainer", "backend", false, err.Error())
	} else {
		add("appcontainer", "backend", true, "AppContainer with a job object")
	}

	if _, err := newDockerFromEnv(); err != nil {
		add("docker", "backend", false, err.Error()+" (used only with "+EnvSandbox+"=docker)")
	} else {
		add("docker", "backend", true, "engine reachable (used only with "+EnvSandbox+"=docker)")
	}

	if truthy(os.Getenv(EnvAllowNoSandbox)) {
		add("none", "backend", true, EnvAllowNoSandbox+" is set: used only when no sandbox is available")
	} else {
		add("none", "backend", false, "not permitted (set "+EnvAllowNoSandbox+"=1 to allow running with no isolation)")
	}

	b, notes := selectBackend()
	r.Selected = b.Name()
	switch b := b.(type) {
	case failClosed:
		r.SelectedDetail = b.reason
	case *bubblewrap:
		var layers []string
		for _, c := range r.Capabilities {
			switch {
			case !c.Available || c.Kind != "layer":
			case c.Name == "seccomp":
				layers = append(layers, "seccomp for the strict syscall policy")
			default:
				layers = append(layers, c.Name)
			}
		}
		if len(layers) > 0 {
			r.SelectedDetail = "with " + strings.Join(layers, ", ")
		}
	default:
		r.SelectedDetail = strings.Join(notes, "; ")
	}
	return r
}

// Text renders the report for a terminal.
func (r Report) Text() string {
	var b strings.Builder
	for _, c := range r.Capabilities {
		state := "available"
		if !c.Available {
			state = "unavailable"
		}
		fmt.Fprintf(&b, "%-8s %-13s %-12s %s\n", c.Kind, c.Name, state, c.Detail)
	}
	fmt.Fprintf(&b, "bash would use: %s", r.Selected)
	if r.SelectedDetail != "" {
		fmt.Fprintf(&b, " (%s)", r.SelectedDetail)
	}
	b.WriteString("\n")
	return b.String()
}
