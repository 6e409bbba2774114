package file

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestMain(m *testing.M) { gnutest.Main(m) }
