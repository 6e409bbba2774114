package chmod

import (
	"os"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	cmdtest.RemoveFixtures()
	os.Exit(code)
}
