package digest

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/digest/blake2"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func cmd(a Algo) builtins.Command {
	if a == BLAKE2B {
		return func(ctx context.Context, c *builtins.Call) int { return B2sum(ctx, c, blake2.New) }
	}
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
		gnutest.Check(t, cmd(tc.a), []cmdtest.GNUCase{
			{Files: files, Args: []string{tc.name, "a", "b", "empty"}},
			{Files: files, Stdin: "abc", Args: []string{tc.name}},
			{Files: files, Args: []string{tc.name, "--tag", "a", "back\\slash"}},
			{Files: files, Args: []string{tc.name, "-b", "a", "nope", "d"}},
			{Files: files, Args: []string{tc.name, "-z", "a", "back\\slash"}},
			{Files: files, Args: []string{tc.name, "--frob"}},
			{Files: files, Args: []string{tc.name, "--tag", "-t", "a"}},
			{Files: files, Args: []string{tc.name, "--quiet", "a"}},
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
	gnutest.Check(t, cmd(MD5), []cmdtest.GNUCase{
		{Files: sums, Args: []string{"md5sum", "-c", "good"}},
		{Files: sums, Args: []string{"md5sum", "-c", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "--strict", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "-w", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "--status", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "--quiet", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "--ignore-missing", "mixed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "reversed"}},
		{Files: sums, Args: []string{"md5sum", "-c", "junk", "nope"}},
		{Files: sums, Stdin: "b1946ac92492d2347c6235b4d2611184  -\n", Args: []string{"md5sum", "-c"}},
		{Files: sums, Args: []string{"md5sum", "-c", "-z", "good"}},
	})
}

func TestCksumAndSumAgainstGNU(t *testing.T) {
	f := map[string]string{"a": "hello\n", "big": strings.Repeat("0123456789abcdef", 5000)}
	gnutest.Check(t, Cksum(blake2.New), []cmdtest.GNUCase{
		{Files: f, Args: []string{"cksum", "a", "big"}},
		{Files: f, Stdin: "hello\n", Args: []string{"cksum"}},
		{Files: f, Args: []string{"cksum", "-a", "md5", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "sm3", "a", "big"}},
		{Files: f, Args: []string{"cksum", "-a", "blake2b", "-l", "256", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "sha256", "--untagged", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "bsd", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "sysv", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "md"}},
		{Files: f, Args: []string{"cksum", "-l", "8", "a"}},
		{Files: f, Args: []string{"cksum", "-a", "crc", "-c", "a"}},
	})
	gnutest.Check(t, Sum, []cmdtest.GNUCase{
		{Files: f, Args: []string{"sum", "a", "big"}},
		{Files: f, Args: []string{"sum", "-s", "a", "big"}},
		{Files: f, Stdin: "xyz", Args: []string{"sum"}},
		{Files: f, Args: []string{"sum", "nope"}},
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
