package changeset

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
)

// Format is a change set's encoding.
type Format string

const (
	// Diff: a unified diff in git's form, for git apply or patch -p1.
	Diff Format = "diff"
	// Tar: the manifest (ManifestName) then the files as they are now.
	Tar Format = "tar"
	// JSON: the list of entries, with the files' content.
	JSON Format = "json"
)

// ManifestName is the tar member, first in the archive, that lists every
// entry (deletions included) as the JSON format does, without content.
const ManifestName = ".bashbox-changes.json"

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Diff, Tar, JSON:
		return f, nil
	}
	return "", fmt.Errorf("unknown change set format %q (want diff, tar or json)", s)
}

// Output is an encoded change set, as the library's result carries it (and
// its JSON form, in the --json result and the APIs).
type Output struct {
	Volume string `json:"volume"`
	Format Format `json:"format"`
	// Count is the number of entries encoded; Omitted the number left out
	// because the set outgrew the budget (Truncated is then set).
	Count     int  `json:"count"`
	Truncated bool `json:"truncated"`
	Omitted   int  `json:"omitted,omitempty"`
	// Unrepresentable counts, in a diff, the entries a git diff cannot
	// express, wholly or in part (empty directories, directory modes, file
	// modes other than 644 and 755); comment lines at its end list them.
	Unrepresentable int `json:"unrepresentable,omitempty"`
	// Error says why the set could not be computed (Data is then empty).
	Error string `json:"error,omitempty"`
	// Data is the encoded set: the text of a diff or a JSON list, or a
	// tar archive in base64 (Encoding "base64"). Bytes decodes it.
	Data     string `json:"data"`
	Encoding string `json:"encoding,omitempty"`
}

// Bytes returns the change set as it is written to a file.
func (o *Output) Bytes() ([]byte, error) {
	if o.Encoding == "base64" {
		return base64.StdEncoding.DecodeString(o.Data)
	}
	return []byte(o.Data), nil
}

func (o *Output) setData(b []byte) {
	if o.Format == Tar {
		o.Data, o.Encoding = base64.StdEncoding.EncodeToString(b), "base64"
		return
	}
	o.Data = string(b)
}

// impliedDirs lists the added directories that hold another added or
// moved entry: applying a diff creates them with it.
func impliedDirs(es []Entry) map[string]bool {
	dirs := map[string]bool{}
	for _, e := range es {
		if e.Op == OpDeleted {
			continue
		}
		for p := path.Dir(e.Path); p != "."; p = path.Dir(p) {
			dirs[p] = true
		}
	}
	return dirs
}

// truncatedMarker is the line a diff ends with when the budget cut it; a
// comment line, which git apply and patch skip.
func truncatedMarker(omitted int, limit int64) string {
	return fmt.Sprintf("# bashbox: change set truncated: %d more changes omitted (output budget %d bytes)\n", omitted, limit)
}

// Encode renders the set. A limit above zero bounds the data: whole
// entries are kept while they fit, and the rest is named by a marker (a
// comment line in a diff; a final {"op":"truncated","omitted":N} element
// in the JSON list and the tar manifest).
func (s *Set) Encode(format Format, limit int64) (*Output, error) {
	out := &Output{Format: format}
	fits := func(used, n int) bool { return limit <= 0 || int64(used+n) <= limit }
	switch format {
	case Diff:
		var b strings.Builder
		var notes []string
		implied := impliedDirs(s.Entries)
		for i := range s.Entries {
			e := &s.Entries[i]
			text, ok := gitDiff(e)
			if !ok && e.Type == TypeDir && (e.Op == OpDeleted || implied[e.Path]) {
				continue // git makes and removes directories with their files
			}
			if !ok {
				out.Unrepresentable++
				notes = append(notes, fmt.Sprintf("# bashbox: not in this diff: %s %s %s (%s -> %s)\n", e.Op, e.Type, e.Path, e.OldMode, e.NewMode))
				continue
			}
			if out.Truncated || !fits(b.Len(), len(text)+200) {
				out.Truncated = true
				out.Omitted++
				continue
			}
			b.WriteString(text)
			out.Count++
			if e.Type == TypeFile && e.Op != OpDeleted && gitMode(e.NewMode) != e.NewMode {
				// In the diff, but git will give the file another mode.
				out.Unrepresentable++
				notes = append(notes, fmt.Sprintf("# bashbox: in this diff as %s: %s (mode %s)\n", gitMode(e.NewMode), e.Path, e.NewMode))
			}
		}
		if out.Truncated {
			b.WriteString(truncatedMarker(out.Omitted, limit))
		}
		if len(notes) > 0 && fits(b.Len(), 200) {
			b.WriteString("# bashbox: a git diff records no empty directories, no directory modes and only 644/755 file modes; the tar and json formats carry these:\n")
			for _, n := range notes {
				if !fits(b.Len(), len(n)) {
					break
				}
				b.WriteString(n)
			}
		}
		out.setData([]byte(b.String()))
	case JSON:
		var b bytes.Buffer
		b.WriteString("[")
		for i := range s.Entries {
			e := s.Entries[i]
			if e.needsContent() && e.Type == TypeFile {
				e.Data = e.new // an empty file has none: size 0 says so
			}
			elem, err := json.Marshal(e)
			if err != nil {
				return nil, err
			}
			if out.Truncated || !fits(b.Len(), len(elem)+100) {
				out.Truncated = true
				out.Omitted++
				continue
			}
			if out.Count > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n")
			b.Write(elem)
			out.Count++
		}
		if out.Truncated {
			if out.Count > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n{\"op\":\"truncated\",\"omitted\":%d}", out.Omitted)
		}
		b.WriteString("\n]\n")
		out.setData(b.Bytes())
	case Tar:
		data, err := s.encodeTar(limit, out)
		if err != nil {
			return nil, err
		}
		out.setData(data)
	default:
		return nil, fmt.Errorf("unknown change set format %q", format)
	}
	return out, nil
}

func (s *Set) encodeTar(limit int64, out *Output) ([]byte, error) {
	now := time.Now()
	var members, metas [][]byte
	used := 0
	for i := range s.Entries {
		e := s.Entries[i] // a copy: the member carries the content, not the manifest
		e.Data = nil
		var m []byte
		if e.Op != OpDeleted {
			var err error
			if m, err = tarMember(&e, now); err != nil {
				return nil, err
			}
		}
		meta, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		n := len(m) + len(meta) + 2
		if out.Truncated || limit > 0 && int64(used+n+4096) > limit {
			out.Truncated = true
			out.Omitted++
			continue
		}
		used += n
		members, metas = append(members, m), append(metas, meta)
		out.Count++
	}
	var manifest bytes.Buffer
	manifest.WriteString("[")
	for i, meta := range metas {
		if i > 0 {
			manifest.WriteString(",")
		}
		manifest.WriteString("\n")
		manifest.Write(meta)
	}
	if out.Truncated {
		if len(metas) > 0 {
			manifest.WriteString(",")
		}
		fmt.Fprintf(&manifest, "\n{\"op\":\"truncated\",\"omitted\":%d}", out.Omitted)
	}
	manifest.WriteString("\n]\n")
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	if err := tw.WriteHeader(&tar.Header{Name: ManifestName, Mode: 0o644, Size: int64(manifest.Len()), ModTime: now, Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	tw.Write(manifest.Bytes())
	tw.Flush()
	for _, m := range members {
		b.Write(m)
	}
	b.Write(make([]byte, 1024)) // the end-of-archive marker
	return b.Bytes(), nil
}

// tarMember renders one entry as tar header and data blocks.
func tarMember(e *Entry, now time.Time) ([]byte, error) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	// Members keep the time the script left on them, as tar -x restores
	// it (bashbox apply does not: like git apply, it leaves the time of
	// writing, so that make sees the files as new).
	mtime := e.mtime
	if mtime.IsZero() {
		mtime = now
	}
	h := &tar.Header{Name: e.Path, ModTime: mtime, Format: tar.FormatPAX}
	h.Mode = unixMode(e.NewMode) &^ 0o6000 // no setuid/setgid: see apply.go
	switch e.Type {
	case TypeDir:
		h.Typeflag, h.Name = tar.TypeDir, e.Path+"/"
	case TypeSymlink:
		h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.Target, 0o777
	default:
		h.Typeflag, h.Size = tar.TypeReg, int64(len(e.new))
	}
	if err := tw.WriteHeader(h); err != nil {
		return nil, err
	}
	if h.Typeflag == tar.TypeReg {
		if _, err := tw.Write(e.new); err != nil {
			return nil, err
		}
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unixMode is the permission part (with setuid, setgid and sticky) of a
// modeString.
func unixMode(s string) int64 {
	var n int64
	fmt.Sscanf(s, "%o", &n)
	return n & 0o7777
}
