package numfmt

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzNumfmt checks that no arguments make numfmt panic or hang.
func FuzzNumfmt(f *testing.F) {
	cmdtest.FuzzArgs(f, "numfmt", Run, []string{"--to=si 1000", "--from=auto 1Ki", "--format=%08.2f 3.1", "--field=2- a 1", "--round=up --to=iec 1536", "--padding=-9 5", "--invalid=warn x 1"})
}
