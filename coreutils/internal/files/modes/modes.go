// Package modes is the old home of coreutils/internal/modes, kept for the
// packages that still import it (mkfifo).
//
// Deprecated: use coreutils/internal/modes.
package modes

import "github.com/bashbox/bashbox/coreutils/internal/modes"

// Change is a parsed mode argument.
type Change = modes.Change

// ErrInvalid is a mode that does not parse.
var ErrInvalid = modes.ErrInvalid

// Parse reads a mode argument.
func Parse(s string) (*Change, error) { return modes.Parse(s) }

// String renders bits as ls does, without the type letter ("rwxr-xr-x").
func String(m uint32) string { return modes.String(m) }
