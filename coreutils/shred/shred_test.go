package shred

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/vfs"
)

// TestPlan: how many passes are random, where they fall, and which fixed
// patterns the others use, for the counts GNU shred was seen to use.
func TestPlan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randint := func(k int) int { return r.IntN(k) }
	for _, tc := range []struct {
		n      int
		random []int // indexes of the random passes
		fixed  []int // the fixed patterns, sorted
	}{
		{1, []int{0}, nil},
		{3, []int{0, 1, 2}, nil},
		{4, []int{0, 3}, []int{0x000, 0xFFF}},
		{5, []int{0, 2, 4}, []int{0x000, 0xFFF}},
		{6, []int{0, 5}, []int{0x000, 0x555, 0xAAA, 0xFFF}},
		{7, []int{0, 3, 6}, []int{0x000, 0x555, 0xAAA, 0xFFF}},
		{30, []int{0, 10, 20, 29}, nil},
	} {
		p := plan(tc.n, randint)
		var random, fixed []int
		for i, v := range p {
			if v == randomPass {
				random = append(random, i)
			} else {
				fixed = append(fixed, v)
			}
		}
		slices.Sort(fixed)
		if len(p) != tc.n || !slices.Equal(random, tc.random) || tc.fixed != nil && !slices.Equal(fixed, tc.fixed) {
			t.Errorf("plan(%d) = %x: random at %v, fixed %x", tc.n, p, random, fixed)
		}
		if tc.n == 30 && len(slices.Compact(fixed)) != 26 {
			t.Errorf("plan(30) repeats a pattern: %x", fixed)
		}
	}
}

func TestFill(t *testing.T) {
	buf := make([]byte, 6)
	fill(buf, 0, 0x249)
	if string(buf) != "\x24\x92\x49\x24\x92\x49" {
		t.Errorf("fill 249: % x", buf)
	}
	buf = make([]byte, 4)
	fill(buf, 511, 0x1000)
	if string(buf) != "\x00\x80\x00\x00" { // the first bit of the block at 512 flipped
		t.Errorf("fill 1000 at 511: % x", buf)
	}
	if got := patternBytes(0x1492); got != 0xc92492 {
		t.Errorf("patternBytes(0x1492) = %x", got)
	}
}

func TestShred(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{"a": "hello", "b": "secret", "d/": ""}}
	fsys := e.NewFS()
	r := e.RunIn(fsys, Run, "shred", "-v", "-z", "-n", "2", "a", "nosuch", "d")
	want := "shred: a: pass 1/3 (random)...\nshred: a: pass 2/3 (random)...\nshred: a: pass 3/3 (000000)...\n" +
		"shred: nosuch: failed to open for writing: No such file or directory\n" +
		"shred: d: failed to open for writing: Is a directory\n"
	if r.Code != 1 || r.Stderr != want {
		t.Errorf("shred: %d %q", r.Code, r.Stderr)
	}
	if data, _ := vfs.ReadFile(fsys, "/work/a"); len(data) != blockSize || strings.Trim(string(data), "\x00") != "" {
		t.Errorf("a is %d bytes, not a block of zeros", len(data))
	}
	r = e.RunIn(fsys, Run, "shred", "-u", "-v", "-n", "1", "b")
	want = "shred: b: pass 1/1 (random)...\nshred: b: removing\nshred: b: renamed to 0\nshred: b: removed\n"
	if r.Code != 0 || r.Stderr != want {
		t.Errorf("shred -u: %d %q", r.Code, r.Stderr)
	}
	for _, name := range []string{"/work/b", "/work/0"} {
		if _, err := fsys.Stat(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s remains: %v", name, err)
		}
	}
}
