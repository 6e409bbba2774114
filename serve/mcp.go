package serve

import (
	"context"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/hostsandbox/bashtool"
)

// BashboxInput is the Bashbox tool's input.
type BashboxInput struct {
	Command     string  `json:"command" jsonschema:"the shell script to run (bash syntax)"`
	Description string  `json:"description,omitempty" jsonschema:"what the command does, in 5 to 10 words (recorded only)"`
	Timeout     float64 `json:"timeout,omitempty" jsonschema:"seconds; clamped to the profile's budget"`
	Volume      string  `json:"volume,omitempty" jsonschema:"guest path of the volume to start in (default: the first)"`
	Session     string  `json:"session,omitempty" jsonschema:"session id to keep state between calls, or 'new' to start one (only where the operator enabled sessions)"`
}

// BashboxOutput is the structured result: the result object (bashbox.Result, as the README documents it).
type BashboxOutput struct {
	bashbox.Result
	Session string `json:"session,omitempty"`
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
	mcp.AddTool(srv, &mcp.Tool{Name: "Bashbox", Description: p.description()},
		func(ctx context.Context, req *mcp.CallToolRequest, in BashboxInput) (*mcp.CallToolResult, BashboxOutput, error) {
			if strings.TrimSpace(in.Command) == "" {
				return nil, BashboxOutput{}, fmt.Errorf("command is required")
			}
			rr := RunRequest{Profile: p.name, Script: in.Command, Timeout: in.Timeout, Session: in.Session}
			if in.Volume != "" {
				found := false
				for _, v := range p.box.Volumes() {
					if v.GuestPath == path.Clean(in.Volume) || path.Base(v.GuestPath) == in.Volume {
						rr.Workdir, found = v.GuestPath, true
					}
				}
				if !found {
					return nil, BashboxOutput{}, fmt.Errorf("unknown volume %q", in.Volume)
				}
			}
			res, err := s.Run(ctx, rr)
			if err != nil {
				return nil, BashboxOutput{}, err
			}
			out := BashboxOutput{Result: *res.Result, Session: res.Session}
			return &mcp.CallToolResult{
				Content: []mcp.Content{&mcp.TextContent{Text: res.Text}},
				IsError: res.ExitCode != 0,
			}, out, nil
		})
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.profileForToken(r); !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="bashbox"`)
			httpError(w, http.StatusUnauthorized, "missing or unknown bearer token")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.Server.MaxRequestBytes)
		h.ServeHTTP(w, r)
	})
}
