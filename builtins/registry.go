package builtins

import (
	"context"
	"sort"
)

// Command runs one invocation and returns its exit status.
type Command func(ctx context.Context, c *Call) int

// Registry maps command names to implementations. It is filled once, when a
// box is configured, and only read afterwards, so it needs no lock.
type Registry struct {
	cmds map[string]Command
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{cmds: map[string]Command{}} }

// Register adds or replaces a command.
func (r *Registry) Register(name string, cmd Command) { r.cmds[name] = cmd }

// Lookup finds a command by name.
func (r *Registry) Lookup(name string) (Command, bool) {
	cmd, ok := r.cmds[name]
	return cmd, ok
}

// Names lists the registered commands, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.cmds))
	for n := range r.cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
