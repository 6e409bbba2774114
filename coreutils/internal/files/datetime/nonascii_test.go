package datetime

import (
	"testing"
	"time"
)

// A non-ASCII byte once sent the tokenizer into an endless loop.
func TestNonASCIIIsRejectedPromptly(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := Parse("0@\xd8", time.Now(), time.UTC)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("accepted a non-ASCII date")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Parse did not return")
	}
}
