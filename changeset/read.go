package changeset

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Load reads a change set in the tar or JSON format, checking that every
// entry is well formed and that the content it carries has the recorded
// sha256. A truncated set is refused: applying part of a change is not
// what was asked for.
func Load(r io.Reader) (*Set, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var set *Set
	switch trimmed := bytes.TrimLeft(data, " \t\r\n"); {
	case len(trimmed) > 0 && trimmed[0] == '[':
		set, err = loadJSON(data, true)
	case isTar(data):
		set, err = loadTar(data)
	case bytes.HasPrefix(trimmed, []byte("diff --git")):
		return nil, errors.New("this is a diff: apply it with git apply or patch -p1 (bashbox apply takes the tar and json formats)")
	default:
		return nil, errors.New("not a bashbox change set (want the tar or json format)")
	}
	if err != nil {
		return nil, err
	}
	return set, set.check()
}

func isTar(data []byte) bool {
	h, err := tar.NewReader(bytes.NewReader(data)).Next()
	return err == nil && h.Name == ManifestName
}

// rawEntry is a list element, which may be the truncation marker.
type rawEntry struct {
	Entry
	Omitted int `json:"omitted"`
}

func loadJSON(data []byte, withData bool) (*Set, error) {
	var raw []rawEntry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("malformed change set: %v", err)
	}
	set := &Set{}
	for _, r := range raw {
		if r.Op == "truncated" {
			return nil, fmt.Errorf("the change set is truncated: %d changes were left out to fit the output budget; make it again with a larger budget (--max-output)", r.Omitted)
		}
		e := r.Entry
		if withData && e.needsContent() {
			switch e.Type {
			case TypeSymlink:
				e.new, e.hasNew = []byte(e.Target), true
			default:
				if e.Data == nil && e.Size != 0 {
					return nil, fmt.Errorf("malformed change set: %s: no data for %s file", e.Path, e.Op)
				}
				e.new, e.hasNew = e.Data, true
			}
		}
		e.Data = nil
		set.Entries = append(set.Entries, e)
	}
	return set, nil
}

func loadTar(data []byte) (*Set, error) {
	tr := tar.NewReader(bytes.NewReader(data))
	h, err := tr.Next()
	if err != nil {
		return nil, err
	}
	manifest, err := io.ReadAll(tr)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", h.Name, err)
	}
	set, err := loadJSON(manifest, false)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*Entry{}
	for i := range set.Entries {
		if e := &set.Entries[i]; e.Op != OpDeleted {
			byPath[e.Path] = e
		}
	}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("malformed change set archive: %v", err)
		}
		name := strings.TrimSuffix(h.Name, "/")
		e := byPath[name]
		if e == nil {
			return nil, fmt.Errorf("malformed change set: member %s is not in the manifest", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeReg:
			if e.new, err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("malformed change set archive: %v", err)
			}
		case tar.TypeSymlink:
			e.new = []byte(h.Linkname)
		}
		e.hasNew = true
	}
	for i := range set.Entries {
		if e := &set.Entries[i]; e.needsContent() && !e.hasNew {
			return nil, fmt.Errorf("malformed change set: %s: no member in the archive", e.Path)
		}
	}
	return set, nil
}

// check validates every entry: a clean relative path, a known op and type,
// modes where the op needs them, and content matching its sha256.
func (s *Set) check() error {
	for i := range s.Entries {
		e := &s.Entries[i]
		bad := func(format string, a ...any) error {
			return fmt.Errorf("malformed change set: %s: %s", e.Path, fmt.Sprintf(format, a...))
		}
		root := e.Path == "." && e.Op == OpMode && e.Type == TypeDir // the volume's root
		if !root && !localPath(e.Path) || e.OldPath != "" && !localPath(e.OldPath) {
			return bad("path is not a clean relative path inside the directory")
		}
		switch e.Type {
		case TypeFile, TypeSymlink, TypeDir:
		default:
			return bad("unknown type %q", e.Type)
		}
		switch e.Op {
		case OpAdded, OpModified, OpDeleted, OpMode:
		case OpRenamed:
			if e.OldPath == "" || e.Type == TypeDir {
				return bad("a rename needs old_path and a file or symlink")
			}
		default:
			return bad("unknown op %q", e.Op)
		}
		if e.Op != OpAdded {
			if _, err := parseMode(e.OldMode); err != nil {
				return bad("%v", err)
			}
		}
		if e.Op != OpDeleted {
			if _, err := parseMode(e.NewMode); err != nil {
				return bad("%v", err)
			}
		}
		if e.Type != TypeDir && e.Op != OpAdded && len(e.OldSHA256) != 64 {
			return bad("no old_sha256 to check the base against")
		}
		if e.needsContent() && sum(e.new) != e.SHA256 {
			return bad("content does not match its sha256")
		}
	}
	return nil
}

// localPath reports whether p is a clean, relative, slash-separated path
// that stays inside the directory it is applied to.
func localPath(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.ContainsRune(p, 0) {
		return false
	}
	return p != ".." && !strings.HasPrefix(p, "../")
}
