package human

import "testing"

func TestAutoscale(t *testing.T) {
	cases := []struct {
		n    uint64
		base uint64
		want string
	}{
		{0, 1024, "0"}, {1023, 1024, "1023"}, {1024, 1024, "1.0K"}, {1025, 1024, "1.1K"}, {1500, 1024, "1.5K"},
		{10239, 1024, "10K"}, {10240, 1024, "10K"}, {10241, 1024, "11K"}, {1048575, 1024, "1.0M"},
		{1048576, 1024, "1.0M"}, {5000000, 1024, "4.8M"}, {1000, 1000, "1.0k"}, {1001, 1000, "1.1k"},
		{999, 1000, "999"}, {5000000, 1000, "5.0M"}, {1073741823, 1024, "1.0G"},
	}
	for _, c := range cases {
		if got := (Format{Auto: true, Base: c.base}).Show(c.n, 1); got != c.want {
			t.Errorf("%d base %d: got %s want %s", c.n, c.base, got, c.want)
		}
	}
}

func TestBlockSize(t *testing.T) {
	for spec, want := range map[string]string{"K": "2K", "1K": "2", "KiB": "2KiB", "KB": "2kB", "M": "1M", "1": "1500"} {
		f, err := ParseBlockSize(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := f.Show(1500, 1); got != want {
			t.Errorf("%s: got %s want %s", spec, got, want)
		}
	}
	for spec, want := range map[string]error{"x": ErrInvalid, "0": ErrInvalid, "-1": ErrInvalid, "1.5K": ErrSuffix, "Ki": ErrSuffix, "b": ErrInvalid, "99999999999999999999": ErrTooLarge} {
		if _, err := ParseBlockSize(spec); err != want {
			t.Errorf("%s: got %v want %v", spec, err, want)
		}
	}
}
