// Package timeout implements timeout: run a command with a time limit.
//
// Signals are modelled by cancelling the command's context with a
// procutil.Signal cause: commands return 128 plus the signal number when
// they stop. A command that does not watch its context cannot be killed:
// with -s KILL or -k, timeout returns 137 at once and the command stops
// whenever it next checks its context.
package timeout

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{
	{Short: 'k', Long: "kill-after", Arg: builtins.RequiredArg},
	{Short: 's', Long: "signal", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "verbose"},
	{Long: "foreground"},
	{Long: "preserve-status"},
	{Long: "help"},
	{Long: "version"},
}}

const (
	exitTimedOut = 124
	exitCanceled = 125
)

// Run starts the command through c.Exec with a context that is cancelled
// (with the chosen signal as cause) when DURATION elapses.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", exitCanceled)
	}
	sig := &procutil.Signal{Num: 15, Name: "TERM"}
	var killAfter float64
	preserve, verbose := false, false
	for _, o := range opts {
		switch o.Key {
		case "kill-after":
			v, ok := procutil.ParseInterval(o.Value)
			if !ok {
				c.Errorf("invalid time interval %s", quote.New(c).Q(o.Value))
				return tryHelp(c)
			}
			killAfter = v
		case "signal":
			s, ok := procutil.ParseSignal(o.Value)
			if !ok {
				c.Errorf("%s: invalid signal", quote.New(c).Q(o.Value))
				return tryHelp(c)
			}
			sig = s
		case "preserve-status":
			preserve = true
		case "verbose":
			verbose = true
		case "foreground":
		case "help":
			help(c)
			return 0
		case "version":
			return c.Version()
		}
	}
	if len(operands) < 2 {
		return tryHelp(c)
	}
	limit, ok := procutil.ParseInterval(operands[0])
	if !ok {
		c.Errorf("invalid time interval %s", quote.New(c).Q(operands[0]))
		return tryHelp(c)
	}
	argv := operands[1:]

	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type result struct {
		status  int
		failure procutil.ExecFailure
	}
	done := make(chan result, 1)
	sub := c.Sub(argv)
	// A process timeout kills says nothing after the signal; the command
	// stopped here may still report the cancellation it met (an open of a
	// FIFO that ended with the context), so its later messages are dropped.
	sub.Stderr = &untilCancelled{w: c.Stderr, ctx: cctx}
	go func() {
		status, failure := procutil.Exec(cctx, c, sub)
		done <- result{status, failure}
	}()

	var timer <-chan time.Time
	if d, ok := duration(limit); ok {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	timedOut := false
	var kill <-chan time.Time
	for {
		select {
		case r := <-done:
			if r.failure != procutil.Ran {
				c.Errorf("failed to run command %s: %s", quote.New(c).Q(argv[0]), r.failure.Text())
				return r.status
			}
			if timedOut && !preserve {
				return exitTimedOut
			}
			return r.status
		case <-timer:
			timer = nil
			timedOut = true
			if verbose {
				c.Errorf("sending signal %s to command %s", sig.Name, quote.New(c).Q(argv[0]))
			}
			if sig.Num == 9 {
				// KILL reaches timeout itself too.
				cancel(sig)
				return 128 + 9
			}
			if sig.Num != 0 {
				cancel(sig)
			}
			if d, ok := duration(killAfter); ok {
				t := time.NewTimer(d)
				defer t.Stop()
				kill = t.C
			}
		case <-kill:
			if verbose {
				c.Errorf("sending signal KILL to command %s", quote.New(c).Q(argv[0]))
			}
			cancel(&procutil.Signal{Num: 9, Name: "KILL"})
			return 128 + 9
		}
	}
}

// duration converts seconds to a timer duration; zero means none.
func duration(secs float64) (time.Duration, bool) {
	if secs <= 0 {
		return 0, false
	}
	if math.IsInf(secs, 1) || secs >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64, true
	}
	d := time.Duration(secs * float64(time.Second))
	if d <= 0 {
		d = 1
	}
	return d, true
}

func tryHelp(c *builtins.Call) int {
	c.TryHelp(0)
	return exitCanceled
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, "Usage: %s [OPTION] DURATION COMMAND [ARG]...\n  or:  %s [OPTION]\n", c.Name(), c.Name())
	fmt.Fprint(c.Stdout, `Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals;
                   in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout
      --help        display this help and exit
      --version     output version information and exit

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.
The TERM signal kills any process that does not block or catch that signal.
It may be necessary to use the KILL signal, since this signal cannot be caught.

Exit status:
  124  if COMMAND times out, and --preserve-status is not specified
  125  if the timeout command itself fails
  126  if COMMAND is found but cannot be invoked
  127  if COMMAND cannot be found
  137  if COMMAND (or timeout itself) is sent the KILL signal (128+9)
  -    the exit status of COMMAND otherwise
`)
}

// untilCancelled passes writes to w until ctx is done, then drops them
// (reporting them written, as a closed terminal would not be noticed by
// a killed process either).
type untilCancelled struct {
	w   io.Writer
	ctx context.Context
}

func (u *untilCancelled) Write(p []byte) (int, error) {
	if u.ctx.Err() != nil {
		return len(p), nil
	}
	return u.w.Write(p)
}
