package utilcmd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

func TestQuotes(t *testing.T) {
	c := &builtins.Call{Args: []string{"x"}, Env: []string{"LC_ALL=C.UTF-8"}}
	if Q(c, "a") != "\u2018a\u2019" || F(c, "a b") != "'a b'" || AF(c, "a") != "'a'" {
		t.Errorf("quotes: %s %s %s", Q(c, "a"), F(c, "a b"), AF(c, "a"))
	}
	if !strings.Contains(Trailer(), "--help") {
		t.Error("trailer")
	}
}
