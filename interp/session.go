package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	shinterp "mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Session is a shell whose state outlives a call: working directory,
// variables, functions and aliases carry over between Run calls, as do the
// files of the shell's filesystem. Calls on one session run one at a time.
type Session struct {
	mu sync.Mutex
	sh *Shell
	r  *shinterp.Runner
}

// NewSession starts a session shell in dir with env.
func (sh *Shell) NewSession(env []string, dir string) (*Session, error) {
	r, err := sh.newRunner(env, dir, nil, io.Discard, io.Discard)
	if err != nil {
		return nil, err
	}
	return &Session{sh: sh, r: r}, nil
}

// Run runs one script in the session with the call's budget and streams.
func (s *Session) Run(ctx context.Context, budget *Budget, script string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sh.Budget = budget
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "bashbox: internal error: %v\n", p)
			status = 2
		}
	}()
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "bash")
	if err != nil {
		fmt.Fprintln(stderr, syntaxError(Invocation{Name: "bash", Source: "-c"}, err))
		return 2
	}
	(&rewriter{}).rewrite(file)
	var in *os.File
	if stdin != nil {
		pr, pw, err := os.Pipe()
		if err != nil {
			return 2
		}
		copied := make(chan struct{})
		go func() {
			io.Copy(pw, stdin)
			pw.Close()
			close(copied)
		}()
		defer func() {
			pr.Close()
			<-copied
		}()
		in = pr
	}
	shinterp.StdIO(in, stdout, quietCancel(ctx, stderr))(s.r)
	err = s.r.Run(ctx, file)
	if st, ok := errors.AsType[shinterp.ExitStatus](err); ok {
		return int(st)
	}
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "bash: %v\n", err)
		}
		return 1
	}
	return 0
}

// Dir is the session's working directory.
func (s *Session) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Dir
}
