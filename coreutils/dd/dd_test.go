package dd

import (
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// The summary's timing differs between runs, so conformance cases compare
// it normalised; its format is checked here against lines GNU dd printed.
func TestTransferLine(t *testing.T) {
	for _, tc := range []struct {
		bytes   uint64
		elapsed time.Duration
		want    string
	}{
		{1, 69550 * time.Nanosecond, "1 byte copied, 6.955e-05 s, 14.4 kB/s"},
		{8, 41383300 * time.Nanosecond, "8 bytes copied, 0.0413833 s, 0.2 kB/s"},
		{999, 35027200 * time.Nanosecond, "999 bytes copied, 0.0350272 s, 28.5 kB/s"},
		{1000, 39204 * time.Nanosecond, "1000 bytes (1.0 kB) copied, 3.9204e-05 s, 25.5 MB/s"},
		{1024, 83145 * time.Nanosecond, "1024 bytes (1.0 kB, 1.0 KiB) copied, 8.3145e-05 s, 12.3 MB/s"},
		{1048576, 23095200 * time.Nanosecond, "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.0230952 s, 45.4 MB/s"},
		{5000000, 18807700 * time.Nanosecond, "5000000 bytes (5.0 MB, 4.8 MiB) copied, 0.0188077 s, 266 MB/s"},
		{10, 84438 * time.Nanosecond, "10 bytes copied, 8.4438e-05 s, 118 kB/s"},
	} {
		if got := TransferLine(tc.bytes, tc.elapsed); got != tc.want {
			t.Errorf("TransferLine(%d, %v) = %q, want %q", tc.bytes, tc.elapsed, got, tc.want)
		}
	}
}

func TestCopy(t *testing.T) {
	env := []string{"LC_ALL=C.UTF-8"}
	r := (&cmdtest.Env{Env: env, Stdin: "abcdefghij"}).Run(Run, "dd", "bs=3", "status=noxfer", "conv=ucase")
	if r.Code != 0 || r.Stdout != "ABCDEFGHIJ" || r.Stderr != "3+1 records in\n3+1 records out\n" {
		t.Errorf("dd bs=3: %+v", r)
	}
	r = (&cmdtest.Env{Env: env, Files: map[string]string{"f": "0123456789"}, Stdin: "X"}).Run(Run, "dd", "of=f", "bs=1", "seek=5", "conv=notrunc", "status=none")
	if r.Code != 0 {
		t.Fatalf("dd seek: %+v", r)
	}
	if data, _ := readAll(r, "/work/f"); data != "01234X6789" {
		t.Errorf("patched file = %q", data)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "dd", "count=x")
	if r.Code != 1 || r.Stderr != "dd: invalid number: ‘x’\n" {
		t.Errorf("dd count=x: %+v", r)
	}
}

func readAll(r cmdtest.Result, name string) (string, error) {
	f, err := r.FS.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, 100)
	n, _ := f.Read(buf)
	return string(buf[:n]), nil
}
