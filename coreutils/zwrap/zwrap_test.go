package zwrap

import "testing"

func TestStrip(t *testing.T) {
	for _, tc := range []struct {
		f          *Family
		name, want string
		ok         bool
	}{
		{Gzip, "a.gz", "a", true}, {Gzip, "x.tgz", "x.tar", true}, {Gzip, "b-z", "b", true},
		{Gzip, "plain", "", false}, {Bzip2, "a.bz2", "a", true}, {Xz, "d/a.xz", "d/a", true},
		{Xz, "a.txt", "", false},
	} {
		got, ok := tc.f.strip(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s strip(%q) = %q %v, want %q %v", tc.f.prefix, tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
