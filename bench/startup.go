package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Startup is what one fresh `bashbox run -c true` costs next to one
// `bash -c true`, launched in pairs: bash is the shell agents' tool calls
// stand for, whatever --host-shell the table compares with (/bin/sh is
// often dash, which starts faster than bash).
type Startup struct {
	Launches int `json:"launches"`
	// Via says how the CLI ran: "daemon" (the launcher handed the runs
	// to a bashbox daemon, whose CPU time is included) or "" (alone).
	Via string `json:"via,omitempty"`
	// Per launch, in ms: wall time, and CPU time (user+sys, from wait4),
	// which machine load disturbs less.
	BashboxWallMs float64 `json:"bashbox_wall_ms"`
	BashboxCPUMs  float64 `json:"bashbox_cpu_ms"`
	BashWallMs    float64 `json:"bash_wall_ms"`
	BashCPUMs     float64 `json:"bash_cpu_ms"`
}

// WallRatio and CPURatio are bashbox's start-up over bash's.
func (s *Startup) WallRatio() float64 { return s.BashboxWallMs / s.BashWallMs }
func (s *Startup) CPURatio() float64  { return s.BashboxCPUMs / max(s.BashCPUMs, 1e-3) }

// StartupConfig is how MeasureStartup launches the CLI: Env is added to
// its environment and ExtraCPU, when set, is the clock of the daemon that
// serves it, whose CPU time counts as the launch's.
type StartupConfig struct {
	Env      []string
	ExtraCPU func() time.Duration
	Via      string
}

// MeasureStartup launches `exe run -c true` and `bash -c true` n times
// each, alternating so that load hits both alike, after one warm-up pair.
func MeasureStartup(ctx context.Context, exe, bash string, n int, sc StartupConfig) (*Startup, error) {
	if exe == "" {
		return nil, fmt.Errorf("measuring start-up: no bashbox binary to run")
	}
	launch := func(env []string, extra func() time.Duration, argv ...string) (wall, cpu time.Duration, err error) {
		o := measured(extra, func() Outcome {
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}, env...)
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			start := time.Now()
			if runErr := cmd.Run(); runErr != nil {
				err = fmt.Errorf("measuring start-up: %s: %v", strings.Join(argv, " "), runErr)
				return Outcome{}
			}
			return Outcome{Took: time.Since(start), CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
		})
		return o.Took, o.CPU, err
	}
	var sums [4]time.Duration // bashbox wall, cpu, bash wall, cpu
	for i := -1; i < n; i++ {
		w1, c1, err := launch(sc.Env, sc.ExtraCPU, exe, "run", "-c", "true")
		if err != nil {
			return nil, err
		}
		w2, c2, err := launch(nil, nil, bash, "-c", "true")
		if err != nil {
			return nil, err
		}
		if i >= 0 {
			sums[0], sums[1], sums[2], sums[3] = sums[0]+w1, sums[1]+c1, sums[2]+w2, sums[3]+c2
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(max(n, 1)) / 1e6 }
	return &Startup{Launches: n, Via: sc.Via, BashboxWallMs: ms(sums[0]), BashboxCPUMs: ms(sums[1]), BashWallMs: ms(sums[2]), BashCPUMs: ms(sums[3])}, nil
}

func (s *Startup) text() string {
	via := ""
	if s.Via == "daemon" {
		via = " (through the daemon, its CPU time included)"
	} else if s.Via != "" {
		via = " (" + s.Via + ")"
	}
	return fmt.Sprintf("start-up: `bashbox run -c true`"+via+" %.1f ms wall, %.1f ms CPU; `bash -c true` %.1f ms wall, %.1f ms CPU: %.2fx bash by wall, %.2fx by CPU (%d paired launches)",
		s.BashboxWallMs, s.BashboxCPUMs, s.BashWallMs, s.BashCPUMs, s.WallRatio(), s.CPURatio(), s.Launches)
}
