// Package procutil holds helpers shared by the commands that run or wait
// for other commands and walk trees (find, xargs, env, timeout, sleep...):
// a writer safe for concurrent sub-commands, cancellation statuses, time
// interval parsing, signals, running sub-commands and file identity.
package procutil

import (
	"context"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

// LockedWriter serializes writes to W, so that sub-commands running in
// parallel may share it; each Write reaches W whole.
type LockedWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(p)
}

// Signal is the cause a command gives when it cancels a context to stop
// a sub-command, as a signal would (timeout sends TERM by default).
type Signal struct {
	Num  int
	Name string
}

func (s *Signal) Error() string { return "killed by signal " + s.Name }

// CancelStatus is the exit status for a command stopped because ctx was
// cancelled: 128 plus the signal number when the cause is a Signal,
// 128+SIGTERM otherwise.
func CancelStatus(ctx context.Context) int {
	var sig *Signal
	if errors.As(context.Cause(ctx), &sig) {
		return 128 + sig.Num
	}
	return 128 + 15
}

// ParseInterval reads a time interval as sleep and timeout take it: a
// floating-point number as C's strtod reads it (decimal or hexadecimal,
// "inf"), optionally followed by one of the suffixes s, m, h, d. It
// returns seconds.
func ParseInterval(s string) (float64, bool) {
	num := s
	mult := 1.0
	if n := len(num); n > 0 {
		switch num[n-1] {
		case 's':
			num = num[:n-1]
		case 'm':
			num, mult = num[:n-1], 60
		case 'h':
			num, mult = num[:n-1], 3600
		case 'd':
			num, mult = num[:n-1], 86400
		}
	}
	v, ok := ParseCFloat(num)
	if !ok || math.IsNaN(v) || v < 0 {
		return 0, false
	}
	return v * mult, true
}

// ParseCFloat parses s the way a full strtod conversion accepts it:
// leading white space, a sign, decimal or hexadecimal digits, "inf",
// "infinity" and "nan" in any case. All of s must be used.
func ParseCFloat(s string) (float64, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if s == "" || strings.ContainsAny(s, "_ ") {
		return 0, false
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, false
	}
	lb := strings.ToLower(body)
	if strings.HasPrefix(lb, "0x") && !strings.Contains(lb, "p") {
		if len(lb) == 2 {
			return 0, false
		}
		s += "p0"
	}
	switch lb {
	case "inf", "infinity", "nan":
	default:
		if lb == "" || strings.HasPrefix(lb, "in") || strings.HasPrefix(lb, "na") {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}
