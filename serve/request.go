package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/internal/lazyre"
)

// RunRequest is one run, the same over HTTP and MCP.
type RunRequest struct {
	// Profile must be the token's own profile when given.
	Profile string `json:"profile,omitempty"`
	Script  string `json:"script"`
	Stdin   string `json:"stdin,omitempty"`
	// Env adds variables for this call; in a session they are exported
	// into it.
	Env map[string]string `json:"env,omitempty"`
	// Timeout lowers the profile's wall-clock budget.
	Timeout Duration `json:"timeout,omitempty"`
	// Volume is the guest path (or its last element) of the volume to
	// start in; not with a session, which keeps its own directory.
	Volume string `json:"volume,omitempty"`
	// Session is a session id, or "new" to start one.
	Session string `json:"session,omitempty"`
	// Files are written before the script starts (relative names from its
	// starting directory).
	Files map[string]string `json:"files,omitempty"`
	// Changes asks for the change set of a read-only volume in the
	// result: "diff", "tar" or "json", optionally ":GUEST_VOLUME".
	Changes string `json:"changes,omitempty"`

	Workdir string `json:"-"` // resolved from Volume
	// sink, when set, receives the output as it is written.
	sink outputSink
	// started, when set, is called once the run has its slot and session,
	// just before the script starts.
	started func()
}

// Duration is a timeout written as a Go duration string ("1.5s", "2m") or
// a number of seconds.
type Duration time.Duration

func (d *Duration) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			if f, ferr := strconv.ParseFloat(s, 64); ferr == nil {
				return d.setSeconds(f)
			}
			return &durationError{fmt.Sprintf("%q is not a duration (write 30s, 1.5s or 2m, or a number of seconds)", s)}
		}
		if v < 0 {
			return &durationError{"must not be negative"}
		}
		*d = Duration(v)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return &durationError{fmt.Sprintf("%s is not a duration (write 30s, 1.5s or 2m, or a number of seconds)", b)}
	}
	return d.setSeconds(f)
}

func (d *Duration) setSeconds(f float64) error {
	if f < 0 || f > 1e9 {
		return &durationError{fmt.Sprintf("%v seconds is out of range", f)}
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// durationError is a timeout that does not parse; the only Duration field
// of a request is timeout.
type durationError struct{ msg string }

func (e *durationError) Error() string { return e.msg }

// MarshalJSON writes the duration string form.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// inputError is a request the server refuses; Field names the JSON field
// at fault, when one is.
type inputError struct {
	Status int
	Field  string
	Msg    string
}

func (e *inputError) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Msg
	}
	return e.Msg
}

func badField(field, format string, args ...any) *inputError {
	return &inputError{Status: http.StatusBadRequest, Field: field, Msg: fmt.Sprintf(format, args...)}
}

var unknownFieldRE = lazyre.New(`unknown field "([^"]+)"`)

// decodeJSON reads one JSON object strictly into v, with errors that name
// the field.
func decodeJSON(body io.Reader, v any) error {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return badField("", "the body holds more than one JSON value")
		}
		return nil
	}
	var mbe *http.MaxBytesError
	var ute *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return &inputError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("request body over %d bytes", mbe.Limit)}
	case errors.As(err, &ute):
		return badField(ute.Field, "expected %s, got JSON %s", jsonKind(ute.Type.Kind().String()), ute.Value)
	case unknownFieldRE().MatchString(err.Error()):
		name := unknownFieldRE().FindStringSubmatch(err.Error())[1]
		return badField(name, "unknown field")
	case errors.Is(err, io.EOF):
		return badField("", "the body is empty; send a JSON object")
	}
	var de *durationError
	if errors.As(err, &de) {
		return badField("timeout", "%s", de.msg)
	}
	return badField("", "malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "an array"
	case "bool":
		return "true or false"
	}
	return "a number"
}

var envNameRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validate checks a request against profile p and resolves its volume.
func (req *RunRequest) validate(p *profile) error {
	if req.Profile != "" && req.Profile != p.name {
		return &inputError{Status: http.StatusForbidden, Field: "profile", Msg: fmt.Sprintf("the token does not grant profile %q", req.Profile)}
	}
	req.Profile = p.name
	if strings.TrimSpace(req.Script) == "" {
		return badField("script", "is required")
	}
	for _, k := range sortedKeys(req.Env) {
		if !envNameRE().MatchString(k) {
			return badField("env", "%q is not a valid variable name", k)
		}
		if strings.ContainsRune(k+req.Env[k], 0) {
			return badField("env", "%s: NUL bytes are not allowed", k)
		}
	}
	for _, k := range sortedKeys(req.Files) {
		if k == "" || strings.ContainsRune(k, 0) || strings.HasSuffix(k, "/") {
			return badField("files", "%q is not a file name", k)
		}
	}
	if req.Volume != "" {
		if req.Session != "" {
			return badField("volume", "a session keeps its own working directory; cd in the script instead")
		}
		for _, v := range p.box.Volumes() {
			if v.GuestPath == path.Clean(req.Volume) || path.Base(v.GuestPath) == req.Volume {
				req.Workdir = v.GuestPath
			}
		}
		if req.Workdir == "" {
			return badField("volume", "unknown volume %q (this profile has %s)", req.Volume, strings.Join(p.volumeNames(), ", "))
		}
	}
	return nil
}

func (p *profile) volumeNames() []string {
	var names []string
	for _, v := range p.box.Volumes() {
		names = append(names, v.GuestPath)
	}
	return names
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
