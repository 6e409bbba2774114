package expr

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzExpr checks that no arguments make expr panic or hang.
func FuzzExpr(f *testing.F) {
	cmdtest.FuzzArgs(f, "expr", Run, []string{"1 + 2", "( 1 + 2 ) * 3", "abc : a\\(b\\)", "substr hello 2 3", "length héllo", "index abc b", "1 / 0", "99999999999999999999 * 99999999999999999999"})
}
