package codec

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	data := strings.Repeat("the quick brown fox\n", 1000)
	for _, f := range Formats {
		var buf bytes.Buffer
		w, err := f.NewWriter(&buf, 0)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, data)
		if err := w.Close(); err != nil {
			t.Fatalf("%s: close: %v", f.Name, err)
		}
		if Detect(buf.Bytes()) != f {
			t.Errorf("%s: not detected", f.Name)
		}
		r, err := f.NewReader(&buf)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != data {
			t.Errorf("%s: round trip: %v, %d bytes", f.Name, err, len(got))
		}
	}
}

// An xz stream whose block header asks for a 4 GiB dictionary is refused
// before the decoder allocates it.
func TestXzHugeDictionaryRefused(t *testing.T) {
	var buf bytes.Buffer
	w, _ := Xz.NewWriter(&buf, 1)
	io.WriteString(w, "x")
	w.Close()
	b := buf.Bytes()
	// Block header: size byte, flags, then filter id 0x21, props size 1,
	// the dictionary byte.
	blk := b[12:]
	pos := 2
	if blk[1]&0x40 != 0 || blk[1]&0x80 != 0 {
		t.Skip("writer emits sizes in the block header")
	}
	if blk[pos] != 0x21 || blk[pos+1] != 1 {
		t.Fatalf("unexpected block header % x", blk[:8])
	}
	blk[pos+2] = 40 // 4 GiB - 1
	_, err := Xz.NewReader(bytes.NewReader(b))
	if !errors.Is(err, ErrMemLimit) {
		t.Fatalf("err = %v, want ErrMemLimit", err)
	}
}
