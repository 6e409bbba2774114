package interp_test

import (
	"testing"

	"github.com/bashbox/bashbox"
)

// TestPromptSandboxIdentity: ${x@P} takes the user, host, uid and
// directories from the sandbox, never from the host running it (whose
// user and host name differ).
func TestPromptSandboxIdentity(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	for _, c := range []struct{ script, stdout string }{
		{`p='\u@\h:\H \$'; echo "${p@P}"`, "user@bashbox:bashbox $\n"},
		{`USER=alice; p='\u'; echo "${p@P}"`, "alice\n"},
		{`cd /work; p='\w|\W'; echo "${p@P}"; HOME=/work; echo "${p@P}"`, "/work|work\n~|~\n"},
		{`p='\s \v \V \j \l \! \#'; echo "${p@P}"`, "bash 5.2 5.2.15 0 tty 1 0\n"},
		{`TZ=UTC; p='\D{%Y}'; x=${p@P}; (( x >= 2024 )) && echo year`, "year\n"},
		{`cd /work; mkdir -p '$x'; cd '$x'; x=oops; p='\W'; echo "${p@P}"`, "$x\n"},
	} {
		res := runNative(t, b, c.script)
		if res.Stdout != c.stdout || res.Stderr != "" {
			t.Errorf("%s:\n got %q / %q\nwant %q", c.script, res.Stdout, res.Stderr, c.stdout)
		}
	}
}

// TestExpansionEdges pins expansions the differential suite cannot reach:
// the sandbox's own user table for ~user, and $'\0' ending a string.
func TestExpansionEdges(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	for _, c := range []struct{ script, stdout string }{
		{`echo ~user/x a:~user; x=a:~user:~root; echo $x`, "/home/user/x a:~user\na:/home/user:/root\n"},
		{`x=$'a\0b' y=$'c\x00d'; echo "${#x} ${#y}"`, "1 1\n"},
		{`s=$'\cA\c[' ; printf %s "$s" | od -An -tx1`, " 01 1b\n"},
	} {
		res := runNative(t, b, c.script)
		if res.Stdout != c.stdout || res.Stderr != "" {
			t.Errorf("%s:\n got %q / %q\nwant %q", c.script, res.Stdout, res.Stderr, c.stdout)
		}
	}
}
