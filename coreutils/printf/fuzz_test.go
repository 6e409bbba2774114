package printf

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzPrintf checks that no arguments make printf panic or hang.
func FuzzPrintf(f *testing.F) {
	cmdtest.FuzzArgs(f, "printf", Run, []string{"%s|%5.2f|%-*d 3 abc 1.5", "%b \\0101\\c", "%q a", "%a %e 1e300 -0", "%*.*f 5 2 3.14159", "%.99999d 1", "%.3a 0x1.fffffffffffffffep0"})
}
