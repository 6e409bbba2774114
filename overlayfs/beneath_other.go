//go:build !linux

package overlayfs

import (
	"errors"
	"io/fs"
	"os"
)

// Elsewhere every path goes through os.Root (see beneath_linux.go).
var errUseRoot = errors.New("overlayfs: resolve through os.Root")

func beneathDir(*os.Root) int { return -1 }

func closeBeneath(int) {}

func (h *HostFs) statBeneath(string, bool) (fs.FileInfo, error) { return nil, errUseRoot }

func (h *HostFs) openReadBeneath(string, bool, bool) (File, error) { return nil, errUseRoot }

func (h *HostFs) readDirBeneath(string, bool) ([]fs.FileInfo, error) { return nil, errUseRoot }
