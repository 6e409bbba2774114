package ls

import (
	"os"
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestMain(m *testing.M) { os.Exit(gnutest.Run(m)) }
