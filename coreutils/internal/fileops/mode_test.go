package fileops

import "testing"

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		old   uint32
		dir   bool
		umask uint32
		want  uint32
	}{
		{"755", 0, false, 0o022, 0o755},
		{"1777", 0, true, 0o022, 0o1777},
		{"u+x", 0o644, false, 0o022, 0o744},
		{"+x", 0o644, false, 0o022, 0o755},
		{"+w", 0o444, false, 0o022, 0o644},
		{"a+w", 0o444, false, 0o022, 0o666},
		{"g-w,o=", 0o777, true, 0o022, 0o750},
		{"a=rX", 0o644, false, 0, 0o444},
		{"a=rX", 0o744, false, 0, 0o555},
		{"a=rX", 0o600, true, 0, 0o555},
		{"go=u", 0o740, false, 0, 0o777},
		{"u=g", 0o750, false, 0, 0o550},
		{"+t", 0o777, true, 0, 0o1777},
		{"u+s", 0o755, false, 0, 0o4755},
		{"=", 0o777, false, 0o022, 0o000},
		{"u=rwx,g=rx,o=", 0, false, 0, 0o750},
		{"o-rwx+r", 0o777, false, 0, 0o774},
		{"755", 0o2755, true, 0, 0o2755},
		{"00755", 0o2755, true, 0, 0o755},
	} {
		m, err := ParseMode(tc.spec)
		if err != nil {
			t.Errorf("ParseMode(%q): %v", tc.spec, err)
			continue
		}
		if got := m.Apply(tc.old, tc.dir, tc.umask); got != tc.want {
			t.Errorf("%q on %o: got %o, want %o", tc.spec, tc.old, got, tc.want)
		}
	}
	for _, bad := range []string{"", "8", "7777777", "abc", "u+q", "u", "u+x,", ",", "a=r x"} {
		if _, err := ParseMode(bad); err == nil {
			t.Errorf("ParseMode(%q) succeeded", bad)
		}
	}
}
