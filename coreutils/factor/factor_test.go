package factor

import "testing"

func TestAgainstGNU(t *testing.T) {
	compareGNU(t, Run, []gnuCase{
		{args: []string{"factor", "0", "1", "2", "+5", " 7", "4294967297", "18446744073709551615", "18446744073709551616"}},
		{args: []string{"factor", "1000000016000000063", "999999999989", "123456789012345678901234567890", "1267650600228229401496703205653"}},
		{args: []string{"factor", "1e3", "0x10", "", "12abc", "7 ", "007"}},
		{stdin: "6 8  x 9\n10\n", args: []string{"factor"}},
		{args: []string{"factor", "-5"}}, {args: []string{"factor", "--", "-5"}},
	})
}
