package cfmt

import (
	"math/big"
	"testing"
)

func TestFloatString(t *testing.T) {
	parse := func(s string) Float {
		v, n, _ := ParseFloat(s)
		if n != len(s) {
			t.Fatalf("ParseFloat(%q) used %d bytes", s, n)
		}
		return v
	}
	for _, tc := range []struct {
		spec Spec
		in   string
		want string
	}{
		{Spec{Width: -1, Prec: 20, Verb: 'f'}, "0.1", "0.10000000000000000000"},
		{Spec{Width: -1, Prec: -1, Verb: 'g'}, "100000", "100000"},
		{Spec{Width: -1, Prec: -1, Verb: 'g'}, "1000000", "1e+06"},
		{Spec{Width: -1, Prec: -1, Verb: 'e'}, "12345.678", "1.234568e+04"},
		{Spec{Width: -1, Prec: -1, Verb: 'a'}, "1", "0x8p-3"},
		{Spec{Width: -1, Prec: 3, Verb: 'a'}, "3.14159", "0xc.910p-2"},
		{Spec{Width: 8, Prec: 2, Zero: true, Verb: 'f'}, "-3.14159", "-0003.14"},
		{Spec{Width: 5, Prec: 1, Verb: 'f'}, "inf", "  inf"},
		{Spec{Width: -1, Prec: -1, Verb: 'E'}, "-nan", "-NAN"},
		{Spec{Width: -1, Prec: 0, Hash: true, Verb: 'f'}, "5", "5."},
		{Spec{Width: -1, Prec: -1, Verb: 'f'}, "0x1p-2", "0.250000"},
	} {
		if got := FloatString(tc.spec, parse(tc.in)); got != tc.want {
			t.Errorf("%+v %s = %q, want %q", tc.spec, tc.in, got, tc.want)
		}
	}
}

func TestIntegers(t *testing.T) {
	if got := Int(Spec{Width: 6, Prec: 3, Plus: true, Verb: 'd'}, big.NewInt(7)); got != "  +007" {
		t.Errorf("Int = %q", got)
	}
	if got := Uint(Spec{Width: -1, Prec: -1, Hash: true, Verb: 'x'}, 255); got != "0xff" {
		t.Errorf("Uint = %q", got)
	}
	if got := Uint(Spec{Width: -1, Prec: -1, Hash: true, Verb: 'o'}, 8); got != "010" {
		t.Errorf("Uint = %q", got)
	}
}

func TestParseFloatPartial(t *testing.T) {
	if _, n, _ := ParseFloat("12abc"); n != 2 {
		t.Errorf("used %d", n)
	}
	if _, n, _ := ParseFloat("abc"); n != 0 {
		t.Errorf("used %d", n)
	}
	if v, _, rng := ParseFloat("1e5000"); !v.Inf || !rng {
		t.Errorf("overflow: %+v %v", v, rng)
	}
}
