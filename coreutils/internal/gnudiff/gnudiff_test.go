package gnudiff

import (
	"bytes"
	"context"
	"math/rand"
	"testing"
)

// apply rebuilds file b from file a and the script.
func apply(a, b *File, script []Change) []byte {
	var out bytes.Buffer
	i := 0
	for _, c := range script {
		for ; i < c.Line0; i++ {
			out.Write(a.Line(i))
		}
		i += c.Deleted
		for j := c.Line1; j < c.Line1+c.Inserted; j++ {
			out.Write(b.Line(j))
		}
	}
	for ; i < a.NumLines(); i++ {
		out.Write(a.Line(i))
	}
	return out.Bytes()
}

func TestScriptRebuildsSecondFile(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	words := []string{"a", "b", "c", "", "d"}
	gen := func() []byte {
		var b bytes.Buffer
		for n := r.Intn(60); n > 0; n-- {
			b.WriteString(words[r.Intn(len(words))])
			b.WriteByte('\n')
		}
		if b.Len() > 0 && r.Intn(5) == 0 {
			b.Truncate(b.Len() - 1)
		}
		return b.Bytes()
	}
	for it := 0; it < 2000; it++ {
		x, y := gen(), gen()
		a, b := NewFile(x), NewFile(y)
		opt := Options{Horizon: r.Intn(4), Robust: true, Minimal: r.Intn(2) == 0}
		script, err := Compare(context.Background(), a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := apply(a, b, script); !bytes.Equal(got, y) {
			t.Fatalf("script does not rebuild b:\na=%q\nb=%q\ngot=%q\nscript=%v", x, y, got, script)
		}
		for k := 1; k < len(script); k++ {
			if script[k].Line0 <= script[k-1].Line0+script[k-1].Deleted-1 {
				t.Fatalf("changes overlap: %v", script)
			}
		}
	}
}

func TestIdenticalFilesHaveNoChanges(t *testing.T) {
	data := []byte("x\ny\nz")
	script, _ := Compare(context.Background(), NewFile(data), NewFile(data), Options{Robust: true})
	if len(script) != 0 {
		t.Errorf("got %v", script)
	}
}

func TestWhiteSpaceClasses(t *testing.T) {
	tests := []struct {
		ws         WhiteSpace
		icase      bool
		a, b       string
		wantEquals bool
	}{
		{AllSpace, false, "a b\tc\n", "abc\n", true},
		{SpaceChange, false, "a  b \n", "a b\n", true},
		{SpaceChange, false, " a\n", "a\n", false},
		{TrailingSpace, false, "a \t\n", "a\n", true},
		{TabExpansion, false, "a\tb\n", "a       b\n", true},
		{TabExpansionAndTrailingSpace, false, "a\tb\n", "a       b\n", false},
		{NoWhiteSpace, true, "ABC\n", "abc\n", true},
		{NoWhiteSpace, false, "ABC\n", "abc\n", false},
	}
	for _, tc := range tests {
		script, _ := Compare(context.Background(), NewFile([]byte(tc.a)), NewFile([]byte(tc.b)),
			Options{WhiteSpace: tc.ws, IgnoreCase: tc.icase, Robust: true})
		if (len(script) == 0) != tc.wantEquals {
			t.Errorf("%q vs %q (ws %d, icase %v): script %v", tc.a, tc.b, tc.ws, tc.icase, script)
		}
	}
}
