package modes

import (
	"io/fs"
	"testing"
	"time"
)

// These were fileops' tests (mkdir -m, install -m).

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		old   uint32
		dir   bool
		umask uint32
		want  uint32
	}{
		{"755", 0, false, 0o022, 0o755},
		{"1777", 0, true, 0o022, 0o1777},
		{"u+x", 0o644, false, 0o022, 0o744},
		{"+x", 0o644, false, 0o022, 0o755},
		{"+w", 0o444, false, 0o022, 0o644},
		{"a+w", 0o444, false, 0o022, 0o666},
		{"g-w,o=", 0o777, true, 0o022, 0o750},
		{"a=rX", 0o644, false, 0, 0o444},
		{"a=rX", 0o744, false, 0, 0o555},
		{"a=rX", 0o600, true, 0, 0o555},
		{"go=u", 0o740, false, 0, 0o777},
		{"u=g", 0o750, false, 0, 0o550},
		{"+t", 0o777, true, 0, 0o1777},
		{"u+s", 0o755, false, 0, 0o4755},
		{"=", 0o777, false, 0o022, 0o000},
		{"u=rwx,g=rx,o=", 0, false, 0, 0o750},
		{"o-rwx+r", 0o777, false, 0, 0o774},
		{"755", 0o2755, true, 0, 0o2755},
		{"00755", 0o2755, true, 0, 0o755},
	} {
		m, err := Parse(tc.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.spec, err)
			continue
		}
		if got := m.Apply(tc.old, tc.dir, tc.umask); got != tc.want {
			t.Errorf("%q on %o: got %o, want %o", tc.spec, tc.old, got, tc.want)
		}
	}
	for _, bad := range []string{"", "8", "7777777", "abc", "u+q", "u", "u+x,", ",", "a=r x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

// These were files/modes' tests (chmod).

func TestApply(t *testing.T) {
	cases := []struct {
		mode  string
		old   uint32
		dir   bool
		umask uint32
		want  uint32
	}{
		{"755", 0o644, false, 0o22, 0o755},
		{"+x", 0o644, false, 0o22, 0o755},
		{"+w", 0o444, false, 0o22, 0o644},
		{"-w", 0o666, false, 0o22, 0o466},
		{"a-w", 0o666, false, 0o22, 0o444},
		{"=rw", 0o646, false, 0o22, 0o644},
		{"u=rwx,g=rx,o=", 0o644, false, 0o22, 0o750},
		{"g=u", 0o640, false, 0, 0o660},
		{"o=g-w", 0o660, false, 0, 0o664},
		{"u+s", 0o755, false, 0, 0o4755},
		{"u+t", 0o755, false, 0, 0o755},
		{"+t", 0o755, true, 0o22, 0o1755},
		{"ug+X", 0o644, false, 0, 0o644},
		{"ug+X", 0o744, false, 0, 0o754},
		{"a+X", 0o644, true, 0, 0o755},
		{"755", 0o2755, true, 0, 0o2755},
		{"00755", 0o2755, true, 0, 0o755},
		{"0", 0o2755, false, 0, 0},
		{"u-x+w", 0o555, false, 0, 0o655},
		{"a=r,u+w", 0o777, false, 0, 0o644},
	}
	for _, c := range cases {
		m, err := Parse(c.mode)
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		if got := m.Apply(c.old, c.dir, c.umask); got != c.want {
			t.Errorf("%s on %o: got %o want %o", c.mode, c.old, got, c.want)
		}
	}
	for _, bad := range []string{"", "q", "8", "10000", "u+z", "u", "+w,", "rwx"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// These were meta's tests (ls, stat).

func TestModeString(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		0o644: "-rw-r--r--", fs.ModeDir | 0o755: "drwxr-xr-x", fs.ModeSymlink | 0o777: "lrwxrwxrwx",
		fs.ModeSetuid | 0o755: "-rwsr-xr-x", fs.ModeSetgid | 0o640: "-rw-r-S---", fs.ModeDir | fs.ModeSticky | 0o777: "drwxrwxrwt",
		fs.ModeDevice | fs.ModeCharDevice | 0o666: "crw-rw-rw-", fs.ModeNamedPipe | 0o600: "prw-------",
	} {
		if got := ModeString(m); got != want {
			t.Errorf("ModeString(%v) = %s, want %s", m, got, want)
		}
		if back := FromPerm(Perm(m)); back != m.Perm()|m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) {
			t.Errorf("FromPerm(Perm(%v)) = %v", m, back)
		}
	}
	if UnixMode(fs.ModeDir|0o755) != 0o40755 || UnixMode(0o644) != 0o100644 {
		t.Error("UnixMode")
	}
}

type info struct {
	mode fs.FileMode
	size int64
}

func (i info) Name() string       { return "x" }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }

func TestFileType(t *testing.T) {
	for _, tc := range []struct {
		fi   info
		want string
	}{
		{info{0o644, 0}, "regular empty file"}, {info{0o644, 1}, "regular file"},
		{info{fs.ModeDir | 0o755, 4096}, "directory"}, {info{fs.ModeSymlink | 0o777, 1}, "symbolic link"},
		{info{fs.ModeNamedPipe, 0}, "fifo"}, {info{fs.ModeSocket, 0}, "socket"},
		{info{fs.ModeDevice | fs.ModeCharDevice, 0}, "character special file"}, {info{fs.ModeDevice, 0}, "block special file"},
		{info{fs.ModeIrregular, 0}, "weird file"},
	} {
		if got := FileType(tc.fi); got != tc.want {
			t.Errorf("FileType(%v) = %q, want %q", tc.fi.mode, got, tc.want)
		}
	}
}
