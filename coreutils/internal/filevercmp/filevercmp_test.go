package filevercmp

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// names exercise suffixes, "~", hidden names, leading zeros and digit runs.
var names = []string{
	"a", "a~", "a~1", "a1", "a01", "a001", "a2", "a10", "a.txt", "a1.txt", "a10.txt", "a.tar.gz",
	"a-1", "a_1", "A", "b", ".", "..", ".a", ".b", ".a1", "~a", "1", "01", "10", "9", "",
	"foo-1.2.3", "foo-1.10.0", "foo-1.2.10", "foo.1", "foo~", "x.~1~", "x.~2~", "z9z", "z10z",
}

// TestAgainstGNUSort orders the names with Compare and with the host's
// sort -V, which uses gnulib's filevercmp.
func TestAgainstGNUSort(t *testing.T) {
	sortBin, err := exec.LookPath("sort")
	if err != nil {
		t.Skip("no host sort")
	}
	var in []string
	for _, n := range names {
		if n != "" {
			in = append(in, n)
		}
	}
	cmd := exec.Command(sortBin, "-V")
	cmd.Env = []string{"LC_ALL=C"}
	cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Skip("sort -V:", err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	got := slices.Clone(in)
	slices.SortStableFunc(got, func(a, b string) int {
		if c := Compare(a, b); c != 0 {
			return c
		}
		return strings.Compare(a, b) // sort's last-resort comparison
	})
	if !slices.Equal(got, want) {
		t.Errorf("order differs:\n got  %q\n want %q", got, want)
	}
	if Compare([]byte("a1"), []byte("a10")) >= 0 || Compare("", "a") >= 0 || Compare("a", "") <= 0 || Compare("", "") != 0 {
		t.Error("byte and empty forms")
	}
}
