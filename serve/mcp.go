package serve

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/hostsandbox/bashtool"
)

// BashboxInput is the Bashbox tool's input: the HTTP API's request, with
// command accepted for script (the name the classic Bash tool uses).
type BashboxInput struct {
	Script      string            `json:"script,omitempty" jsonschema:"the shell script to run (bash syntax)"`
	Command     string            `json:"command,omitempty" jsonschema:"the same as script"`
	Description string            `json:"description,omitempty" jsonschema:"what the command does, in 5 to 10 words (recorded only)"`
	Stdin       string            `json:"stdin,omitempty" jsonschema:"the script's standard input"`
	Env         map[string]string `json:"env,omitempty" jsonschema:"variables for this call; in a session they are exported into it"`
	Timeout     Duration          `json:"timeout,omitempty"`
	Volume      string            `json:"volume,omitempty" jsonschema:"guest path of the volume to start in (default: the first); not with a session"`
	Profile     string            `json:"profile,omitempty" jsonschema:"must be the connection's own profile when given"`
	Session     string            `json:"session,omitempty" jsonschema:"session id to keep state between calls, or 'new' to start one (only where the operator enabled sessions)"`
	Files       map[string]string `json:"files,omitempty" jsonschema:"small files to write before the script starts: name to content (relative names from the starting directory)"`
	Changes     string            `json:"changes,omitempty" jsonschema:"'diff', 'tar' or 'json' (optionally ':/VOLUME'): return what the script wrote over a read-only volume as a change set in the result's changes field"`
}

// BashboxOutput is the structured result: the result object (bashbox.Result, as the README documents it).
type BashboxOutput struct {
	bashbox.Result
	Session string `json:"session,omitempty"`
}

// inputSchema is In's inferred schema, with timeout taking a duration
// string or a number of seconds.
func inputSchema[In any]() *jsonschema.Schema {
	sch, err := jsonschema.For[In](nil)
	if err != nil {
		panic(err) // the input types are fixed; a test builds every tool
	}
	if _, ok := sch.Properties["timeout"]; ok {
		sch.Properties["timeout"] = &jsonschema.Schema{Types: []string{"string", "number"},
			Description: "wall-clock budget: a duration such as 30s or 2m, or a number of seconds; clamped to the profile's budget"}
	}
	return sch
}

// mcpContext carries the HTTP request's id and client address (or new ones
// over stdio) to the run's audit line.
func mcpContext(ctx context.Context, extra *mcp.RequestExtra) context.Context {
	info := &requestInfo{ID: newID(8), Client: "stdio"}
	if extra != nil && extra.Header != nil {
		if id := extra.Header.Get("X-Request-Id"); id != "" {
			info.ID = id
		}
		info.Client = extra.Header.Get(clientHeader)
	}
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// description tells the model what the sandbox is.
func (p *profile) description() string {
	var vols []string
	for _, v := range p.box.Volumes() {
		vols = append(vols, fmt.Sprintf("%s (%s)", v.GuestPath, v.Mode))
	}
	cmds := p.box.Commands()
	return strings.Join([]string{
		"Run a bash script in an isolated in-process sandbox. Each call starts fresh (cwd, variables and /tmp are reset) unless a session is used.",
		"Volumes: " + strings.Join(vols, ", ") + ". Read-only (ro) volumes accept writes, but they vanish after the call. Nothing else of the host exists; there is no network.",
		fmt.Sprintf("Available commands (%d): %s. Anything else fails with 'command not found'.", len(cmds), strings.Join(cmds, " ")),
		"Output is stdout and stderr merged, then 'exit: N' for a non-zero status.",
	}, "\n")
}

// MCPServer builds the MCP server of one profile.
func (s *Server) MCPServer(profileName string) (*mcp.Server, error) {
	p, ok := s.profiles[profileName]
	if !ok {
		return nil, fmt.Errorf("unknown profile %q", profileName)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "bashbox", Version: builtins.ReleaseVersion}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "Bashbox", Description: p.description(), InputSchema: inputSchema[BashboxInput]()},
		func(ctx context.Context, req *mcp.CallToolRequest, in BashboxInput) (*mcp.CallToolResult, BashboxOutput, error) {
			ctx = mcpContext(ctx, req.Extra)
			script := in.Script
			if script == "" {
				script = in.Command
			} else if in.Command != "" && in.Command != in.Script {
				return nil, BashboxOutput{}, s.mcpRefusal(ctx, req, badField("command", "give script or command, not both"))
			}
			if in.Profile != "" && in.Profile != p.name {
				return nil, BashboxOutput{}, s.mcpRefusal(ctx, req, &inputError{Status: 403, Field: "profile", Msg: "this connection does not grant profile " + in.Profile})
			}
			rr := RunRequest{Profile: p.name, Script: script, Stdin: in.Stdin, Env: in.Env, Timeout: in.Timeout,
				Volume: in.Volume, Session: in.Session, Files: in.Files, Changes: in.Changes}
			var progress *chunker
			if token := req.Params.GetProgressToken(); token != nil {
				progress = progressSink(ctx, req.Session, token)
				rr.sink = progress.write
			}
			res, err := s.Run(ctx, rr)
			if progress != nil {
				progress.flush()
			}
			if err != nil {
				return nil, BashboxOutput{}, err
			}
			out := BashboxOutput{Result: *res.Result, Session: res.Session}
			text := res.Text
			if res.Session != "" && in.Session == "new" {
				text += "session: " + res.Session + "\n"
			}
			return &mcp.CallToolResult{
				Content: []mcp.Content{&mcp.TextContent{Text: text}},
				IsError: res.ExitCode != 0,
			}, out, nil
		})
	s.addFileTools(srv, p)
	if p.bash != nil {
		addBashTools(srv, p.bash)
	}
	return srv, nil
}

// ShellInput names a background shell.
type ShellInput struct {
	ShellID string `json:"shell_id" jsonschema:"the id Bash returned for a background command"`
}

func addBashTools(srv *mcp.Server, tool *bashtool.Tool) {
	mcp.AddTool(srv, &mcp.Tool{Name: "Bash", Description: "Run a command with the host shell inside an OS sandbox (" + tool.BackendName() + "); network " + string(tool.Network()) + ". Set run_in_background for long commands and read them with BashOutput."},
		func(ctx context.Context, req *mcp.CallToolRequest, in bashtool.Input) (*mcp.CallToolResult, bashtool.Result, error) {
			res, err := tool.Run(ctx, in)
			if err != nil {
				return nil, bashtool.Result{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Output}}, IsError: res.ExitCode != 0}, res, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "BashOutput", Description: "Read what a background Bash shell wrote since the last call, and its status."},
		func(ctx context.Context, req *mcp.CallToolRequest, in ShellInput) (*mcp.CallToolResult, bashtool.ShellOutput, error) {
			out, err := tool.Output(in.ShellID)
			if err != nil {
				return nil, bashtool.ShellOutput{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text()}}}, out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "KillShell", Description: "Stop a background Bash shell and everything it started."},
		func(ctx context.Context, req *mcp.CallToolRequest, in ShellInput) (*mcp.CallToolResult, bashtool.ShellOutput, error) {
			out, err := tool.Kill(in.ShellID)
			if err != nil {
				return nil, bashtool.ShellOutput{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text()}}}, out, nil
		})
}

// ServeStdio runs the MCP server of a profile on stdin/stdout.
func (s *Server) ServeStdio(ctx context.Context, profileName string) error {
	srv, err := s.MCPServer(profileName)
	if err != nil {
		return err
	}
	return srv.Run(ctx, &mcp.StdioTransport{})
}

// mcpHTTPHandler serves MCP over streamable HTTP; the bearer token picks
// the profile.
func (s *Server) mcpHTTPHandler() http.Handler {
	servers := map[string]*mcp.Server{}
	for name := range s.profiles {
		if srv, err := s.MCPServer(name); err == nil {
			servers[name] = srv
		}
	}
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		p, ok := s.profileForToken(r)
		if !ok {
			return nil
		}
		return servers[p.name]
	}, nil)
	// The profile is the MCP session's user: the SDK refuses (403) a
	// request for a session that another profile's token opened.
	verify := func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		p, ok := s.profileForToken(r)
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.name}, nil
	}
	h2 := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.profileForToken(r); !ok {
			s.fail(w, r, errNoToken)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.Server.MaxRequestBytes)
		h2.ServeHTTP(w, r)
	})
}
