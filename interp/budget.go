package interp

import (
	"context"

	"fmt"
	"github.com/bashbox/bashbox/builtins"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are the budgets of one call. Zero means no limit, except where
// the box fills in defaults.
type Limits struct {
	Timeout           time.Duration
	MaxCommands       int64 // commands dispatched to the registry
	MaxLoopIterations int64 // per loop entry
	MaxOutputBytes    int64 // per stream
	MaxMemoryBytes    int64 // shell variables and in-memory buffers
	MaxOverlayBytes   int64
	MaxOverlayFiles   int64
	MaxWriteBytes     int64 // written through to read-write volumes
	MaxWriteFiles     int64 // created in read-write volumes
}

// Budget names, as the result object reports them.
const (
	BudgetTime         = "timeout"
	BudgetCommands     = "commands"
	BudgetLoop         = "loop_iterations"
	BudgetOutput       = "output"
	BudgetMemory       = "memory"
	BudgetOverlayBytes = "overlay_bytes"
	BudgetOverlayFiles = "overlay_files"
	BudgetWriteBytes   = "write_bytes"
	BudgetWriteFiles   = "write_files"
)

// Trip says which budget stopped a script.
type Trip struct {
	Name  string `json:"name"`
	Limit int64  `json:"limit"`
}

// Message is the one line printed on stderr when a budget stops a script.
func (t *Trip) Message() string {
	if t.Name == BudgetTime {
		return fmt.Sprintf("bashbox: budget exceeded: %s (limit %s)", t.Name, time.Duration(t.Limit))
	}
	return fmt.Sprintf("bashbox: budget exceeded: %s (limit %d)", t.Name, t.Limit)
}

// ExitCode is the status a tripped budget gives the script: 124 for time,
// as timeout(1) does, 125 for the others.
func (t *Trip) ExitCode() int {
	if t.Name == BudgetTime {
		return 124
	}
	return 125
}

// Budget tracks one call's consumption. It is shared by every subshell and
// pipeline stage of the call, so it is safe for concurrent use.
type Budget struct {
	Limits Limits
	cancel context.CancelFunc

	commands atomic.Int64
	buffered atomic.Int64 // bytes held in command-substitution buffers
	held     atomic.Int64 // bytes commands charged (builtins.Memory)

	// Measuring the variables walks all of them, so it is done every
	// memCheckCommands commands or memCheckInterval, whichever comes
	// first: between two measurements variables can grow only by what
	// the interpreter copies in that time.
	memUnchecked atomic.Int64
	memCheckedAt atomic.Int64 // UnixNano

	mu      sync.Mutex
	tripped *Trip
	loops   map[int]int64
}

// NewBudget returns a budget that cancels the call through cancel when it
// trips.
func NewBudget(l Limits, cancel context.CancelFunc) *Budget {
	return &Budget{Limits: l, cancel: cancel, loops: map[int]int64{}}
}

// Trip records that a budget ran out and stops the call. The first trip
// wins.
func (b *Budget) Trip(name string, limit int64) {
	b.mu.Lock()
	if b.tripped == nil {
		b.tripped = &Trip{Name: name, Limit: limit}
	}
	b.mu.Unlock()
	b.cancel()
}

// Tripped reports the budget that stopped the call, or nil.
func (b *Budget) Tripped() *Trip {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tripped
}

// Commands reports how many commands were dispatched.
func (b *Budget) Commands() int64 { return b.commands.Load() }

// command counts one dispatched command; false means the budget is spent.
func (b *Budget) command() bool {
	n := b.commands.Add(1)
	if max := b.Limits.MaxCommands; max > 0 && n > max {
		b.Trip(BudgetCommands, max)
		return false
	}
	return true
}

func (b *Budget) loopEnter(id int) {
	b.mu.Lock()
	b.loops[id] = 0
	b.mu.Unlock()
}

func (b *Budget) loopIter(id int) bool {
	b.mu.Lock()
	b.loops[id]++
	n := b.loops[id]
	b.mu.Unlock()
	if max := b.Limits.MaxLoopIterations; max > 0 && n > max {
		b.Trip(BudgetLoop, max)
		return false
	}
	return true
}

const (
	memCheckCommands = 64
	memCheckInterval = time.Millisecond
)

// memoryCheckDue reports whether the variables should be measured now.
func (b *Budget) memoryCheckDue() bool {
	if b.Limits.MaxMemoryBytes <= 0 {
		return false
	}
	now := time.Now().UnixNano()
	if b.memUnchecked.Add(1) < memCheckCommands && now-b.memCheckedAt.Load() < int64(memCheckInterval) {
		return false
	}
	b.memUnchecked.Store(0)
	b.memCheckedAt.Store(now)
	return true
}

// checkMemory trips the memory budget when used bytes exceed it.
func (b *Budget) checkMemory(used int64) bool {
	if max := b.Limits.MaxMemoryBytes; max > 0 && used+b.buffered.Load()+b.held.Load() > max {
		b.Trip(BudgetMemory, max)
		return false
	}
	return true
}

// bufferedWriter counts bytes written into an in-memory buffer of the
// interpreter (command substitution) against the memory budget.
type bufferedWriter struct {
	w interface{ Write([]byte) (int, error) }
	b *Budget
}

var errMemory = fmt.Errorf("memory budget exceeded")

func (bw *bufferedWriter) Write(p []byte) (int, error) {
	n := bw.b.buffered.Add(int64(len(p)))
	if max := bw.b.Limits.MaxMemoryBytes; max > 0 && n > max {
		bw.b.Trip(BudgetMemory, max)
		return 0, errMemory
	}
	return bw.w.Write(p)
}

// Account is one command's share of the memory budget (builtins.Memory):
// what the command charges counts against the call's budget until the
// command returns and Release gives it back.
type Account struct {
	b    *Budget
	held atomic.Int64
}

// Account opens an account for one command.
func (b *Budget) Account() *Account { return &Account{b: b} }

// Grow charges n bytes, tripping the memory budget past its limit.
func (a *Account) Grow(n int64) error {
	a.held.Add(n)
	total := a.b.held.Add(n)
	if max := a.b.Limits.MaxMemoryBytes; max > 0 && total+a.b.buffered.Load() > max {
		a.b.Trip(BudgetMemory, max)
		return builtins.ErrMemory
	}
	return nil
}

// Shrink gives back n bytes charged earlier.
func (a *Account) Shrink(n int64) {
	a.held.Add(-n)
	a.b.held.Add(-n)
}

// Release gives back everything charged to the account.
func (a *Account) Release() { a.b.held.Add(-a.held.Swap(0)) }
