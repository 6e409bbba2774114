package shuf

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNUWithRandomSource(t *testing.T) {
	var lines strings.Builder
	for i := 1; i <= 300; i++ {
		lines.WriteString(strings.Repeat("x", i%7) + "\n")
	}
	src := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 200)
	f := map[string]string{"in": lines.String(), "rs": src, "short": "x"}
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{
		{"--random-source=rs", "in"}, {"--random-source=rs", "-n", "5", "in"}, {"--random-source=rs", "-e", "a", "b", "c", "d"},
		{"--random-source=rs", "-i", "1-100"}, {"--random-source=rs", "-i", "0-18446744073709551614", "-n", "3"},
		{"--random-source=rs", "-r", "-n", "20", "-e", "x", "y", "z"}, {"--random-source=rs", "-r", "-i", "5-9", "-n", "10"},
		{"--random-source=short", "in"}, {"--random-source=nope", "in"}, {"--random-source=nope", "-n", "0", "in"},
		{"-i", "5-3"}, {"-i", "5-4"}, {"-n", "x"}, {"-e", "-i", "1-2"}, {"a", "b"}, {"-r", "-e"}, {"nope"},
		{"--random-source=rs", "-z", "-e", "a", "b"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: f, Args: append([]string{"shuf"}, args...)})
	}
	gnutest.Check(t, Run, cases)
}
