//go:build bashbox_front

package bashbox

import (
	"errors"
	"io"
)

// errNoStateCodec is what saving or restoring a session says in the lean
// CLI front, which hands every command but a plain `bashbox run` to
// bashbox-full and so never gets here; a build that did would fail loudly
// rather than write or read nothing.
var errNoStateCodec = errors.New("session state is not linked into the lean bashbox front (use bashbox-full)")

func encodeState(io.Writer, *sessionState) error { return errNoStateCodec }

func decodeState(io.Reader, *sessionState) error { return errNoStateCodec }
