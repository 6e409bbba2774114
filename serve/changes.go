package serve

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/changeset"
)

// changesRequest reads the "changes" field of a run ("FORMAT" or
// "FORMAT:GUEST_VOLUME"); empty asks for none.
func changesRequest(spec string) (*bashbox.ChangesRequest, error) {
	if spec == "" {
		return nil, nil
	}
	format, vol, _ := strings.Cut(spec, ":")
	f, err := changeset.ParseFormat(format)
	if err != nil {
		return nil, fmt.Errorf("changes: %v", err)
	}
	return &bashbox.ChangesRequest{Format: f, Volume: vol}, nil
}

// changesText is the line an agent reads about the change set it asked
// for; the set itself is in the structured result.
func changesText(out *changeset.Output) string {
	switch {
	case out == nil:
		return ""
	case out.Error != "":
		return fmt.Sprintf("[changes of %s: %s]\n", out.Volume, out.Error)
	case out.Truncated:
		return fmt.Sprintf("[changes of %s: %s in %s form in the result's changes field; %d more omitted to fit the output budget]\n", out.Volume, entries(out.Count), out.Format, out.Omitted)
	}
	return fmt.Sprintf("[changes of %s: %s in %s form in the result's changes field]\n", out.Volume, entries(out.Count), out.Format)
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// session finds a live session of the profile.
func (t *sessionTable) session(id string) (*bashbox.Session, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.sessions[id]
	if e == nil {
		return nil, false
	}
	return e.s, true
}

// handleSessionChanges serves GET /v1/sessions/{id}/changes?format=diff
// [&volume=/work]: the change set of everything the session's calls wrote
// over a read-only volume, as the file it would be saved as (a diff, a
// JSON list or a tar archive). The X-Bashbox-Changes-* headers count its
// entries and those the output budget left out.
func (s *Server) handleSessionChanges(w http.ResponseWriter, r *http.Request) {
	p, ok := s.profileForToken(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="bashbox"`)
		httpError(w, http.StatusUnauthorized, "missing or unknown bearer token")
		return
	}
	format := r.URL.Query().Get("format")
	if format == "" {
		format = string(changeset.Diff)
	}
	f, err := changeset.ParseFormat(format)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	sess, ok := p.sessions.session(r.PathValue("id"))
	if !ok {
		httpError(w, http.StatusNotFound, errUnknownSession.Error())
		return
	}
	out, err := sess.Changes(bashbox.ChangesRequest{Format: f, Volume: r.URL.Query().Get("volume")})
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	data, err := out.Bytes()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	switch f {
	case changeset.Diff:
		w.Header().Set("Content-Type", "text/x-diff; charset=utf-8")
	case changeset.JSON:
		w.Header().Set("Content-Type", "application/json")
	case changeset.Tar:
		w.Header().Set("Content-Type", "application/x-tar")
	}
	w.Header().Set("X-Bashbox-Changes-Count", fmt.Sprint(out.Count))
	w.Header().Set("X-Bashbox-Changes-Omitted", fmt.Sprint(out.Omitted))
	w.Write(data)
}
