package find

import (
	"io/fs"

	"github.com/bashbox/bashbox/coreutils/internal/modes"
)

// typeChar is the letter -type and %y use for m's file type: ls's letter,
// but 'f' for a regular file and 'U' for an unknown type.
func typeChar(m fs.FileMode) byte {
	switch t := modes.TypeChar(m); t {
	case '-':
		return 'f'
	case '?':
		return 'U'
	default:
		return t
	}
}
