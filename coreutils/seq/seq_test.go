package seq

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestSeq(t *testing.T) {
	tests := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"seq", "3"}, "1\n2\n3\n", 0},
		{[]string{"seq", "2", "4"}, "2\n3\n4\n", 0},
		{[]string{"seq", "1", "0.5", "2"}, "1.0\n1.5\n2.0\n", 0},
		{[]string{"seq", "-s,", "3"}, "1,2,3\n", 0},
		{[]string{"seq", "-w", "8", "10"}, "08\n09\n10\n", 0},
		{[]string{"seq", "-1", "1"}, "-1\n0\n1\n", 0},
		{[]string{"seq", "x"}, "", 1},
		{[]string{"seq", "99999999999999999999", "100000000000000000001"}, "99999999999999999999\n100000000000000000000\n100000000000000000001\n", 0},
	}
	for _, tt := range tests {
		env := cmdtest.Env{}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Code != tt.code {
			t.Errorf("%q: got %q %d (%q), want %q %d", tt.args, r.Stdout, r.Code, r.Stderr, tt.out, tt.code)
		}
	}
}

func TestSeqGNU(t *testing.T) {
	lines := []string{
		"1 3", "3", "0", "-1 1", "1 0.5 3", "0 0.1 1", "1e3 1e3", "1 1e1 30", "-w 1 10", "-w -5 5", "-w 0.5 0.25 2",
		"-w 1 .5 3", "-w 1.0 3", "-w 1e1 12", "-s, 1 3", "-f %03g 1 3", "-f %e 1 3", "-f %.2f 0.1 0.3", "1 -1 -3",
		"0x10 0x12", "-- -1 1", "1.5 3", "10 -3 1", ".5 1.5", "-.5 1", "5.", "1 1e-1 1.3", "-w 1e-1 0.1 0.3", "1e-1",
		"nan", "1 nan", "3 1", "-f %g%% 1 2", "-f x 1", "-f %d 1", "-f %f%f 1", "-f %Lf 1 2", "-f %'10.3f 1000 1001",
		"1 2 3 4", "--format=%5.1f 1 2", "-s ab 1 3", "18446744073709551615 18446744073709551617", "1 0", "-0 1",
		"1 1.0 2", "0.1 0.1 0.3", "999999 1000002 1000003", "1e6 1e6", "-w 9 11", "-w -1 -0.5 1", "2 -1.5 -2",
		"0 0.000001 0.000003", "1 3 -w", "-w 1 3 -s:", "-f %-8.3e| 1 2", "-f %+g 1 2", "-f % g 1 2", "-f %#g 1 2",
		"-f %a 1 3", "-f %.2a 1 3", "-f %A 0.5 0.5", "-f %G 1e10 1e10", "-f %g 100000 100001", "-f %g 1000000 1000001",
		"-f %.3g 0.0001234 1", "-f %10.4e 1234.5 1235", "-f %-010g| 1 2", "-f %010.2f -1 1", "1e-3 1e-3 3e-3",
		"-w 001 3", "-w 0.0001 0.0002", "-s '' 1 3", "-f %", "-f %5", "1 0 3", "1 -0 3", "-f %f -w 1 2", "--equal-width 5",
		"10 1", "1.23456789012345678 1", "1 0.3333333333333333 2", "-f %.20f 0.1 0.1", "1 2e0 5", "1.0e1 11", "-5 -w 5",
		"0x1p3", "inf 1", "-inf", "1e5000", "1 1e4931 1e4932", "--sep=- 3", "--frob", "-x 3", " 5", "+3", "2 +1 4",
		"-1e1 -5", "-w -1e1 -5", "3 -1 1", "-w 3 -1 1", "-w 0.5 1e1 30", "-w 5. 7", "-w 1 1.50 3",
		"1e-5000 1", "0x 1", "0x.8 2", "0X1P1 3", "nan(x) 1", "INFINITY 1", "1e 2", "0x1p 2", "1 0x1.8p-1 2",
	}
	var cases []cmdtest.GNUCase
	for _, l := range lines {
		args := []string{"seq"}
		for _, f := range strings.Fields(l) {
			if f == "''" {
				f = ""
			}
			args = append(args, f)
		}
		cases = append(cases, cmdtest.GNUCase{Args: args})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
