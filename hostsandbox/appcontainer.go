package hostsandbox

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf16"
)

// The AppContainer backend (Windows) runs the command in a fresh
// AppContainer — a low-integrity token that can open only what is granted
// to its SID — inside a job object that kills the whole tree on Kill or
// when the server exits, and enforces the memory and CPU limits. This file
// holds its platform-independent logic, so it is tested everywhere.

// Well-known capability SIDs granted for NetworkInherit: internetClient,
// internetClientServer and privateNetworkClientServer. With none the
// container has no network.
var appContainerNetworkCapabilities = []string{"S-1-15-3-1", "S-1-15-3-2", "S-1-15-3-3"}

// pathGrant is one ACL entry given to the container's SID for the command's
// lifetime and revoked afterwards.
type pathGrant struct {
	Path  string
	Write bool
}

// appContainerPlan is everything the Windows code needs, derived from the
// manifest without touching the system.
type appContainerPlan struct {
	Grants       []pathGrant
	Capabilities []string
	MemoryLimit  uint64
	CPUTime      time.Duration
	CommandLine  string
	Env          []string
	Dir          string
}

func planAppContainer(m *Manifest, req Request) (appContainerPlan, error) {
	var p appContainerPlan
	if err := m.Validate(); err != nil {
		return p, err
	}
	if err := requireNoHostAllowlist(m, "AppContainer"); err != nil {
		return p, err
	}
	if m.Syscalls == SyscallStrict {
		return p, fmt.Errorf("%w: AppContainer has no syscall filter (strict)", ErrPolicyNotSupported)
	}
	if err := requireBasicManifest(m, "AppContainer"); err != nil {
		return p, err
	}
	if req.Stdin != nil {
		return p, fmt.Errorf("%w: AppContainer does not forward stdin", ErrPolicyNotSupported)
	}
	if len(req.Args) == 0 {
		return p, errors.New("no command given")
	}
	writable := map[string]bool{}
	for _, w := range cleanPaths(m.FSWriteAllow) {
		writable[w] = true
	}
	seen := map[string]bool{}
	for _, path := range cleanPaths(append(append([]string{}, m.FSReadAllow...), m.FSWriteAllow...)) {
		if !seen[path] {
			seen[path] = true
			p.Grants = append(p.Grants, pathGrant{Path: path, Write: writable[path]})
		}
	}
	if m.Network.effective() == NetworkInherit {
		p.Capabilities = appContainerNetworkCapabilities
	}
	p.MemoryLimit = m.MaxMemoryBytes
	p.CPUTime = time.Duration(m.MaxCPUSecs) * time.Second
	// MaxFileBytes has no job-object equivalent; it is advisory here
	// (see its doc), and callers that meter writes also account for them
	// after the command.
	cl, err := windowsCommandLine(req.Args)
	if err != nil {
		return p, err
	}
	p.CommandLine = cl
	p.Env = m.envList()
	p.Dir = req.Dir
	return p, nil
}

// windowsCommandLine joins argv the way the Microsoft C runtime splits it:
// arguments with blanks or quotes are quoted, quotes escaped, and
// backslashes doubled only where they precede a quote.
func windowsCommandLine(args []string) (string, error) {
	var b strings.Builder
	for i, a := range args {
		if strings.ContainsRune(a, 0) {
			return "", fmt.Errorf("argument %d contains a NUL", i)
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n\v\"") {
			b.WriteString(a)
			continue
		}
		b.WriteByte('"')
		slashes := 0
		for j := 0; j < len(a); j++ {
			switch c := a[j]; c {
			case '\\':
				slashes++
			case '"':
				b.WriteString(strings.Repeat(`\`, 2*slashes+1))
				b.WriteByte('"')
				slashes = 0
			default:
				b.WriteString(strings.Repeat(`\`, slashes))
				b.WriteByte(c)
				slashes = 0
			}
		}
		b.WriteString(strings.Repeat(`\`, 2*slashes))
		b.WriteByte('"')
	}
	return b.String(), nil
}

// windowsEnvBlock renders NAME=VALUE pairs as the UTF-16 environment block
// CreateProcess takes: sorted by name (case-insensitively, as Windows
// expects), each NUL-terminated, and the block ended by one more NUL.
func windowsEnvBlock(env []string) []uint16 {
	sorted := append([]string{}, env...)
	sort.SliceStable(sorted, func(i, j int) bool {
		ni, _, _ := strings.Cut(sorted[i], "=")
		nj, _, _ := strings.Cut(sorted[j], "=")
		return strings.ToUpper(ni) < strings.ToUpper(nj)
	})
	var block []uint16
	for _, kv := range sorted {
		block = append(block, utf16.Encode([]rune(kv))...)
		block = append(block, 0)
	}
	if len(block) == 0 {
		block = append(block, 0)
	}
	return append(block, 0)
}
