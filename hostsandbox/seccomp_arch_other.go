//go:build linux && !amd64 && !arm64

package hostsandbox

import (
	"fmt"

	"github.com/elastic/go-seccomp-bpf/arch"
)

// filterArch is the running architecture as the strict filter needs it,
// from go-seccomp-bpf's tables (amd64 and arm64 list theirs from x/sys/unix
// instead, sparing every start of the binary the tables' initialisation).
func filterArch() (seccompArch, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return seccompArch{}, fmt.Errorf("seccomp: %w", err)
	}
	return seccompArch{name: info.Name, auditArch: uint32(info.ID), x32Mask: uint32(info.SeccompMask), numbers: info.SyscallNames}, nil
}
