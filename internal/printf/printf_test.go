package printf

import (
	"fmt"
	"strings"
	"testing"
)

// run formats with a dialect whose diagnostics are collected as
// "KIND:text" lines, so the engine's decisions can be checked apart from
// any one tool's wording.
func run(shell bool, format string, args ...string) (out, diag string, res Result) {
	var b, d strings.Builder
	dl := &Dialect{
		Shell: shell, UTF8: true,
		Quote:  func(s string) string { return "<" + s + ">" },
		Say:    func(m Message, text string) { fmt.Fprintf(&d, "say%d:%s\n", m, text) },
		Warn:   func(msg string) { fmt.Fprintf(&d, "warn:%s\n", msg) },
		Number: func(a string, p Problem, kind string) bool { fmt.Fprintf(&d, "num%d:%s:%s\n", p, a, kind); return true },
	}
	if shell {
		dl.Time = func(layout string, secs int64, have bool) string {
			return fmt.Sprintf("T(%s,%d,%v)", layout, secs, have)
		}
		dl.SetVar = func(name, value string) { fmt.Fprintf(&d, "set:%s=%s\n", name, value) }
	}
	res = Run(&b, dl, format, args)
	return b.String(), d.String(), res
}

func TestEngine(t *testing.T) {
	for _, tc := range []struct {
		shell     bool
		format    string
		args      []string
		out, diag string
		status    int
		end       End
	}{
		{false, "%s-%d\n", []string{"a", "1", "b", "2", "c"}, "a-1\nb-2\nc-0\n", "", 0, Done},
		{true, "%.20f|%a\n", []string{"0.1", "1"}, "0.10000000000000000000|0x8p-3\n", "", 0, Done},
		{false, "x\n", []string{"a"}, "x\n", "say7:a\n", 0, Done},
		{false, "%d|%u\n", []string{"3x", "-1"}, "3|18446744073709551615\n", "num2:3x:number\n", 1, Done},
		{true, "%d\n", []string{"0x"}, "0\n", "num2:0x:hex number\n", 1, Done},
		{false, "%d\n", []string{"99999999999999999999"}, "9223372036854775807\n", "num4:99999999999999999999:number\n", 1, Done},
		{false, "%d %d\n", []string{"'ab", "'"}, "97 0\n", "num8:b:\nnum1:':number\n", 1, Done},
		{true, "%d\n", []string{"'"}, "0\n", "", 0, Done},
		{false, "a%5bz", []string{"x"}, "a", "say0:%5b\n", 1, Failed},
		{true, "[%5b][%-4q][%.1Q]", []string{`\t`, "a", "xy"}, "[    \t][<a> ][<x>]", "", 0, Done},
		{false, `a\cb`, nil, "a", "", 0, Stopped},
		{true, `a\cb`, nil, `a\cb`, "", 0, Done},
		{true, `%b|%s`, []string{`x\cy`, "z"}, "x", "", 0, Stopped},
		{false, `\x`, nil, "", "say5:\n", 1, Failed},
		{true, `\x\u`, nil, `\x\u`, "warn:missing hex digit for \\x\nwarn:missing unicode digit for \\u\n", 0, Done},
		{false, `\u0041`, nil, "", "say6:\\u0041\n", 1, Failed},
		{false, `\u00e9\101\0101`, nil, "é\x41\x081", "", 0, Done},
		{false, `%b`, []string{`\0101\101`}, "AA", "", 0, Done},
		{false, "%#d", []string{"1"}, "", "say0:%#d\n", 1, Failed},
		{true, "%#d|%0c", []string{"1", "x"}, "1|x", "", 0, Done},
		{true, "%(%F)T|%()T", []string{"5"}, "T(%F,5,true)|T(,-1,false)", "", 0, Done},
		{true, "ab%ncd", []string{"v"}, "abcd", "set:v=2\n", 0, Done},
		{true, "%5", nil, "", "say1:%5\n", 1, Failed},
		{false, "%*d|%.*f", []string{"-4", "7", "2", "1.234"}, "7   |1.23", "", 0, Done},
		{false, "%*d", []string{"9999999999", "1"}, "", "say3:9999999999\n", 1, Failed},
	} {
		out, diag, res := run(tc.shell, tc.format, tc.args...)
		if out != tc.out || diag != tc.diag || res.Status != tc.status || res.End != tc.end {
			t.Errorf("shell=%v %q %q: got %q %q %+v, want %q %q status %d end %d",
				tc.shell, tc.format, tc.args, out, diag, res, tc.out, tc.diag, tc.status, tc.end)
		}
	}
}

func TestUnescapeForEcho(t *testing.T) {
	for in, want := range map[string]string{
		`a\tb`: "a\tb", `\0101`: "A", `\101`: `\101`, `\x41\E`: "A\x1b", `\u00e9`: "é", `x\`: `x\`,
	} {
		got, n, stop := Unescape(in, InEcho, nil)
		if got != want || n != len(in) || stop {
			t.Errorf("Unescape(%q) = %q %d %v, want %q", in, got, n, stop, want)
		}
	}
	if got, _, stop := Unescape(`a\cb`, InEcho, nil); got != "a" || !stop {
		t.Errorf(`\c: %q %v`, got, stop)
	}
}
