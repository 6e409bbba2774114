package basenc

import (
	"context"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func b64(ctx context.Context, c *builtins.Call) int { return Run(ctx, c, Base64) }
func b32(ctx context.Context, c *builtins.Call) int { return Run(ctx, c, Base32) }

func TestBase64AgainstGNU(t *testing.T) {
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 40)
	f := map[string]string{"in": long, "bin": "\x00\x01\xff\xfe", "d/": ""}
	var cases []cmdtest.GNUCase
	for _, args := range [][]string{{"in"}, {"-w", "0", "in"}, {"-w", "7", "bin"}, {"nope"}, {"d"}, {"a", "b"}, {"-w", "x"}} {
		cases = append(cases, cmdtest.GNUCase{Files: f, Args: append([]string{"base64"}, args...)})
	}
	for _, in := range []string{"YQ", "YQ==", "YQ=", "YW Jj", "YQ==YQ==", "Y", "!YWJj", "YW\nJj\n", "YQ=\n=", "=", "", "YWJjZA===", "YR=="} {
		cases = append(cases, cmdtest.GNUCase{Files: f, Stdin: in, Args: []string{"base64", "-d"}})
		cases = append(cases, cmdtest.GNUCase{Files: f, Stdin: in, Args: []string{"base64", "-d", "-i"}})
	}
	gnutest.Check(t, b64, cases)
}

func TestBase32AgainstGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, in := range []string{"", "a", "ab", "abc", "abcd", "abcde", "abcdef"} {
		cases = append(cases, cmdtest.GNUCase{Stdin: in, Args: []string{"base32"}})
	}
	for _, in := range []string{"MFRGG===", "MFRGG==", "MFRGGZ", "mfrgg===", "MF======MFRA====", "MF\n======xx"} {
		cases = append(cases, cmdtest.GNUCase{Stdin: in, Args: []string{"base32", "-d"}})
		cases = append(cases, cmdtest.GNUCase{Stdin: in, Args: []string{"base32", "-di"}})
	}
	gnutest.Check(t, b32, cases)
}

func TestRoundTrip(t *testing.T) {
	for _, k := range []*Codec{Base64, Base32} {
		data := strings.Repeat("\x00\x7f\x80\xffxyz", 3000)
		var enc, dec strings.Builder
		c := &builtins.Call{Args: []string{k.name}, Stdin: strings.NewReader(data), Stdout: &enc, Stderr: &dec}
		if Run(context.Background(), c, k) != 0 {
			t.Fatal("encode failed")
		}
		var out strings.Builder
		c = &builtins.Call{Args: []string{k.name, "-d"}, Stdin: strings.NewReader(enc.String()), Stdout: &out, Stderr: &dec}
		if Run(context.Background(), c, k) != 0 || out.String() != data {
			t.Errorf("%s: round trip failed: %q", k.name, dec.String())
		}
	}
}
