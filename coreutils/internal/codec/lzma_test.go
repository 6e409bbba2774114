package codec

import (
	"bytes"
	"io"
	"testing"
)

func TestLzmaRoundTripAndLimits(t *testing.T) {
	var buf bytes.Buffer
	w, err := Lzma.NewWriter(&buf, 1)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("lzma "), 1000))
	w.Close()
	if !Lzma.Matches(buf.Bytes()[:Lzma.HeaderLen()]) {
		t.Fatalf("header % x not recognised", buf.Bytes()[:13])
	}
	r, err := Lzma.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil || len(out) != 5000 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
	// A header asking for a 1 GiB dictionary is refused before decoding.
	bomb := []byte{0x5d, 0, 0, 0, 0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0}
	if _, err := Lzma.NewReader(bytes.NewReader(bomb)); err != ErrMemLimit {
		t.Fatalf("dictionary cap: %v", err)
	}
	if Lzma.Matches([]byte("not an lzma!!")) {
		t.Fatal("text taken for lzma")
	}
}
