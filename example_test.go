package bashbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
)

// A box over a host directory, read-only: the script may write, but its
// writes stay in memory and the host directory is never modified.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("TODO: write docs\ndone: code\n"), 0o644)

	box, err := bashbox.New(bashbox.Config{
		Volumes: []bashbox.Volume{{HostDir: dir, GuestPath: "/work", Mode: bashbox.ReadOnly}},
		Limits:  bashbox.Limits{Timeout: 10 * time.Second},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer box.Close()

	res, err := box.Run(context.Background(), bashbox.Request{
		Script: `grep -n TODO notes.txt; echo scratch > notes.txt; cat notes.txt`,
	})
	if err != nil {
		log.Fatal(err)
	}
	host, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
	fmt.Printf("exit %d\n%s", res.ExitCode, res.Stdout)
	fmt.Printf("host file unchanged: %v\n", strings.HasPrefix(string(host), "TODO"))
	// Output:
	// exit 0
	// 1:TODO: write docs
	// scratch
	// host file unchanged: true
}

// A budget stops a script with exit status 125 (124 for the timeout) and
// Result.Budget names it.
func ExampleBox_Run_budget() {
	box, _ := bashbox.New(bashbox.Config{Limits: bashbox.Limits{MaxLoopIterations: 1000}})
	defer box.Close()
	res, _ := box.Run(context.Background(), bashbox.Request{Script: `while :; do :; done`})
	fmt.Println(res.ExitCode, res.Budget.Name, res.Budget.Limit)
	fmt.Print(res.Stderr)
	// Output:
	// 125 loop_iterations 1000
	// bashbox: budget exceeded: loop_iterations (limit 1000)
}

// Streaming: output reaches the writers as the script writes it;
// DiscardCapture leaves it out of the Result.
func ExampleRequest_streaming() {
	box, _ := bashbox.New(bashbox.Config{})
	defer box.Close()
	res, _ := box.Run(context.Background(), bashbox.Request{
		Script:         `for i in 1 2 3; do echo "step $i"; done`,
		Stdout:         os.Stdout,
		Stderr:         os.Stderr,
		DiscardCapture: true,
	})
	fmt.Printf("exit %d, captured %q\n", res.ExitCode, res.Stdout)
	// Output:
	// step 1
	// step 2
	// step 3
	// exit 0, captured ""
}

// A session keeps the working directory, variables, functions and
// in-memory files between its calls.
func ExampleBox_NewSession() {
	box, _ := bashbox.New(bashbox.Config{})
	defer box.Close()
	sess, err := box.NewSession()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	sess.Run(ctx, bashbox.Request{Script: `mkdir -p /tmp/build && cd /tmp/build; greeting=hello; echo kept > state`})
	res, _ := sess.Run(ctx, bashbox.Request{Script: `echo "$greeting from $PWD: $(cat state)"`})
	fmt.Print(res.Stdout)
	// Output:
	// hello from /tmp/build: kept
}

// A custom command is a Go function; OnlyCommands chooses the command set.
func ExampleConfig_commands() {
	box, err := bashbox.New(bashbox.Config{
		Commands: map[string]builtins.Command{
			"greet": func(ctx context.Context, c *builtins.Call) int {
				if len(c.Args) < 2 {
					fmt.Fprintln(c.Stderr, "greet: missing name")
					return 2
				}
				fmt.Fprintf(c.Stdout, "hello, %s\n", c.Args[1])
				return 0
			},
		},
		OnlyCommands: []string{"greet", "tr", "echo"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer box.Close()
	res, _ := box.Run(context.Background(), bashbox.Request{Script: `greet world | tr a-z A-Z; greet; command -v grep || echo "no grep here"`})
	fmt.Print(res.Stdout, res.Stderr)
	fmt.Println("exit", res.ExitCode)
	// Output:
	// HELLO, WORLD
	// no grep here
	// greet: missing name
	// exit 0
}

// Serving a box over HTTP: the Result is the JSON result object. (bashbox
// serve, package serve, is the full server: tokens, profiles, sessions,
// MCP and metrics.)
func Example_http() {
	box, _ := bashbox.New(bashbox.Config{Limits: bashbox.Limits{Timeout: 5 * time.Second}})
	defer box.Close()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Script string }
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		// The request's context: a client that goes away stops the script.
		res, err := box.Run(r.Context(), bashbox.Request{Script: req.Script})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(res)
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"script":"echo hi; exit 3"}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var res bashbox.Result
	json.NewDecoder(resp.Body).Decode(&res)
	fmt.Printf("%q %d %v\n", res.Stdout, res.ExitCode, res.Budget)
	// Output:
	// "hi\n" 3 <nil>
}
