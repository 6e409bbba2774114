package procutil

import "testing"

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1", 1, true}, {"1.5m", 90, true}, {"2h", 7200, true}, {"1d", 86400, true},
		{".5", 0.5, true}, {"0x1p-4", 0.0625, true}, {"0x10", 16, true}, {"1e-3", 0.001, true},
		{"x", 0, false}, {"1x", 0, false}, {"-1", 0, false}, {"nan", 0, false}, {"", 0, false},
		{"0.1m0", 0, false}, {"1_0", 0, false}, {" 2", 2, true},
	} {
		got, ok := ParseInterval(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseSignal(t *testing.T) {
	for _, tc := range []struct {
		in  string
		num int
		ok  bool
	}{
		{"TERM", 15, true}, {"sigint", 2, true}, {"9", 9, true}, {"KILL", 9, true},
		{"RTMIN+2", 36, true}, {"FOO", 0, false}, {"65", 0, false}, {"0", 0, true},
	} {
		s, ok := ParseSignal(tc.in)
		if ok != tc.ok || ok && s.Num != tc.num {
			t.Errorf("ParseSignal(%q) = %v, %v", tc.in, s, ok)
		}
	}
}
