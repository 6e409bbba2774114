//go:build !bashbox_front

package bashbox

import (
	"encoding/gob"
	"io"
)

// A saved state is gob: compact for the file contents it mostly holds,
// and the format states already stored (a server's Redis sessions) are in.
// The codec is in a file of its own because the lean CLI front (built with
// the bashbox_front tag) never saves a session and should not pay
// encoding/gob's initialisation at every start; there session_state_front.go
// stands in.

func encodeState(w io.Writer, st *sessionState) error { return gob.NewEncoder(w).Encode(st) }

func decodeState(r io.Reader, st *sessionState) error { return gob.NewDecoder(r).Decode(st) }
