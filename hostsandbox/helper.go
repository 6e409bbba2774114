package hostsandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
)

// The sandbox helper is this same executable, started inside the sandbox
// with a marker argument: it applies the layers that must be set up by the
// sandboxed process itself (Landlock, resource limits) and then execs the
// real command, which inherits them. Doing this in a fresh process keeps
// the restrictions out of the server process.
const helperMarker = "__bashbox_sandbox_helper__"

// helperRegistered is set by ServeHelper: it means this executable handles
// the marker, so it can be used as the helper. Written once at startup.
var helperRegistered atomic.Bool

// ServeHelper must be called at the very start of main (or TestMain) of any
// program that uses this package. When the process was started as the
// sandbox helper, it applies the requested restrictions and execs the
// command, never returning. Otherwise it records that this executable can
// serve as the helper and returns at once. Without it the Landlock layer is
// skipped (with one warning) and resource limits need bwrap's own flags.
func ServeHelper() {
	helperRegistered.Store(true)
	if len(os.Args) < 4 || os.Args[1] != helperMarker {
		return
	}
	os.Exit(runHelper(os.Args[2], os.Args[3:]))
}

// helperConfig is what the helper applies before exec. It travels as one
// JSON argument.
type helperConfig struct {
	Landlock *landlockRules `json:"landlock,omitempty"`
	// Resource limits; zero means unlimited.
	MaxMemoryBytes uint64 `json:"max_memory_bytes,omitempty"`
	MaxCPUSecs     uint64 `json:"max_cpu_secs,omitempty"`
	MaxFileBytes   uint64 `json:"max_file_bytes,omitempty"`
}

// landlockRules lists the paths the command may read and write; all else
// is denied. DenyTCP also denies TCP bind and connect.
type landlockRules struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
	// ListOnly may be listed but grants no file access: the sandbox root,
	// so "ls /" works (inside bubblewrap it holds only the sandbox's mounts).
	ListOnly []string `json:"list_only,omitempty"`
	DenyTCP  bool     `json:"deny_tcp"`
}

// helperArgs returns the argv that runs command through the helper.
func helperArgs(helperPath string, cfg helperConfig, command []string) ([]string, error) {
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	return append([]string{helperPath, helperMarker, string(data)}, command...), nil
}

// helperPath returns this executable's path when it can serve as the
// helper.
func helperPath() (string, bool) {
	if !helperRegistered.Load() {
		return "", false
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	return exe, true
}

// runHelper is the helper's body. It returns only on failure, with 126
// (could not apply a restriction: fail closed) or 127 (no such command).
func runHelper(rawConfig string, command []string) int {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "bashbox sandbox: "+format+"\n", args...)
		return code
	}
	var cfg helperConfig
	if err := json.Unmarshal([]byte(rawConfig), &cfg); err != nil {
		return fail(126, "bad helper configuration: %v", err)
	}
	if len(command) == 0 {
		return fail(126, "no command given")
	}
	bin, err := exec.LookPath(command[0])
	if err != nil {
		return fail(127, "%s: command not found", command[0])
	}
	if err := applyRlimits(cfg.MaxMemoryBytes, cfg.MaxCPUSecs, cfg.MaxFileBytes); err != nil {
		return fail(126, "setting resource limits: %v", err)
	}
	if cfg.Landlock != nil {
		if err := applyLandlock(*cfg.Landlock); err != nil {
			return fail(126, "applying Landlock: %v", err)
		}
	}
	err = syscall.Exec(bin, command, os.Environ())
	return fail(126, "exec %s: %v", command[0], err)
}
