package digest

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func cmd(a Algo) builtins.Command {
	return func(ctx context.Context, c *builtins.Call) int { return Main(ctx, c, a) }
}

var files = map[string]string{
	"a": "hello\n", "b": "world\n", "empty": "", "back\\slash": "x",
	"d/": "",
}

func TestDigestsAgainstGNU(t *testing.T) {
	for _, tc := range []struct {
		a    Algo
		name string
	}{{MD5, "md5sum"}, {SHA1, "sha1sum"}, {SHA224, "sha224sum"}, {SHA256, "sha256sum"}, {SHA384, "sha384sum"}, {SHA512, "sha512sum"}, {BLAKE2B, "b2sum"}} {
		compareGNU(t, cmd(tc.a), []gnuCase{
			{files: files, args: []string{tc.name, "a", "b", "empty"}},
			{files: files, stdin: "abc", args: []string{tc.name}},
			{files: files, args: []string{tc.name, "--tag", "a", "back\\slash"}},
			{files: files, args: []string{tc.name, "-b", "a", "nope", "d"}},
			{files: files, args: []string{tc.name, "-z", "a", "back\\slash"}},
			{files: files, args: []string{tc.name, "--frob"}},
			{files: files, args: []string{tc.name, "--tag", "-t", "a"}},
			{files: files, args: []string{tc.name, "--quiet", "a"}},
		})
	}
}

func TestCheckAgainstGNU(t *testing.T) {
	sums := map[string]string{
		"a": "hello\n", "b": "changed\n",
		"good": "b1946ac92492d2347c6235b4d2611184  a\n",
		"mixed": "b1946ac92492d2347c6235b4d2611184  a\n591785b794601e212b260e25925636fd  b\njunk line\nMD5 (a) = b1946ac92492d2347c6235b4d2611184\n" +
			"B1946AC92492D2347C6235B4D2611184 *a\r\n# comment\n\n0123456789abcdef0123456789abcdef  missing\n",
		"reversed": "b1946ac92492d2347c6235b4d2611184 a\n",
		"junk":     "nothing\n",
	}
	compareGNU(t, cmd(MD5), []gnuCase{
		{files: sums, args: []string{"md5sum", "-c", "good"}},
		{files: sums, args: []string{"md5sum", "-c", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "--strict", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "-w", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "--status", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "--quiet", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "--ignore-missing", "mixed"}},
		{files: sums, args: []string{"md5sum", "-c", "reversed"}},
		{files: sums, args: []string{"md5sum", "-c", "junk", "nope"}},
		{files: sums, stdin: "b1946ac92492d2347c6235b4d2611184  -\n", args: []string{"md5sum", "-c"}},
		{files: sums, args: []string{"md5sum", "-c", "-z", "good"}},
	})
}

func TestCksumAndSumAgainstGNU(t *testing.T) {
	f := map[string]string{"a": "hello\n", "big": strings.Repeat("0123456789abcdef", 5000)}
	compareGNU(t, Cksum, []gnuCase{
		{files: f, args: []string{"cksum", "a", "big"}},
		{files: f, stdin: "hello\n", args: []string{"cksum"}},
		{files: f, args: []string{"cksum", "-a", "md5", "a"}},
		{files: f, args: []string{"cksum", "-a", "sm3", "a", "big"}},
		{files: f, args: []string{"cksum", "-a", "blake2b", "-l", "256", "a"}},
		{files: f, args: []string{"cksum", "-a", "sha256", "--untagged", "a"}},
		{files: f, args: []string{"cksum", "-a", "bsd", "a"}},
		{files: f, args: []string{"cksum", "-a", "sysv", "a"}},
		{files: f, args: []string{"cksum", "-a", "md"}},
		{files: f, args: []string{"cksum", "-l", "8", "a"}},
		{files: f, args: []string{"cksum", "-a", "crc", "-c", "a"}},
	})
	compareGNU(t, Sum, []gnuCase{
		{files: f, args: []string{"sum", "a", "big"}},
		{files: f, args: []string{"sum", "-s", "a", "big"}},
		{files: f, stdin: "xyz", args: []string{"sum"}},
		{files: f, args: []string{"sum", "nope"}},
	})
}

func TestSM3Vectors(t *testing.T) {
	for in, want := range map[string]string{
		"abc":                      "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0",
		strings.Repeat("abcd", 16): "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732",
	} {
		h := newSM3()
		h.Write([]byte(in))
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("sm3(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCRC(t *testing.T) {
	c := NewCRC()
	c.Write([]byte("hello\n"))
	if got := c.Sum32(); got != 3015617425 {
		t.Errorf("crc = %d", got)
	}
}

func TestDirectoryAndHelp(t *testing.T) {
	r := (&cmdtest.Env{Files: map[string]string{"d/": ""}}).Run(cmd(SHA256), "sha256sum", "d")
	if r.Code != 1 || r.Stderr != "sha256sum: d: Is a directory\n" {
		t.Errorf("directory: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(cmd(SHA256), "sha256sum", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: sha256sum [OPTION]... [FILE]...") {
		t.Errorf("help: %+v", r)
	}
}
