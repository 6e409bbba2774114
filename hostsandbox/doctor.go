package hostsandbox

import (
	"fmt"
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
	// Fallback says whether bashbox's fallback commands (operator-named
	// host binaries such as git) can run confined: "confined",
	// "unconfined" (no OS sandbox, explicitly allowed) or "refused".
	Fallback       string `json:"fallback"`
	FallbackDetail string `json:"fallback_detail"`
}

// experimental marks backends that are compiled and unit-tested here but
// have not been proven on their platform by this project's CI.
const experimental = "EXPERIMENTAL: only compiled and unit-tested, not run in CI; "

// Inspect probes every backend and layer under p. It runs a few short
// processes (bwrap and sandbox-exec probes) and may contact the Docker
// engine.
func Inspect(p Policy) Report {
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
		add("sandbox-exec", "backend", false, experimental+err.Error())
	} else {
		add("sandbox-exec", "backend", true, experimental+s.path)
	}

	if _, err := newAppContainer(); err != nil {
		add("appcontainer", "backend", false, experimental+err.Error())
	} else {
		add("appcontainer", "backend", true, experimental+"AppContainer with a job object")
	}

	if _, err := connectDocker(p.DockerHost); err != nil {
		add("docker", "backend", false, err.Error()+" (used only with "+EnvSandbox+"=docker)")
	} else {
		add("docker", "backend", true, "engine reachable (used only with "+EnvSandbox+"=docker)")
	}

	if p.AllowNoSandbox {
		add("none", "backend", true, EnvAllowNoSandbox+" is set: used only when no sandbox is available")
	} else {
		add("none", "backend", false, "not permitted (set "+EnvAllowNoSandbox+"=1 to allow running with no isolation)")
	}

	b, notes := selectBackend(p)
	r.Selected = b.Name()
	switch b.(type) {
	case failClosed:
		missing, _ := Unavailable(b)
		r.Fallback, r.FallbackDetail = "refused", missing+": fallback commands exit 126 until a sandbox works or "+EnvAllowNoSandbox+"=1 is set"
	case noSandbox:
		r.Fallback, r.FallbackDetail = "unconfined", EnvAllowNoSandbox+" is set: fallback commands run as plain host processes, only their arguments are checked"
	case *bubblewrap:
		r.Fallback, r.FallbackDetail = "confined", "bubblewrap: own PID and network namespaces, only the volumes and the system directories, strict seccomp"
	default:
		r.Fallback, r.FallbackDetail = "confined", b.Name()+" (stdin and private files as far as the backend supports them)"
	}
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
	if r.Fallback != "" {
		fmt.Fprintf(&b, "fallback commands: %s (%s)\n", r.Fallback, r.FallbackDetail)
	}
	return b.String()
}
