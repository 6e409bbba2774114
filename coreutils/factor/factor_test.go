package factor

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	gnutest.Check(t, Run, []cmdtest.GNUCase{
		{Args: []string{"factor", "0", "1", "2", "+5", " 7", "4294967297", "18446744073709551615", "18446744073709551616"}},
		{Args: []string{"factor", "1000000016000000063", "999999999989", "123456789012345678901234567890", "1267650600228229401496703205653"}},
		{Args: []string{"factor", "1e3", "0x10", "", "12abc", "7 ", "007"}},
		{Stdin: "6 8  x 9\n10\n", Args: []string{"factor"}},
		{Args: []string{"factor", "-5"}}, {Args: []string{"factor", "--", "-5"}},
	})
}
