//go:build !linux && !darwin

package overlayfs

// hostStat: host stat fields are read on Linux and macOS only; elsewhere
// host files report no identity (hard links are not recognised).
func hostStat(any) (Stat, bool) { return Stat{}, false }
