package bashbox

import (
	"fmt"

	"github.com/bashbox/bashbox/changeset"
	"github.com/bashbox/bashbox/volumes"
)

// ChangesRequest asks a call for the change set of a read-only volume:
// what the script wrote over it, as a patch the operator can review and
// apply. It costs a pass over what changed, so it is asked per call.
type ChangesRequest struct {
	Format changeset.Format // diff, tar or json
	// Volume is the volume's guest path; default the first volume.
	Volume string
}

// checkChanges validates a request before the call runs and resolves its
// volume.
func (b *Box) checkChanges(req *ChangesRequest) (*ChangesRequest, error) {
	if req == nil {
		return nil, nil
	}
	if _, err := changeset.ParseFormat(string(req.Format)); err != nil {
		return nil, err
	}
	vol, err := b.table.ChangesVolume(req.Volume)
	if err != nil {
		return nil, err
	}
	return &ChangesRequest{Format: req.Format, Volume: vol}, nil
}

// changesOf encodes the change set of a namespace's volume within the
// output budget. A failure to compute it is reported in the output, not as
// the call's error: the script did run.
func (b *Box) changesOf(ns *volumes.Namespace, req *ChangesRequest) *changeset.Output {
	out := &changeset.Output{Volume: req.Volume, Format: req.Format}
	o, err := ns.Overlay(req.Volume)
	if err == nil {
		var set *changeset.Set
		if set, err = changeset.FromOverlay(o); err == nil {
			var enc *changeset.Output
			if enc, err = set.Encode(req.Format, b.cfg.Limits.MaxOutputBytes); err == nil {
				enc.Volume = req.Volume
				return enc
			}
		}
	}
	out.Error = err.Error()
	return out
}

// Changes returns the change set of the session's read-only volume: all
// that the session's calls wrote over it so far.
func (s *Session) Changes(req ChangesRequest) (*changeset.Output, error) {
	r, err := s.box.checkChanges(&req)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.box.changesOf(s.ns, r)
	if out.Error != "" {
		return nil, fmt.Errorf("changes of %s: %s", r.Volume, out.Error)
	}
	return out, nil
}
