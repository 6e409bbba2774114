package truncate_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/truncate"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "12": 12, "1K": 1024, "1k": 1024, "1KB": 1000, "1KiB": 1024, "2M": 2 << 20, "1MB": 1e6, "1G": 1 << 30, "1T": 1 << 40, "1P": 1 << 50, "1E": 1 << 60} {
		got, err := truncate.ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "1x", "1KX", "1p", "-1", "1Z", "99999999999999999999"} {
		if _, err := truncate.ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) succeeded", in)
		}
	}
}

func TestTable(t *testing.T) {
	files := map[string]string{"f": "12345", "d/": ""}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
		code   int
		size   int64
	}{
		{"absolute", []string{"truncate", "-s", "3", "f"}, "", 0, 3},
		{"extend", []string{"truncate", "-s", "+1K", "f"}, "", 0, 1029},
		{"reduce", []string{"truncate", "-s", "-10", "f"}, "", 0, 0},
		{"at most", []string{"truncate", "-s", "<2", "f"}, "", 0, 2},
		{"at least", []string{"truncate", "-s", ">2", "f"}, "", 0, 5},
		{"round down", []string{"truncate", "-s", "/2", "f"}, "", 0, 4},
		{"round up", []string{"truncate", "-s", "%4", "f"}, "", 0, 8},
		{"io blocks", []string{"truncate", "-o", "-s", "2", "f"}, "", 0, 8192},
		{"reference", []string{"truncate", "-r", "f", "-s", "+1", "g"}, "", 0, -6},
		{"bad", []string{"truncate", "-s", "1Q", "f"}, "truncate: Invalid number: ‘1Q’\n", 1, 5},
		{"dir", []string{"truncate", "-s", "0", "d"}, "truncate: cannot open 'd' for writing: Is a directory\n", 1, 5},
		{"no size", []string{"truncate", "f"}, "truncate: you must specify either ‘--size’ or ‘--reference’\nTry 'truncate --help' for more information.\n", 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(truncate.Run, tc.args...)
			if res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %d), want (%q, %d)", res.Stderr, res.Code, tc.stderr, tc.code)
			}
			name, size := "/work/f", tc.size
			if size < 0 {
				name, size = "/work/g", -size
			}
			if fi, err := res.FS.Stat(name); err != nil || fi.Size() != size {
				t.Errorf("size %v %v, want %d", fi, err, size)
			}
		})
	}
}

func TestNoCreate(t *testing.T) {
	res := (&cmdtest.Env{}).Run(truncate.Run, "truncate", "-c", "-s", "1", "nope")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatal(res.Stderr)
	}
	if _, err := res.FS.Stat("/work/nope"); err == nil {
		t.Error("-c created the file")
	}
}
