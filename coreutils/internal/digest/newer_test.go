package digest

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/digest/blake2"
)

// The options GNU added after the reference coreutils 9.1 (--base64 and
// --raw in 9.2, crc32b in 9.6) cannot be compared with the installed tool;
// the expected values here were computed with Python's hashlib, base64 and
// zlib and the 9.1 tool's decimal sums.
func TestCksumNewerOptions(t *testing.T) {
	files := map[string]string{"a": "abc", "b": "", "d/": ""}
	for _, tc := range []struct {
		args     []string
		stdin    string
		out, err string
		code     int
	}{
		{args: []string{"-a", "sha256", "--base64", "a"}, out: "SHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\n"},
		{args: []string{"-a", "md5", "--base64", "--untagged", "a"}, out: "kAFQmDzST7DWlj99KOF/cg==  a\n"},
		{args: []string{"-a", "blake2b", "-l", "16", "--base64", "a"}, out: "BLAKE2b-16 (a) = rh4=\n"},
		{args: []string{"-a", "sha1", "--raw", "a"}, out: "\xa9\x99\x3e\x36\x47\x06\x81\x6a\xba\x3e\x25\x71\x78\x50\xc2\x6c\x9c\xd0\xd8\x9d"},
		{args: []string{"--raw", "a"}, out: "\x48\xaa\x78\xa2"},               // 1219131554
		{args: []string{"-a", "bsd", "--raw"}, stdin: "abc", out: "\x40\xac"}, // 16556
		{args: []string{"-a", "sysv", "--raw", "a"}, out: "\x01\x26"},         // 294
		{args: []string{"-a", "crc32b", "a", "b"}, out: "891568578 3 a\n0 0 b\n"},
		{args: []string{"-a", "crc32b", "--raw", "a"}, out: "\x35\x24\x41\xc2"},
		{args: []string{"-a", "crc", "--base64", "a"}, out: "1219131554 3 a\n"},
		{args: []string{"--raw", "a", "b"}, code: 1, err: "cksum: the --raw option is not supported with multiple files\n"},
		{args: []string{"--raw", "--base64", "a"}, code: 1, err: "cksum: --base64 and --raw are mutually exclusive\nTry 'cksum --help' for more information.\n"},
		{args: []string{"-a", "crc32b", "-c", "a"}, code: 1, err: "cksum: --check is not supported with --algorithm={bsd,sysv,crc,crc32b}\n"},
		{args: []string{"-a", "crc32b", "d"}, code: 1, err: "cksum: d: Is a directory\n"},
	} {
		r := (&cmdtest.Env{Files: files, Stdin: tc.stdin}).Run(Cksum(blake2.New), append([]string{"cksum"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
			t.Errorf("cksum %q: got %q %q %d, want %q %q %d", tc.args, r.Stdout, r.Stderr, r.Code, tc.out, tc.err, tc.code)
		}
	}
}

// cksum --check reads the base64 digests --base64 writes, tagged or with
// -a untagged, and refuses CRC32B tags as it refuses CRC ones.
func TestCksumCheckBase64(t *testing.T) {
	files := map[string]string{
		"a": "abc", "b": "x",
		"s": "SHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\n" +
			"MD5 (a) = kAFQmDzST7DWlj99KOF/cg==\n" +
			"BLAKE2b (a) = uoClP5gcTQ1qJ5e2nxL26UwhLxRoWsS3SxK7b9v/otF9h8U5Kqt5LcJS1d5FM8yVGNOKqNvxklq5I4bt1ACZIw==\n" +
			"MD5 (b) = kAFQmDzST7DWlj99KOF/cg==\n" +
			"MD5 (a) = kAFQmDzST7DWlj99KOF/cg=\n" +
			"MD5 (a) = kAFQmDzST7DWlj99KOF/c===\n" +
			"CRC32B (a) = 891568578\n",
		"u": "kAFQmDzST7DWlj99KOF/cg==  a\n",
	}
	r := (&cmdtest.Env{Files: files}).Run(Cksum(blake2.New), "cksum", "-c", "-w", "s")
	wantOut := "a: OK\na: OK\na: OK\nb: FAILED\n"
	wantErr := "cksum: s: 5: improperly formatted MD5 checksum line\n" +
		"cksum: s: 6: improperly formatted MD5 checksum line\n" +
		"cksum: s: 7: improperly formatted CRC checksum line\n" +
		"cksum: WARNING: 3 lines are improperly formatted\n" +
		"cksum: WARNING: 1 computed checksum did NOT match\n"
	if r.Stdout != wantOut || r.Stderr != wantErr || r.Code != 1 {
		t.Errorf("check: got %q %q %d", r.Stdout, r.Stderr, r.Code)
	}
	r = (&cmdtest.Env{Files: files}).Run(Cksum(blake2.New), "cksum", "-a", "md5", "-c", "u")
	if r.Stdout != "a: OK\n" || r.Stderr != "" || r.Code != 0 {
		t.Errorf("untagged: got %q %q %d", r.Stdout, r.Stderr, r.Code)
	}
	// md5sum itself reads hexadecimal only, as GNU's does.
	r = (&cmdtest.Env{Files: files}).Run(cmd(MD5), "md5sum", "-c", "u")
	if r.Code != 1 || r.Stderr != "md5sum: u: no properly formatted checksum lines found\n" {
		t.Errorf("md5sum base64: got %q %q %d", r.Stdout, r.Stderr, r.Code)
	}
}
