package bashbox

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/volumes"
)

// Files moving in and out of a sandbox take the same path rules as a
// script: a relative name starts at the working directory, the volumes'
// modes hold (a read-only volume's writes land in the in-memory overlay, a
// rw volume's reach the host) and in-memory bytes count against the overlay
// budgets.

// ErrSessionClosed is returned by a closed session's methods.
var ErrSessionClosed = errors.New("bashbox: session closed")

// guestPath makes name absolute against dir, as a script's open would.
func guestPath(dir, name string) string {
	if name == "" {
		return dir
	}
	if !path.IsAbs(name) {
		name = path.Join(dir, name)
	}
	return path.Clean(name)
}

// ctxReader stops a copy once its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// writeFile writes r to name in ns, creating missing parent directories.
func writeFile(ctx context.Context, ns *volumes.Namespace, name string, r io.Reader, perm fs.FileMode) (int64, error) {
	if perm == 0 {
		perm = 0o644
	}
	if dir := path.Dir(name); dir != "/" {
		if fi, err := ns.Stat(dir); err != nil || !fi.IsDir() {
			if err := ns.MkdirAll(dir, 0o755); err != nil {
				return 0, err
			}
		}
	}
	f, err := ns.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, ctxReader{ctx, r})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// A half-written file would pass for the whole one; and its bytes
		// would keep holding the overlay budget.
		ns.Remove(name)
	}
	return n, err
}

// writeFiles writes a call's small inputs, in name order so that a failure
// is reported the same way every time.
func writeFiles(ctx context.Context, ns *volumes.Namespace, dir string, files map[string]string) error {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := writeFile(ctx, ns, guestPath(dir, n), strings.NewReader(files[n]), 0); err != nil {
			return fmt.Errorf("files: %s: %w", n, unwrapPath(err))
		}
	}
	return nil
}

// unwrapPath drops the *PathError's guest path when the caller names the
// file itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exportScript is `export NAME='VALUE' ...` for env, or "" for none.
func exportScript(env []string) (string, error) {
	if len(env) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("export")
	for _, kv := range env {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !syntax.ValidName(name) {
			return "", fmt.Errorf("env: %q is not NAME=VALUE with a valid shell name", kv)
		}
		q, err := syntax.Quote(val, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("env: %s: %v", name, err)
		}
		b.WriteString(" " + name + "=" + q)
	}
	return b.String(), nil
}

// IsNoSpace reports whether err is a refusal for lack of room: an overlay
// budget, or a full host volume.
func IsNoSpace(err error) bool { return errors.Is(err, syscall.ENOSPC) }

// WriteFile writes r to name in the session, creating missing parent
// directories; it returns the bytes written.
func (s *Session) WriteFile(ctx context.Context, name string, r io.Reader, perm fs.FileMode) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrSessionClosed
	}
	return writeFile(ctx, s.ns, guestPath(s.sess.Dir(), name), r, perm)
}

// Stat describes name in the session, following symlinks.
func (s *Session) Stat(name string) (fs.FileInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrSessionClosed
	}
	return s.ns.Stat(guestPath(s.sess.Dir(), name))
}

// Open opens name in the session for reading. The caller closes it; a
// script run meanwhile may change the file under the reader.
func (s *Session) Open(name string) (io.ReadCloser, fs.FileInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, ErrSessionClosed
	}
	p := guestPath(s.sess.Dir(), name)
	fi, err := s.ns.Stat(p)
	if err != nil {
		return nil, nil, err
	}
	if fi.IsDir() {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
	}
	f, err := s.ns.Open(p)
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}

// Size is the bytes the session's in-memory layers hold.
func (s *Session) Size() int64 { return s.quota.Bytes() }

// Close ends the session: its in-memory files and shell state are
// dropped, and later calls fail with ErrSessionClosed. A call running on
// it finishes first.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.ns, s.shell, s.sess = nil, nil, nil
	return nil
}

// WriteTar unpacks a tar stream into dir of the session (created if
// missing). Entries may not leave dir, by name or through a link the
// archive made; regular files, directories and symlinks are kept, other
// types refused.
func (s *Session) WriteTar(ctx context.Context, dir string, r io.Reader) (files int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrSessionClosed
	}
	root := guestPath(s.sess.Dir(), dir)
	if err := s.ns.MkdirAll(root, 0o755); err != nil {
		return 0, err
	}
	tr := tar.NewReader(ctxReader{ctx, r})
	var links []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return files, fmt.Errorf("tar: %w", err)
		}
		rel := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if rel == "." && h.Typeflag == tar.TypeDir {
			continue
		}
		if rel == "." || path.IsAbs(h.Name) || rel == ".." || strings.HasPrefix(rel, "../") {
			return files, fmt.Errorf("tar: %s: entry leaves the target directory", h.Name)
		}
		for _, l := range links {
			if strings.HasPrefix(rel, l+"/") {
				return files, fmt.Errorf("tar: %s: entry goes through the archive's link %s", h.Name, l)
			}
		}
		p := path.Join(root, rel)
		mode := fs.FileMode(h.Mode).Perm()
		switch h.Typeflag {
		case tar.TypeDir:
			err = s.ns.MkdirAll(p, mode|0o700)
		case tar.TypeReg:
			_, err = writeFile(ctx, s.ns, p, tr, mode)
			files++
		case tar.TypeSymlink:
			links = append(links, rel)
			if err = s.ns.MkdirAll(path.Dir(p), 0o755); err == nil {
				err = s.ns.SymlinkIfPossible(h.Linkname, p)
			}
		default:
			return files, fmt.Errorf("tar: %s: unsupported entry type %q", h.Name, h.Typeflag)
		}
		if err != nil {
			return files, fmt.Errorf("tar: %s: %w", h.Name, unwrapPath(err))
		}
	}
}

// ReadTar writes dir of the session as a tar stream: regular files,
// directories and symlinks (not followed), names relative to dir.
func (s *Session) ReadTar(ctx context.Context, dir string, w io.Writer) error {
	s.mu.Lock()
	root := ""
	ns := s.ns
	if !s.closed {
		root = guestPath(s.sess.Dir(), dir)
	}
	s.mu.Unlock()
	if ns == nil {
		return ErrSessionClosed
	}
	fi, err := ns.Stat(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "tar", Path: dir, Err: syscall.ENOTDIR}
	}
	tw := tar.NewWriter(w)
	if err := tarDir(ctx, ns, tw, root, ""); err != nil {
		return err
	}
	return tw.Close()
}

func tarDir(ctx context.Context, ns *volumes.Namespace, tw *tar.Writer, root, rel string) error {
	entries, err := ns.ReadDir(path.Join(root, rel))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := path.Join(rel, e.Name())
		full := path.Join(root, name)
		fi, _, err := ns.LstatIfPossible(full)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: name, Mode: int64(fi.Mode().Perm()), ModTime: fi.ModTime(), Format: tar.FormatPAX}
		switch {
		case fi.IsDir():
			h.Typeflag, h.Name = tar.TypeDir, name+"/"
		case fi.Mode()&fs.ModeSymlink != 0:
			h.Typeflag = tar.TypeSymlink
			if h.Linkname, err = ns.ReadlinkIfPossible(full); err != nil {
				return err
			}
		case fi.Mode().IsRegular():
			h.Typeflag, h.Size = tar.TypeReg, fi.Size()
		default:
			continue // devices and the like have no place in an archive
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := tarDir(ctx, ns, tw, root, name); err != nil {
				return err
			}
		case tar.TypeReg:
			f, err := ns.Open(full)
			if err != nil {
				return err
			}
			_, err = io.Copy(tw, io.LimitReader(f, h.Size))
			f.Close()
			if err != nil {
				return err
			}
		}
	}
	return nil
}
