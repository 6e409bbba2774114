package textio

import "testing"

func TestScanUint(t *testing.T) {
	for _, tt := range []struct {
		in   string
		base int
		suf  string
		want Scanned
	}{
		{"0x10", 0, "bEGKkMmPTYZ0", Scanned{Value: 16, Digits: true}},
		{"010", 0, "bEGKkMmPTYZ0", Scanned{Value: 8, Digits: true}},
		{"010", 10, "", Scanned{Value: 10, Digits: true}},
		{"0x", 0, "bEGKkMmPTYZ0", Scanned{Value: 0, Digits: true, BadSuffix: true, Rest: "x"}},
		{"08", 0, "bEGKkMmPTYZ0", Scanned{Value: 0, Digits: true, BadSuffix: true, Rest: "8"}},
		{" +2KiB", 10, "kKMG0", Scanned{Value: 2048, Digits: true, Suffix: "KiB"}},
		{"KD", 10, "kKMG0", Scanned{Value: 1000, Suffix: "KD"}},
		{"1p", 10, "pP0", Scanned{Value: 1, Digits: true, BadSuffix: true, Rest: "p"}},
		{"1Kx", 10, "K0", Scanned{Value: 1024, Digits: true, BadSuffix: true, Rest: "x"}},
		{"99999999999999999999x", 10, "K", Scanned{Value: 1<<64 - 1, Digits: true, BadSuffix: true, Overflow: true, Rest: "x"}},
		{" 0x1f-rest", 0, "", Scanned{Value: 31, Digits: true, BadSuffix: true, Rest: "-rest"}},
		{"16E", 10, "E", Scanned{Value: 1<<64 - 1, Digits: true, Suffix: "E", Overflow: true}},
		{"-1", 10, "", Scanned{Invalid: true}},
		{"x", 10, "K", Scanned{Invalid: true}},
	} {
		if got := ScanUint(tt.in, tt.base, tt.suf); got != tt.want {
			t.Errorf("ScanUint(%q, %d, %q) = %+v, want %+v", tt.in, tt.base, tt.suf, got, tt.want)
		}
	}
}

func TestScanSigned(t *testing.T) {
	for _, tt := range []struct {
		in   string
		neg  bool
		want Scanned
	}{
		{" -0x10", true, Scanned{Value: 16, Digits: true}},
		{"+7", false, Scanned{Value: 7, Digits: true}},
		{"- 7", true, Scanned{Invalid: true}},
		{"+-7", false, Scanned{Invalid: true}},
		{"-", true, Scanned{Invalid: true}},
	} {
		neg, got := ScanSigned(tt.in, 0, "")
		if neg != tt.neg || got != tt.want {
			t.Errorf("ScanSigned(%q) = %v, %+v; want %v, %+v", tt.in, neg, got, tt.neg, tt.want)
		}
	}
}
