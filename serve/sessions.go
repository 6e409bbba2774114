package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/bashbox/bashbox"
)

var (
	errNoSessions      = errors.New("sessions are not enabled for this profile")
	errTooManySessions = errors.New("the profile's session limit is reached")
	errUnknownSession  = errors.New("unknown or expired session")
)

// sessionTable holds a profile's sessions. A client asks for a new one with
// the session id "new"; idle sessions end after the idle timeout.
type sessionTable struct {
	box  *bashbox.Box
	max  int
	idle time.Duration

	mu       sync.Mutex
	sessions map[string]*sessionEntry
	stop     chan struct{}
}

type sessionEntry struct {
	s        *bashbox.Session
	lastUsed time.Time
}

func newSessionTable(box *bashbox.Box, max int, idle time.Duration) *sessionTable {
	t := &sessionTable{box: box, max: max, idle: idle, sessions: map[string]*sessionEntry{}, stop: make(chan struct{})}
	if max > 0 {
		go t.reap()
	}
	return t
}

func (t *sessionTable) reap() {
	tick := time.NewTicker(max(t.idle/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case now := <-tick.C:
			t.mu.Lock()
			for id, e := range t.sessions {
				if now.Sub(e.lastUsed) > t.idle {
					delete(t.sessions, id)
				}
			}
			t.mu.Unlock()
		}
	}
}

func (t *sessionTable) close() {
	select {
	case <-t.stop:
	default:
		close(t.stop)
	}
}

// run runs req in session id ("new" starts one) and returns the id used.
func (t *sessionTable) run(ctx context.Context, id string, req bashbox.Request) (*bashbox.Result, string, error) {
	if t.max <= 0 {
		return nil, "", errNoSessions
	}
	t.mu.Lock()
	var e *sessionEntry
	if id == "new" {
		if len(t.sessions) >= t.max {
			t.mu.Unlock()
			return nil, "", errTooManySessions
		}
		s, err := t.box.NewSession()
		if err != nil {
			t.mu.Unlock()
			return nil, "", err
		}
		var b [12]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
		e = &sessionEntry{s: s}
		t.sessions[id] = e
	} else if e = t.sessions[id]; e == nil {
		t.mu.Unlock()
		return nil, "", errUnknownSession
	}
	e.lastUsed = time.Now()
	t.mu.Unlock()
	res, err := e.s.Run(ctx, req)
	t.mu.Lock()
	e.lastUsed = time.Now()
	t.mu.Unlock()
	return res, id, err
}
