package modes

import "testing"

func TestApply(t *testing.T) {
	cases := []struct {
		mode  string
		old   uint32
		dir   bool
		umask uint32
		want  uint32
	}{
		{"755", 0o644, false, 0o22, 0o755},
		{"+x", 0o644, false, 0o22, 0o755},
		{"+w", 0o444, false, 0o22, 0o644},
		{"-w", 0o666, false, 0o22, 0o466},
		{"a-w", 0o666, false, 0o22, 0o444},
		{"=rw", 0o646, false, 0o22, 0o644},
		{"u=rwx,g=rx,o=", 0o644, false, 0o22, 0o750},
		{"g=u", 0o640, false, 0, 0o660},
		{"o=g-w", 0o660, false, 0, 0o664},
		{"u+s", 0o755, false, 0, 0o4755},
		{"u+t", 0o755, false, 0, 0o755},
		{"+t", 0o755, true, 0o22, 0o1755},
		{"ug+X", 0o644, false, 0, 0o644},
		{"ug+X", 0o744, false, 0, 0o754},
		{"a+X", 0o644, true, 0, 0o755},
		{"755", 0o2755, true, 0, 0o2755},
		{"00755", 0o2755, true, 0, 0o755},
		{"0", 0o2755, false, 0, 0},
		{"u-x+w", 0o555, false, 0, 0o655},
		{"a=r,u+w", 0o777, false, 0, 0o644},
	}
	for _, c := range cases {
		m, err := Parse(c.mode)
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		if got := m.Apply(c.old, c.dir, c.umask); got != c.want {
			t.Errorf("%s on %o: got %o want %o", c.mode, c.old, got, c.want)
		}
	}
	for _, bad := range []string{"", "q", "8", "10000", "u+z", "u", "+w,", "rwx"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
