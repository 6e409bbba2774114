package bashbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// A session's state, as SaveState writes it and RestoreSession reads it:
// the shell's state as bash text (what bash's own introspection prints,
// filtered), and the files of the in-memory layers. The shell part is
// engine-agnostic: it is captured by running declare -p, declare -f,
// alias -p, set +o, shopt -p and trap -p in the session and restored by
// running the text, so whichever engine runs the session saves and loads
// what it can introspect.
type sessionState struct {
	Version int
	Workdir string
	Shell   string
	Files   []fileRecord
}

const stateVersion = 1

// fileRecord is one entry of an in-memory layer. Layer is the guest path
// of the layer's mount; Path is inside the layer.
type fileRecord struct {
	Layer   string
	Path    string
	Kind    byte // 'd' directory, 'f' file, 'l' symlink, 'p' FIFO, 'x' removed (a read-only volume's whiteout)
	Mode    fs.FileMode
	ModTime time.Time
	Data    []byte // a file's content or a symlink's target
}

// captureScript prints the shell's state as bash text. Each part may be
// missing from an engine; its absence loses only that part.
const captureScript = `declare -p 2>/dev/null; declare -f 2>/dev/null; alias -p 2>/dev/null; shopt -p 2>/dev/null; set +o 2>/dev/null; trap -p 2>/dev/null; :`

// shellOnly are variables a shell sets itself: restoring them would fail
// (read-only) or lie (PPID, RANDOM's seed, the clock).
var shellOnly = map[string]bool{
	"BASH": true, "BASHOPTS": true, "BASHPID": true, "BASH_VERSION": true, "BASH_VERSINFO": true, "BASH_SUBSHELL": true,
	"BASH_ARGC": true, "BASH_ARGV": true, "BASH_ARGV0": true, "BASH_LINENO": true, "BASH_SOURCE": true, "BASH_COMMAND": true,
	"BASH_EXECUTION_STRING": true, "BASH_REMATCH": true, "BASH_ALIASES": true, "BASH_CMDS": true, "BASH_LOADABLES_PATH": true,
	"EUID": true, "UID": true, "GID": true, "PPID": true, "SHELLOPTS": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "EPOCHREALTIME": true, "EPOCHSECONDS": true, "FUNCNAME": true, "GROUPS": true, "HISTCMD": true,
	"PIPESTATUS": true, "DIRSTACK": true, "PWD": true, "_": true, "COMP_WORDBREAKS": true,
	"HOSTNAME": true, "HOSTTYPE": true, "MACHTYPE": true, "OSTYPE": true,
}

// ErrStateTooLarge is returned by SaveState past its size limit.
var ErrStateTooLarge = errors.New("session state is larger than its limit")

// SaveState writes the session's state: working directory, variables
// with their attributes, functions, aliases, options, traps and the files
// of its in-memory layers (not the host directories of its volumes). A
// session restored from it with Box.RestoreSession continues where this
// one stopped, in this process or another. limit, when above zero,
// bounds the encoded size (ErrStateTooLarge).
func (s *Session) SaveState(ctx context.Context, w io.Writer, limit int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSessionClosed
	}
	st := sessionState{Version: stateVersion, Workdir: s.sess.Dir()}
	res, err := s.box.run(ctx, Request{Script: captureScript}, s)
	if err != nil {
		return err
	}
	if res.Truncated.Stdout || res.Budget != nil {
		return fmt.Errorf("session state: the shell's state does not fit the output budget")
	}
	if st.Shell, err = replayable(res.Stdout); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	size := int64(len(st.Shell))
	for _, l := range s.ns.MemoryLayers() {
		recs, err := layerRecords(l)
		if err != nil {
			return fmt.Errorf("session state: %s: %w", l.Guest, err)
		}
		for _, r := range recs {
			size += int64(len(r.Data) + len(r.Path) + 32)
		}
		if limit > 0 && size > limit {
			return fmt.Errorf("%w (%d bytes)", ErrStateTooLarge, limit)
		}
		st.Files = append(st.Files, recs...)
	}
	var buf bytes.Buffer
	if err := encodeState(&buf, &st); err != nil {
		return err
	}
	if limit > 0 && int64(buf.Len()) > limit {
		return fmt.Errorf("%w (%d bytes)", ErrStateTooLarge, limit)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// RestoreSession starts a session from a state SaveState wrote. The box
// must have the same volumes as the one that saved it.
func (b *Box) RestoreSession(ctx context.Context, r io.Reader) (*Session, error) {
	var st sessionState
	if err := decodeState(r, &st); err != nil {
		return nil, fmt.Errorf("session state: not a saved session: %w", err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("session state: version %d, this bashbox reads %d", st.Version, stateVersion)
	}
	s, err := b.NewSession()
	if err != nil {
		return nil, err
	}
	if err := s.restore(ctx, &st); err != nil {
		s.Close()
		return nil, fmt.Errorf("session state: %w", err)
	}
	return s, nil
}

func (s *Session) restore(ctx context.Context, st *sessionState) error {
	layers := map[string]volumes.MemoryLayer{}
	for _, l := range s.ns.MemoryLayers() {
		layers[l.Guest] = l
	}
	// Removals first: a path removed from a read-only volume and made
	// again has both records.
	for _, pass := range []bool{true, false} {
		for i := range st.Files {
			rec := &st.Files[i]
			if (rec.Kind == 'x') != pass {
				continue
			}
			l, ok := layers[rec.Layer]
			if !ok {
				return fmt.Errorf("%s: no such in-memory volume in this box", rec.Layer)
			}
			var fsys overlayfs.Layer = l.Mem
			if l.Overlay != nil {
				fsys = l.Overlay
			}
			if err := restoreRecord(fsys, rec); err != nil {
				return fmt.Errorf("%s: %w", path.Join(rec.Layer, rec.Path), err)
			}
		}
	}
	q, err := syntax.Quote(st.Workdir, syntax.LangBash)
	if err != nil {
		return err
	}
	script := st.Shell + "\ncd " + q + " 2>/dev/null\n" // absolute: never taken for an option
	_, err = s.box.run(ctx, Request{Script: script, DiscardCapture: true}, s)
	return err
}

func restoreRecord(fsys overlayfs.Layer, rec *fileRecord) error {
	p := rec.Path
	if rec.Kind == 'x' {
		if err := overlayfs.RemoveAll(fsys, p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if dir := path.Dir(p); dir != p {
		if err := overlayfs.MkdirAll(fsys, dir, 0o755); err != nil {
			return err
		}
	}
	switch rec.Kind {
	case 'd':
		if err := fsys.Mkdir(p, rec.Mode.Perm()); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	case 'l':
		overlayfs.RemoveAll(fsys, p)
		return fsys.SymlinkIfPossible(string(rec.Data), p)
	case 'p':
		// The FIFO itself; whatever it held unread went with the call.
		overlayfs.RemoveAll(fsys, p)
		mk, ok := fsys.(overlayfs.Mkfifoer)
		if !ok {
			return fmt.Errorf("%s: this layer makes no FIFO", p)
		}
		if err := mk.Mkfifo(p, rec.Mode.Perm()); err != nil {
			return err
		}
	case 'f':
		f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, rec.Mode.Perm())
		if err != nil {
			return err
		}
		_, err = f.Write(rec.Data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown entry kind %q", rec.Kind)
	}
	if err := fsys.Chmod(p, rec.Mode&(fs.ModePerm|fs.ModeSticky|fs.ModeSetuid|fs.ModeSetgid)); err != nil {
		return err
	}
	return fsys.Chtimes(p, rec.ModTime, rec.ModTime)
}

// layerRecords lists what an in-memory layer holds: all of a memory
// layer, or a read-only volume's changes over its host directory (the
// overlay's own change list, with its removals).
func layerRecords(l volumes.MemoryLayer) ([]fileRecord, error) {
	var out []fileRecord
	add := func(fsys overlayfs.Layer, p string, fi fs.FileInfo) error {
		rec := fileRecord{Layer: l.Guest, Path: p, Mode: fi.Mode(), ModTime: fi.ModTime()}
		switch {
		case fi.IsDir():
			rec.Kind = 'd'
		case fi.Mode()&fs.ModeSymlink != 0:
			rec.Kind = 'l'
			t, err := fsys.(overlayfs.Layer).ReadlinkIfPossible(p)
			if err != nil {
				return err
			}
			rec.Data = []byte(t)
		case fi.Mode()&fs.ModeNamedPipe != 0:
			rec.Kind = 'p'
		case fi.Mode().IsRegular():
			rec.Kind = 'f'
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			rec.Data, err = io.ReadAll(f)
			f.Close()
			if err != nil {
				return err
			}
		default:
			return nil
		}
		out = append(out, rec)
		return nil
	}
	if l.Overlay != nil {
		changes, err := l.Overlay.Changes()
		if err != nil {
			return nil, err
		}
		for _, c := range changes {
			switch c.Op {
			case overlayfs.Deleted:
				out = append(out, fileRecord{Layer: l.Guest, Path: c.Path, Kind: 'x'})
			case overlayfs.Renamed:
				out = append(out, fileRecord{Layer: l.Guest, Path: c.OldPath, Kind: 'x'})
				fallthrough
			default:
				if err := add(l.Overlay, c.Path, c.New); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := l.Mem.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			if err := add(l.Mem, p, e); err != nil {
				return err
			}
			if e.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return out, walk("/")
}

// replayable filters captured introspection down to what a fresh session
// may run: variables the shell sets itself are dropped, and the parts are
// ordered so that options and traps come last (an errexit or a trap
// restored early would act on the rest of the replay).
func replayable(captured string) (string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(captured), "state")
	if err != nil {
		return "", fmt.Errorf("cannot read the shell's introspection: %w", err)
	}
	var first, last []*syntax.Stmt
	for _, st := range f.Stmts {
		switch c := st.Cmd.(type) {
		case *syntax.DeclClause:
			if skipDecl(c) {
				continue
			}
			// "declare -- x=1" is "declare x=1"; not every engine takes
			// the "--".
			args := c.Args[:0]
			for _, a := range c.Args {
				if !(a.Naked && a.Name == nil && a.Value != nil && a.Value.Lit() == "--") {
					args = append(args, a)
				}
			}
			c.Args = args
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				switch c.Args[0].Lit() {
				case "set", "shopt", "trap":
					last = append(last, st)
					continue
				}
			}
		}
		first = append(first, st)
	}
	var b bytes.Buffer
	pr := syntax.NewPrinter()
	for _, st := range append(first, last...) {
		if err := pr.Print(&b, st); err != nil {
			return "", err
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// skipDecl reports a declaration of a variable the shell sets itself.
func skipDecl(c *syntax.DeclClause) bool {
	for _, a := range c.Args {
		if a.Name != nil && shellOnly[a.Name.Value] {
			return true
		}
		// IFS printed as "\t\n" inside double quotes is backslashes, not
		// whitespace: an engine printing its default IFS so would break
		// word splitting once restored. bash prints $' \t\n'.
		if a.Name != nil && a.Name.Value == "IFS" && a.Value != nil && len(a.Value.Parts) == 1 {
			if dq, ok := a.Value.Parts[0].(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
				if l, ok := dq.Parts[0].(*syntax.Lit); ok && l.Value == ` \t\n` {
					return true
				}
			}
		}
		if a.Name == nil && a.Value != nil && a.Naked {
			if name, _, _ := strings.Cut(a.Value.Lit(), "="); shellOnly[name] {
				return true
			}
		}
	}
	return false
}
