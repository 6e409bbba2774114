package serve

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// WriteFileInput is the write_file tool's input.
type WriteFileInput struct {
	Path     string `json:"path" jsonschema:"file to write; relative names start at the working directory; parents are created"`
	Content  string `json:"content" jsonschema:"the file's content"`
	Encoding string `json:"encoding,omitempty" jsonschema:"utf-8 (default) or base64"`
	Session  string `json:"session,omitempty" jsonschema:"session id, or 'new'; without one only rw volumes keep the file"`
}

// ReadFileInput is the read_file tool's input.
type ReadFileInput struct {
	Path    string `json:"path" jsonschema:"file to read; relative names start at the working directory"`
	Session string `json:"session,omitempty" jsonschema:"session id; without one the volumes as a new call sees them"`
}

// FileOutput describes a file written or read.
type FileOutput struct {
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	Content  string `json:"content,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Session  string `json:"session,omitempty"`
}

// withSession runs f on the named session, or on a fresh one for the call
// when name is empty.
func (p *profile) withSession(name string, f func(*bashbox.Session, string) error) error {
	if name == "" {
		s, err := p.box.NewSession()
		if err != nil {
			return err
		}
		defer s.Close()
		return f(s, "")
	}
	e, done, err := p.sessions.acquire(name)
	if err != nil {
		return err
	}
	if err := f(e.s, e.id); err != nil {
		done()
		if e.fresh {
			p.sessions.remove(e.id, true)
		}
		return err
	}
	return done()
}

// volumeOf is the volume holding guest path name, if any.
func (p *profile) volumeOf(name string) *volumes.Volume {
	var best *volumes.Volume
	for _, v := range p.box.Volumes() {
		if name == v.GuestPath || strings.HasPrefix(name, strings.TrimSuffix(v.GuestPath, "/")+"/") {
			if best == nil || len(v.GuestPath) > len(best.GuestPath) {
				best = &v
			}
		}
	}
	return best
}

func (s *Server) addFileTools(srv *mcp.Server, p *profile) {
	maxRead := p.box.Limits().MaxOutputBytes
	mcp.AddTool(srv, &mcp.Tool{Name: "write_file", Description: "Write a file into the sandbox: into a session (its in-memory files and overlays, kept for its later calls) or, without a session, into a read-write volume. Read-only volumes stay read-only: writes land in the session's overlay."},
		func(ctx context.Context, req *mcp.CallToolRequest, in WriteFileInput) (*mcp.CallToolResult, FileOutput, error) {
			if in.Path == "" {
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, badField("path", "is required"))
			}
			data := []byte(in.Content)
			switch in.Encoding {
			case "", "utf-8", "utf8":
			case "base64":
				var err error
				if data, err = base64.StdEncoding.DecodeString(in.Content); err != nil {
					return nil, FileOutput{}, s.mcpRefusal(ctx, req, badField("content", "not base64: %v", err))
				}
			default:
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, badField("encoding", "%q: want utf-8 or base64", in.Encoding))
			}
			var out FileOutput
			ctx, leave, err := s.drain.enter(ctx) // a draining server takes no new work
			if err != nil {
				return nil, FileOutput{}, err
			}
			defer leave()
			err = p.withSession(in.Session, func(sess *bashbox.Session, id string) error {
				name := in.Path
				if !path.IsAbs(name) {
					name = path.Join(sess.Workdir(), name)
				}
				if id == "" {
					if v := p.volumeOf(path.Clean(name)); v == nil || v.Mode != volumes.ReadWrite {
						return badField("session", "%s is not in a read-write volume, so the file would vanish with the call; write it into a session", name)
					}
				}
				n, err := sess.WriteFile(ctx, name, bytes.NewReader(data), 0)
				out = FileOutput{Path: path.Clean(name), Size: n, Session: id}
				return err
			})
			if err != nil {
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, mcpFileError(err))
			}
			text := fmt.Sprintf("wrote %d bytes to %s", out.Size, out.Path)
			if out.Session != "" && in.Session == "new" {
				text += "\nsession: " + out.Session
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "read_file", Description: fmt.Sprintf("Read a file from the sandbox (a session's, or the volumes as a new call sees them). Text comes as is, other bytes as base64; files over %d bytes are refused (use the HTTP files API).", maxRead)},
		func(ctx context.Context, req *mcp.CallToolRequest, in ReadFileInput) (*mcp.CallToolResult, FileOutput, error) {
			if in.Path == "" {
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, badField("path", "is required"))
			}
			if in.Session == "new" {
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, badField("session", "a new session has no files of its own yet"))
			}
			var out FileOutput
			ctx, leave, err := s.drain.enter(ctx) // a draining server takes no new work
			if err != nil {
				return nil, FileOutput{}, err
			}
			defer leave()
			err = p.withSession(in.Session, func(sess *bashbox.Session, id string) error {
				f, fi, err := sess.Open(in.Path)
				if err != nil {
					return err
				}
				defer f.Close()
				if fi.Size() > maxRead {
					return badField("path", "%s is %d bytes, over the %d a tool result may carry; fetch it over HTTP", in.Path, fi.Size(), maxRead)
				}
				data, err := io.ReadAll(io.LimitReader(f, maxRead+1))
				if err != nil {
					return err
				}
				out = FileOutput{Path: in.Path, Size: int64(len(data)), Content: string(data), Session: id}
				if !utf8.Valid(data) {
					out.Content, out.Encoding = base64.StdEncoding.EncodeToString(data), "base64"
				}
				return nil
			})
			if err != nil {
				return nil, FileOutput{}, s.mcpRefusal(ctx, req, mcpFileError(err))
			}
			text := out.Content
			if out.Encoding == "base64" {
				text = fmt.Sprintf("%s: %d bytes of binary data, base64 in the structured result", out.Path, out.Size)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
		})
}

// mcpRefusal logs a refused MCP tool call, as the HTTP API logs its
// refusals, and returns err as the tool's error.
func (s *Server) mcpRefusal(ctx context.Context, req *mcp.CallToolRequest, err error) error {
	s.logRefusal(mcpContext(ctx, req.Extra), errorStatus(err), req.Params.Name+": "+err.Error())
	return err
}

// mcpFileError keeps refusals as they are and words file errors as the
// HTTP API does.
func mcpFileError(err error) error {
	if _, ok := err.(*inputError); ok {
		return err
	}
	return fileError(err)
}

// progressSink sends output as MCP progress notifications: the message is
// the chunk, progress the bytes so far.
func progressSink(ctx context.Context, ss *mcp.ServerSession, token any) *chunker {
	var sent float64
	ch := newChunker(func(stream string, data []byte) {
		sent += float64(len(data))
		msg := string(data)
		if !utf8.Valid(data) {
			msg = "[" + stream + ": " + fmt.Sprint(len(data)) + " bytes of binary output]"
		}
		ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: sent, Message: msg})
	})
	return ch
}
