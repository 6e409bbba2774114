package serve

import (
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"sync"
	"syscall"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

func (s *Server) handleCreateSession(w http.ResponseWriter, r *http.Request, p *profile) {
	e, err := p.sessions.create(false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, err := p.sessions.info(e.id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("bashbox session", "event", "created", "request_id", requestInfoFrom(r.Context()).ID,
		"client", r.RemoteAddr, "profile", p.name, "session", e.id)
	w.Header().Set("Location", "/v1/sessions/"+e.id)
	writeJSON(w, http.StatusCreated, info)
}

func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request, p *profile) {
	list, err := p.sessions.list()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request, p *profile) {
	info, err := p.sessions.info(r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) handleDeleteSession(w http.ResponseWriter, r *http.Request, p *profile) {
	id := r.PathValue("id")
	if err := p.sessions.remove(id, false); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("bashbox session", "event", "deleted", "request_id", requestInfoFrom(r.Context()).ID,
		"client", r.RemoteAddr, "profile", p.name, "session", id)
	w.WriteHeader(http.StatusNoContent)
}

// holdSession takes the URL's session for a file transfer: a running
// session is not touched (409).
func (s *Server) holdSession(w http.ResponseWriter, r *http.Request, p *profile) (*sessionEntry, func() error, bool) {
	id := r.PathValue("id")
	if id == "new" {
		s.fail(w, r, errUnknownSession)
		return nil, nil, false
	}
	ctx, leave, err := s.drain.enter(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return nil, nil, false
	}
	*r = *r.WithContext(ctx)
	e, done, err := p.sessions.acquire(id)
	if err != nil {
		leave()
		s.fail(w, r, err)
		return nil, nil, false
	}
	var once sync.Once
	var saveErr error
	return e, func() error {
		once.Do(func() { defer leave(); saveErr = done() })
		return saveErr
	}, true
}

// filePath is the guest path of a files URL: the part after files/ is
// absolute (files/work/a.txt is /work/a.txt).
func filePath(r *http.Request) string { return path.Clean("/" + r.PathValue("path")) }

const tarType = "application/x-tar"

// handlePutFile writes the body to the file (or, for a tar body, unpacks
// it into the directory), streamed and charged to the session's overlay
// budgets where it lands in memory.
func (s *Server) handlePutFile(w http.ResponseWriter, r *http.Request, p *profile) {
	e, done, ok := s.holdSession(w, r, p)
	if !ok {
		return
	}
	defer done()
	s.putFile(w, r, p, e.s, e.id, done) // saved before the client hears it was written
}

// handleGetFile streams a file, or a directory as a tar archive.
func (s *Server) handleGetFile(w http.ResponseWriter, r *http.Request, p *profile) {
	e, done, ok := s.holdSession(w, r, p)
	if !ok {
		return
	}
	defer done()
	s.getFile(w, r, e.s)
}

// handlePutVolumeFile writes into a read-write volume without a session:
// anywhere else the file would vanish with the request.
func (s *Server) handlePutVolumeFile(w http.ResponseWriter, r *http.Request, p *profile) {
	name := filePath(r)
	if v := p.volumeOf(name); v == nil || v.Mode != volumes.ReadWrite {
		s.fail(w, r, &inputError{Status: http.StatusConflict, Field: "path",
			Msg: name + " is not in a read-write volume, so the file would vanish with the request; write it into a session"})
		return
	}
	sess, err := p.box.NewSession()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer sess.Close()
	s.putFile(w, r, p, sess, "", nil)
}

// handleGetVolumeFile reads the volumes as a new call sees them.
func (s *Server) handleGetVolumeFile(w http.ResponseWriter, r *http.Request, p *profile) {
	sess, err := p.box.NewSession()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer sess.Close()
	s.getFile(w, r, sess)
}

// putFile writes the request's body into sess; commit, when set, saves the
// session before the client hears the file was written.
func (s *Server) putFile(w http.ResponseWriter, r *http.Request, p *profile, sess *bashbox.Session, id string, commit func() error) {
	name := filePath(r)
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var out map[string]any
	var err error
	if mt == tarType {
		var n int
		n, err = sess.WriteTar(r.Context(), name, r.Body)
		out = map[string]any{"path": name, "files": n}
	} else {
		var n int64
		n, err = sess.WriteFile(r.Context(), name, r.Body, 0)
		out = map[string]any{"path": name, "size": n}
	}
	if err == nil && commit != nil {
		err = commit()
	}
	if err != nil {
		s.fail(w, r, fileError(err))
		return
	}
	s.log.Info("bashbox file", "event", "put", "request_id", requestInfoFrom(r.Context()).ID,
		"client", r.RemoteAddr, "profile", p.name, "session", id, "path", name)
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request, sess *bashbox.Session) {
	name := filePath(r)
	fi, err := sess.Stat(name)
	if err != nil {
		s.fail(w, r, fileError(err))
		return
	}
	if fi.IsDir() {
		w.Header().Set("Content-Type", tarType)
		w.Header().Set("Content-Disposition", `attachment; filename="`+path.Base(name)+`.tar"`)
		// Errors past the first byte can only cut the stream short; a
		// tar reader then sees the archive end early.
		sess.ReadTar(r.Context(), name, w)
		return
	}
	f, fi, err := sess.Open(name)
	if err != nil {
		s.fail(w, r, fileError(err))
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
	io.Copy(w, io.LimitReader(f, fi.Size()))
}

// fileError gives a file operation's failure its status.
func fileError(err error) error {
	var known *inputError
	if errors.As(err, &known) {
		return err
	}
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Path + ": " + pe.Err.Error()
	}
	switch {
	case errors.Is(err, bashbox.ErrSessionClosed):
		return errUnknownSession
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return &inputError{Status: http.StatusNotFound, Field: "path", Msg: msg}
	case bashbox.IsNoSpace(err):
		return &inputError{Status: http.StatusRequestEntityTooLarge, Field: "path", Msg: msg + " (the session's overlay budget is spent)"}
	case errors.Is(err, syscall.EISDIR), errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		return &inputError{Status: http.StatusConflict, Field: "path", Msg: msg}
	}
	return &inputError{Status: http.StatusBadRequest, Field: "path", Msg: msg}
}
