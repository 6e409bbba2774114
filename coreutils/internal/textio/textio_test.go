package textio

import (
	"io"
	"io/fs"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

func TestParseUint(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		err  NumErr
	}{
		{"10", 10, NumOK},
		{"+3", 3, NumOK},
		{" 5", 5, NumOK},
		{"5 ", 0, NumInvalid},
		{"-1", 0, NumInvalid},
		{"1k", 1024, NumOK},
		{"1K", 1024, NumOK},
		{"1KiB", 1024, NumOK},
		{"1kB", 1000, NumOK},
		{"2MB", 2000000, NumOK},
		{"1b", 512, NumOK},
		{"K", 1024, NumOK},
		{"1g", 0, NumInvalid},
		{"1KiBx", 0, NumInvalid},
		{"x", 0, NumInvalid},
		{"99999999999999999999999", math.MaxUint64, NumOverflow},
		{"1Y", math.MaxUint64, NumOverflow},
	}
	for _, tt := range tests {
		got, err := ParseUint(tt.in, "bkKmMGTPEZY0")
		if err != tt.err || (err != NumInvalid && got != tt.want) {
			t.Errorf("ParseUint(%q) = %d, %d; want %d, %d", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := ParseUint("1k", ""); err != NumInvalid {
		t.Errorf("suffix allowed without suffixes")
	}
}

func TestQuoting(t *testing.T) {
	tests := []struct{ in, f, af string }{
		{"plain", "plain", "'plain'"},
		{"a b", "'a b'", "'a b'"},
		{"it's", `"it's"`, `"it's"`},
		{"a'b c$", `'a'\''b c$'`, `'a'\''b c$'`},
		{"new\nline", `'new'$'\n''line'`, `'new'$'\n''line'`},
		{"\xff", `''$'\377'`, `''$'\377'`},
		{"x#", "x#", "'x#'"},
		{"#x", "'#x'", "'#x'"},
		{"é", "é", "'é'"},
		{"", "''", "''"},
	}
	for _, tt := range tests {
		if got := quote.UTF8.F(tt.in); got != tt.f {
			t.Errorf("QuoteF(%q) = %s, want %s", tt.in, got, tt.f)
		}
		if got := quote.UTF8.AF(tt.in); got != tt.af {
			t.Errorf("QuoteAF(%q) = %s, want %s", tt.in, got, tt.af)
		}
	}
}

func TestRuneWidth(t *testing.T) {
	for r, w := range map[rune]int{'a': 1, '\t': -1, 0x0301: 0, 'é': 1, '日': 2, 0xFF21: 2, 0x200B: 0, 0x7f: -1} {
		if got := wcwidth.RuneWidth(r); got != w {
			t.Errorf("wcwidth.RuneWidth(%U) = %d, want %d", r, got, w)
		}
	}
}

type statReader struct {
	io.Reader
	size int64
	mode fs.FileMode
}

func (s statReader) Stat() (fs.FileInfo, error) { return sizedInfo{s.size, s.mode}, nil }

type sizedInfo struct {
	size int64
	mode fs.FileMode
}

func (i sizedInfo) Name() string       { return "f" }
func (i sizedInfo) Size() int64        { return i.size }
func (i sizedInfo) Mode() fs.FileMode  { return i.mode }
func (i sizedInfo) ModTime() time.Time { return time.Time{} }
func (i sizedInfo) IsDir() bool        { return false }
func (i sizedInfo) Sys() any           { return nil }

func TestReadSize(t *testing.T) {
	for _, tc := range []struct {
		r    io.Reader
		want int
	}{
		{statReader{nil, 2000, 0}, 2001},
		{statReader{nil, 3, 0}, 512},
		{statReader{nil, 10 << 20, 0}, BufSize},
		{statReader{nil, 5, fs.ModeNamedPipe}, StreamBufSize},
		{strings.NewReader("x"), StreamBufSize},
		{nopCloser{statReader{nil, 2000, 0}}, 2001},
	} {
		if got := ReadSize(tc.r); got != tc.want {
			t.Errorf("ReadSize(%#v) = %d, want %d", tc.r, got, tc.want)
		}
	}
	big := make([]byte, BufSize)
	if got := ReadBuffer(big, strings.NewReader("")); &got[0] != &big[0] {
		t.Error("a full-size buffer was not reused")
	}
	if got := ReadBuffer(make([]byte, 10), statReader{nil, 2000, 0}); len(got) != 2001 {
		t.Errorf("small buffer grown to %d", len(got))
	}
}
