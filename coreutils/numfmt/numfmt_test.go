package numfmt

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{
		{"--to=si", "1000", "1500", "999", "1000000", "123456789", "0", "0.5", "9999", "99999"},
		{"--to=iec", "1024", "1536", "1048575"}, {"--to=iec-i", "4096", "1"}, {"--from=si", "1K", "1.5M"},
		{"--from=auto", "1Ki", "1K"}, {"--from=iec-i", "1K"}, {"1K"}, {"abc"}, {"--invalid=warn", "abc", "5"},
		{"--invalid=ignore", "abc", "5"}, {"--invalid=fail", "abc", "5"}, {"1.50"}, {"12x"}, {"1 K"},
		{"--round=up", "--to=si", "1001"}, {"--round=nearest", "--to=si", "1450", "1550"}, {"--to-unit=1000", "5000000"},
		{"--from-unit=1K", "3"}, {"--to-unit=1KiB", "1"}, {"99999999999999999999"}, {"--to=si", "99999999999999999999999999999"},
		{"--format=%08.2f", "3.14159"}, {"--format=x%-10fy", "42"}, {"--format", "%d", "1"}, {"--format=%%%f%%", "5"},
		{"--to=si", "--format=%.2f", "1234567"}, {"--padding=8", "--to=si", "1000"}, {"--padding=-8", "1000"},
		{"--field=x", "1"}, {"--field=2-1", "1"}, {"-d", "ab", "1"}, {"--header=0", "1"}, {"--grouping", "--to=si", "1"},
		{"--to=foo", "1"}, {"0.123456789012345678901"}, {"--debug", "1"}, {"--to=iec", "--suffix=B", "2048"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{"numfmt"}, args...)})
	}
	cases = append(cases,
		cmdtest.GNUCase{Stdin: " 1000  2000 x\n", Args: []string{"numfmt", "--to=si"}},
		cmdtest.GNUCase{Stdin: "a 1000 2000\nb 3000 4000", Args: []string{"numfmt", "--field=2-", "--to=si"}},
		cmdtest.GNUCase{Stdin: "h\n1024\n", Args: []string{"numfmt", "--header", "--to=iec"}},
		cmdtest.GNUCase{Stdin: "x:2048:y\n", Args: []string{"numfmt", "-d:", "--field=2", "--to=iec"}},
		cmdtest.GNUCase{Stdin: "5\x006\x00", Args: []string{"numfmt", "-z", "--to=si"}},
	)
	gnutest.Check(t, Run, cases)
}
