package serve

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/bashbox/bashbox"
)

var (
	errNoSessions     = &inputError{Status: http.StatusBadRequest, Field: "session", Msg: "sessions are not enabled for this profile (sessions.max in the config)"}
	errUnknownSession = &inputError{Status: http.StatusNotFound, Field: "session", Msg: "unknown or expired session"}
	errSessionBusy    = &inputError{Status: http.StatusConflict, Field: "session", Msg: "the session is running another call; retry when it ends"}
)

func errTooManySessions(max int) error {
	return &inputError{Status: http.StatusTooManyRequests, Field: "session",
		Msg: fmt.Sprintf("the profile's session limit (%d) is reached; end one with DELETE /v1/sessions/{id}", max)}
}

// sessionStore keeps a profile's sessions: in this process
// (sessionTable) or in Redis, where any replica can continue them
// (redisSessions). done, after a call or file transfer, saves what it
// changed; its error means the change was not kept.
type sessionStore interface {
	create(held bool) (*sessionEntry, error)
	acquire(id string) (*sessionEntry, func() error, error)
	remove(id string, force bool) error
	info(id string) (SessionInfo, error)
	list() ([]SessionInfo, error)
	ready(ctx context.Context) error
	close()
}

// sessionTable holds a profile's sessions. Each table belongs to one
// profile, so another profile's token never finds them. Ids are 128
// random bits. A session runs one call at a time: a second call while one
// runs is refused (409), not queued. Idle sessions end after the idle
// timeout.
type sessionTable struct {
	box  *bashbox.Box
	max  int
	idle time.Duration

	mu       sync.Mutex
	sessions map[string]*sessionEntry
	stop     chan struct{}
	stopped  sync.WaitGroup
}

// sessionEntry is a session and what the API reports of it; everything
// but s is plain data.
type sessionEntry struct {
	id       string
	s        *bashbox.Session
	created  time.Time
	lastUsed time.Time
	busy     bool
	fresh    bool // created for the call that holds it ("new")

	token   string // the Redis lock's, while held
	version int64  // the Redis state's, as loaded
}

// SessionInfo is a session as the API lists it.
type SessionInfo struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	// Size is the bytes its in-memory files hold.
	Size    int64  `json:"size"`
	Workdir string `json:"workdir"`
	Busy    bool   `json:"busy"`
}

func newSessionTable(box *bashbox.Box, max int, idle time.Duration) *sessionTable {
	t := &sessionTable{box: box, max: max, idle: idle, sessions: map[string]*sessionEntry{}, stop: make(chan struct{})}
	if max > 0 {
		t.stopped.Add(1)
		go t.reap()
	}
	return t
}

func (t *sessionTable) reap() {
	defer t.stopped.Done()
	tick := time.NewTicker(max(t.idle/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case now := <-tick.C:
			t.mu.Lock()
			for id, e := range t.sessions {
				if !e.busy && now.Sub(e.lastUsed) > t.idle {
					delete(t.sessions, id)
					e.s.Close()
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
	t.stopped.Wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, e := range t.sessions {
		delete(t.sessions, id)
		e.s.Close()
	}
}

// create starts a session; a held one is busy for the caller's call.
func (t *sessionTable) create(held bool) (*sessionEntry, error) {
	if t.max <= 0 {
		return nil, errNoSessions
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.sessions) >= t.max {
		return nil, errTooManySessions(t.max)
	}
	s, err := t.box.NewSession()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	e := &sessionEntry{id: newID(16), s: s, created: now, lastUsed: now, busy: held, fresh: held}
	t.sessions[e.id] = e
	return e, nil
}

// acquire takes session id ("new" starts one) for one call or file
// transfer; done gives it back.
func (t *sessionTable) acquire(id string) (e *sessionEntry, done func() error, err error) {
	if t.max <= 0 && id != "new" {
		return nil, nil, errUnknownSession // as for any id this profile does not own
	}
	if id == "new" {
		if e, err = t.create(true); err != nil {
			return nil, nil, err
		}
	} else {
		t.mu.Lock()
		e = t.sessions[id]
		switch {
		case e == nil:
			err = errUnknownSession
		case e.busy:
			err = errSessionBusy
		default:
			e.busy = true
			e.lastUsed = time.Now()
		}
		t.mu.Unlock()
		if err != nil {
			return nil, nil, err
		}
	}
	return e, func() error {
		t.mu.Lock()
		e.busy, e.fresh = false, false
		e.lastUsed = time.Now()
		t.mu.Unlock()
		return nil
	}, nil
}

// remove ends session id; a running one is refused unless force.
func (t *sessionTable) remove(id string, force bool) error {
	t.mu.Lock()
	e := t.sessions[id]
	if e == nil {
		t.mu.Unlock()
		return errUnknownSession
	}
	if e.busy && !force {
		t.mu.Unlock()
		return errSessionBusy
	}
	delete(t.sessions, id)
	t.mu.Unlock()
	return e.s.Close()
}

func (t *sessionTable) info(id string) (SessionInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.sessions[id]
	if e == nil {
		return SessionInfo{}, errUnknownSession
	}
	return e.info(), nil
}

func (t *sessionTable) ready(context.Context) error { return nil }

func (t *sessionTable) list() ([]SessionInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]SessionInfo, 0, len(t.sessions))
	for _, e := range t.sessions {
		out = append(out, e.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// info reads the entry; the table's lock is held.
func (e *sessionEntry) info() SessionInfo {
	wd := ""
	if !e.busy {
		wd = e.s.Workdir() // a running call holds the session's own lock
	}
	return SessionInfo{ID: e.id, Created: e.created.UTC(), LastUsed: e.lastUsed.UTC(), Size: e.s.Size(), Workdir: wd, Busy: e.busy}
}
