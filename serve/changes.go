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

// handleSessionChanges serves GET /v1/sessions/{id}/changes?format=diff
// [&volume=/work]: the change set of everything the session's calls wrote
// over a read-only volume, as the file it would be saved as (a diff, a
// JSON list or a tar archive). The X-Bashbox-Changes-* headers count its
// entries and those the output budget left out. A running session is not
// read (409), as for its files.
func (s *Server) handleSessionChanges(w http.ResponseWriter, r *http.Request, p *profile) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = string(changeset.Diff)
	}
	f, err := changeset.ParseFormat(format)
	if err != nil {
		s.fail(w, r, badField("format", "%s", err.Error()))
		return
	}
	e, done, ok := s.holdSession(w, r, p)
	if !ok {
		return
	}
	defer done()
	out, err := e.s.Changes(bashbox.ChangesRequest{Format: f, Volume: r.URL.Query().Get("volume")})
	if err != nil {
		s.fail(w, r, badField("volume", "%s", err.Error()))
		return
	}
	data, err := out.Bytes()
	if err != nil {
		s.fail(w, r, &inputError{Status: http.StatusInternalServerError, Msg: err.Error()})
		return
	}
	switch f {
	case changeset.Diff:
		w.Header().Set("Content-Type", "text/x-diff; charset=utf-8")
	case changeset.JSON:
		w.Header().Set("Content-Type", "application/json")
	case changeset.Tar:
		w.Header().Set("Content-Type", tarType)
	}
	w.Header().Set("X-Bashbox-Changes-Count", fmt.Sprint(out.Count))
	w.Header().Set("X-Bashbox-Changes-Omitted", fmt.Sprint(out.Omitted))
	w.Write(data)
}
