package printf

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestAgainstGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{
		{"%s|%5s|%-5s|%.2s\\n", "a", "b", "c", "defg"}, {"%d %i %o %x %X %u\\n", "42", "-7", "8", "255", "255", "3"},
		{"%f %.2f %e %g %G %.20f\\n", "3.14159", "2.675", "12345.678", "0.0001", "1e-10", "0.1"},
		{"%a %A %.3a %.0a %a\\n", "1", "-2.5", "3.14159", "1.5", "0x1p-3"}, {"%f %e %g %5.1f|\\n", "inf", "-inf", "nan", "-nan"},
		{"%+d % d %05d %-6d| %#o %#x %.3d %*d %-*d|\\n", "5", "5", "42", "7", "8", "255", "7", "6", "3", "4", "2"},
		{"%s=%s\\n", "a", "1", "b", "2", "c"}, {"x\\n", "extra"}, {"%d %d %d %d %x\\n", "0x1F", "017", "'A", "\"é", "-1"},
		{"%b|%b|%b\\n", "a\\tb", "\\0101", "\\101"}, {"%b", "stop\\cnot"}, {"%q\\n", "plain", "two words", "it's", "", "a\nb"},
		{"a\\tb\\\\c\\x41\\101\\u00e9\\e\\n"}, {"\\q\\n"}, {"%d|%d|%d\\n", "abc", "12x", "99999999999999999999"},
		{"%y"}, {"%"}, {"%5%"}, {"\\x"}, {"\\u0041"}, {"%c%c|%s|%d|\\n", "hello", "x"}, {"%.30f %.25e %g\\n", "1.1", "2.5", "1e100"},
		{"%.0f %.0f %.0f %.0f\\n", "0.5", "1.5", "2.5", "3.5"}, {"%u %x\\n", "-0x10", "18446744073709551616"},
		{"%.3d|%.0d|%5.3d|%-+5d|%05.1d\\n", "5", "0", "7", "3", "9"}, {"%#.0f %#g %#.3g %g\\n", "5", "1", "2", "100000"},
		{"%d\\n", "'ab"}, {"%s"}, {"--", "%s\\n", "x"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{"printf"}, args...)})
	}
	gnutest.Check(t, Run, cases)
}

func TestNoOperand(t *testing.T) {
	gnutest.Check(t, Run, []cmdtest.GNUCase{{Args: []string{"printf"}}})
}
