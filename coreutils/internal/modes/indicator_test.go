package modes

import (
	"io/fs"
	"testing"
)

func TestIndicator(t *testing.T) {
	cases := []struct {
		m               fs.FileMode
		classify, slash bool
		want            string
	}{
		{fs.ModeDir | 0o755, false, true, "/"},
		{fs.ModeDir, true, false, "/"},
		{0o755, true, false, "*"},
		{0o755, false, false, ""},
		{0o644, true, false, ""},
		{fs.ModeSymlink, false, false, "@"},
		{fs.ModeSymlink, true, true, ""},
		{fs.ModeNamedPipe, false, false, "|"},
		{fs.ModeSocket, true, false, "="},
		{fs.ModeDevice, true, false, ""},
		{fs.ModeCharDevice | fs.ModeDevice, true, false, ""},
	}
	for _, c := range cases {
		if got := Indicator(c.m, c.classify, c.slash); got != c.want {
			t.Errorf("Indicator(%v, %v, %v) = %q, want %q", c.m, c.classify, c.slash, got, c.want)
		}
	}
}
