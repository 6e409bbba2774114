package date

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzDate checks that no arguments make date panic or hang.
func FuzzDate(f *testing.F) {
	cmdtest.FuzzArgs(f, "date", Run, []string{"-d @0", "-d 2024-01-02 +%F", "-u -d @1700000000 +%a%N%:::z", "-Ins -d @1.5", "-d next monday", "+%-10Y%_5j%^B"})
}
