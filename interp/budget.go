package interp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bashbox/bashbox/builtins"
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
	// MaxNesting bounds function calls, eval, source, nested shells,
	// subshells and substitutions inside each other (native engine).
	MaxNesting int64
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
	BudgetNesting      = "nesting"
)

// defaultNesting bounds nesting when the limits leave it open: far below
// what would exhaust the Go stack.
const defaultNesting = 1000

// Trip says which budget stopped a script. Limit is in the budget's own
// unit: nanoseconds (a time.Duration) for the timeout, bytes for output,
// memory and overlay_bytes, a count for the others. In JSON the timeout's
// limit is in seconds (30, or 0.5), the unit people write and read.
type Trip struct {
	Name  string `json:"name"`
	Limit int64  `json:"limit"`
}

type tripJSON struct {
	Name  string      `json:"name"`
	Limit json.Number `json:"limit"`
}

// MarshalJSON writes {"name","limit"}, the timeout's limit in seconds.
func (t Trip) MarshalJSON() ([]byte, error) {
	limit := strconv.FormatInt(t.Limit, 10)
	if t.Name == BudgetTime {
		limit = strconv.FormatFloat(time.Duration(t.Limit).Seconds(), 'f', -1, 64)
	}
	return json.Marshal(tripJSON{Name: t.Name, Limit: json.Number(limit)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Trip) UnmarshalJSON(data []byte) error {
	var j tripJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	t.Name = j.Name
	if t.Name == BudgetTime {
		secs, err := j.Limit.Float64()
		if err != nil {
			return fmt.Errorf("budget limit %q: not a number of seconds", j.Limit)
		}
		t.Limit = int64(secs * float64(time.Second))
		return nil
	}
	n, err := j.Limit.Int64()
	if err != nil {
		return fmt.Errorf("budget limit %q: not a whole number", j.Limit)
	}
	t.Limit = n
	return nil
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

var errMemory = errors.New("Memory budget exceeded")

// Budget tracks one call's consumption. It is shared by every subshell and
// pipeline stage of the call, so it is safe for concurrent use.
type Budget struct {
	Limits Limits
	cancel context.CancelFunc
	// Pace, when set, is called at the call's checkpoints (statements,
	// loop iterations, commands, memory charges, pipe writes): it may
	// park the calling goroutine to give the processor to other calls.
	Pace func()
	// PaceBytes, when set, replaces Pace at a memory charge of n bytes
	// (a scheduler may slow down a call that takes on memory briskly).
	PaceBytes func(n int64)
	// Yield, when set, is a checkpoint that is not counted as work: a
	// command asking whether the call was cancelled (commandContext).
	Yield func()

	commands atomic.Int64

	// held is what the engine's variables and buffers, and the commands
	// running now (Account), hold.
	held atomic.Int64

	mu      sync.Mutex
	tripped *Trip
}

// NewBudget returns a budget that cancels the call through cancel when it
// trips.
func NewBudget(l Limits, cancel context.CancelFunc) *Budget {
	return &Budget{Limits: l, cancel: cancel}
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

// pace is a checkpoint of the call's work (see Budget.Pace).
func (b *Budget) pace() {
	if b != nil && b.Pace != nil {
		b.Pace()
	}
}

// commandContext is ctx for a command: its Err, which commands call
// every few milliseconds of work, is a checkpoint (Budget.Yield).
func (b *Budget) commandContext(ctx context.Context) context.Context {
	if b == nil || b.Yield == nil {
		return ctx
	}
	return yieldContext{ctx, b.Yield}
}

// yieldContext delegates everything to its Context, so contexts derived
// from it still hang on the call's own cancellation.
type yieldContext struct {
	context.Context
	yield func()
}

func (c yieldContext) Err() error {
	c.yield()
	return c.Context.Err()
}

// paceBytes is a checkpoint for n bytes charged: each 256 KiB counts as
// one more checkpoint's work, so that a call allocating briskly (a
// memory flood) yields like one looping briskly.
func (b *Budget) paceBytes(n int64) {
	if b != nil && b.PaceBytes != nil {
		b.PaceBytes(n)
		return
	}
	b.pace()
	if b != nil && b.Pace != nil {
		for k := n >> 18; k > 0; k-- {
			b.Pace()
		}
	}
}

// command counts one dispatched command; false means the budget is spent.
func (b *Budget) command() bool {
	b.pace()
	n := b.commands.Add(1)
	if max := b.Limits.MaxCommands; max > 0 && n > max {
		b.Trip(BudgetCommands, max)
		return false
	}
	return true
}

// charge counts n more bytes held by the script (n < 0 releases); false
// means the memory budget is spent and the call is stopping.
func (b *Budget) charge(n int64) bool {
	if b == nil {
		return true
	}
	b.paceBytes(n)
	h := b.held.Add(n)
	if max := b.Limits.MaxMemoryBytes; max > 0 && n > 0 && h > max {
		b.Trip(BudgetMemory, max)
		return false
	}
	return true
}

// fits reports whether n more bytes would stay within the memory budget,
// tripping it when not: checked before building a string of n bytes.
func (b *Budget) fits(n int64) bool {
	if b == nil {
		return true
	}
	if max := b.Limits.MaxMemoryBytes; max > 0 && b.held.Load()+n > max {
		b.Trip(BudgetMemory, max)
		return false
	}
	return true
}

// iteration checks one more iteration of a loop that has run n times.
func (b *Budget) iteration(n int64) bool {
	if b == nil {
		return true
	}
	b.pace()
	if max := b.Limits.MaxLoopIterations; max > 0 && n > max {
		b.Trip(BudgetLoop, max)
		return false
	}
	return true
}

func (b *Budget) nestingLimit() int {
	if b == nil || b.Limits.MaxNesting <= 0 {
		return defaultNesting
	}
	return int(b.Limits.MaxNesting)
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
	a.b.paceBytes(n)
	a.held.Add(n)
	total := a.b.held.Add(n)
	if max := a.b.Limits.MaxMemoryBytes; max > 0 && total > max {
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
