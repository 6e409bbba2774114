package interp

import (
	"context"
	"io"
	"sync"
)

// Session is a shell whose state outlives a call: working directory,
// variables, functions, aliases, options and traps carry over between Run
// calls, as do the files of the shell's filesystem. Calls on one session
// run one at a time.
type Session struct {
	mu sync.Mutex
	sh *Shell
	f  *frame // the shell state kept between calls
}

// NewSession starts a session shell in dir with env.
func (sh *Shell) NewSession(env []string, dir string) (*Session, error) {
	return &Session{sh: sh, f: sh.newSessionFrame(env, dir)}, nil
}

// Run runs one script in the session with the call's budget and streams.
func (s *Session) Run(ctx context.Context, budget *Budget, script string, stdin io.Reader, stdout, stderr io.Writer) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sh.Budget = budget
	return s.sh.runSession(ctx, s.f, script, stdin, stdout, stderr)
}

// Dir is the session's working directory.
func (s *Session) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.dir
}
