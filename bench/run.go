package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// Outcome is one run of one op.
type Outcome struct {
	Stdout string
	Exit   int
	Took   time.Duration
	// CPU is the user+system time the op cost: the host shell's and what
	// it waited for (wait4), or the bench process's own for an in-process
	// run. Wall time on a shared machine says as much about the neighbours.
	CPU time.Duration
}

// Runner runs op scripts somewhere.
type Runner interface {
	Name() string
	Run(ctx context.Context, op Op, root string) Outcome
}

// HostShell runs scripts with a host shell and the machine's tools.
type HostShell struct{ Path string }

func (h HostShell) Name() string { return h.Path }

func (h HostShell) Run(ctx context.Context, op Op, root string) Outcome {
	return launch(op, func() Outcome { return runCommand(ctx, exec.CommandContext(ctx, h.Path, "-c", op.Script), root) })
}

// launch runs one outcome, or op.Launches of them in a row for a start-up
// op: their times add up, the last one's output stands for all.
func launch(op Op, run func() Outcome) Outcome {
	n := max(op.Launches, 1)
	var total, cpu time.Duration
	var o Outcome
	for range n {
		o = run()
		total += o.Took
		cpu += o.CPU
		if o.Exit != 0 {
			break
		}
	}
	o.Took, o.CPU = total, cpu
	return o
}

// Peer runs scripts through an operator-given command template with
// {root} and {script} placeholders.
type Peer struct {
	Label, Template string
}

func (p Peer) Name() string { return p.Label }

func (p Peer) Run(ctx context.Context, op Op, root string) Outcome {
	cmdline := strings.NewReplacer("{root}", shellQuote(root), "{script}", shellQuote(op.Script)).Replace(p.Template)
	return launch(op, func() Outcome { return runCommand(ctx, exec.CommandContext(ctx, "/bin/sh", "-c", cmdline), root) })
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func runCommand(ctx context.Context, cmd *exec.Cmd, root string, env ...string) Outcome {
	tmp, err := os.MkdirTemp("", "bench-run-")
	if err != nil {
		return Outcome{Exit: -1}
	}
	defer os.RemoveAll(tmp)
	cmd.Dir = root
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "TMPDIR=" + tmp, "LC_ALL=C", "LANG=C"}, env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	start := time.Now()
	err = cmd.Run()
	o := Outcome{Stdout: out.String(), Took: time.Since(start)}
	if cmd.ProcessState != nil {
		o.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ee, ok := err.(*exec.ExitError); ok {
		o.Exit = ee.ExitCode()
	} else if err != nil {
		o.Exit = -1
	}
	return o
}

// Bashbox runs scripts in-process with the corpus as a read-only volume.
// Start-up ops (Launches > 0) run the CLI at Exe instead, as an agent's
// tool call would: `Exe run -v ROOT:/work:ro -c SCRIPT`.
type Bashbox struct {
	box *bashbox.Box
	Exe string // the bashbox binary; start-up ops fail without it
	// Env is added to the environment of Exe's launches (BASHBOX_SOCKET);
	// ExtraCPU, when set, is a clock of CPU time spent for them in
	// another process (the daemon), added to their CPU figures.
	Env      []string
	ExtraCPU func() time.Duration
}

// NewBashbox opens a box over root.
func NewBashbox(root string) (*Bashbox, error) {
	box, err := bashbox.New(bashbox.Config{
		Volumes: []volumes.Volume{{HostDir: root, GuestPath: "/work", Mode: volumes.ReadOnly}},
		Env:     []string{"LC_ALL=C"},
		Limits: bashbox.Limits{Timeout: 10 * time.Minute, MaxCommands: 10_000_000, MaxLoopIterations: 10_000_000,
			MaxOutputBytes: 1 << 30, MaxMemoryBytes: 8 << 30, MaxOverlayBytes: 8 << 30, MaxOverlayFiles: 10_000_000},
	})
	if err != nil {
		return nil, err
	}
	return &Bashbox{box: box}, nil
}

func (b *Bashbox) Name() string { return "bashbox" }

func (b *Bashbox) Close() error { return b.box.Close() }

func (b *Bashbox) Run(ctx context.Context, op Op, root string) Outcome {
	if op.Launches > 0 {
		if b.Exe == "" {
			return Outcome{Exit: -1}
		}
		return launch(op, func() Outcome {
			return measured(b.ExtraCPU, func() Outcome {
				return runCommand(ctx, exec.CommandContext(ctx, b.Exe, "run", "-v", root+":/work:ro", "-c", op.Script), root, b.Env...)
			})
		})
	}
	start, cpu := time.Now(), selfCPU()
	res, err := b.box.Run(ctx, bashbox.Request{Script: op.Script})
	o := Outcome{Took: time.Since(start), CPU: selfCPU() - cpu}
	if err != nil {
		o.Exit = -1
		return o
	}
	o.Stdout, o.Exit = res.Stdout, res.ExitCode
	return o
}

// Config is one bench run.
type Config struct {
	Root     string
	Ops      []Op
	Runners  []Runner // the first is the baseline (the host shell), bashbox second
	Reps     int
	Progress io.Writer
}

// OpResult is the outcome of one op across runners.
type OpResult struct {
	Name    string             `json:"name"`
	Medians map[string]float64 `json:"median_ms"`
	Ratio   float64            `json:"ratio"` // second runner / first
	// CPUMedians and CPURatio are the same for CPU time (Outcome.CPU).
	CPUMedians map[string]float64 `json:"median_cpu_ms"`
	CPURatio   float64            `json:"cpu_ratio"`
	Identical  map[string]bool    `json:"identical"`
	Outputs    map[string]string  `json:"-"`
}

// Report is a whole run.
type Report struct {
	Corpus  string             `json:"corpus"`
	Reps    int                `json:"reps"`
	Runners []string           `json:"runners"`
	Ops     []OpResult         `json:"ops"`
	Totals  map[string]float64 `json:"total_ms"`
	// GeoMeans is, per runner after the first, the geometric mean of its
	// per-op ratios to the first: unlike the total, one long op cannot
	// hide that most ops are slower.
	GeoMeans map[string]float64 `json:"geomean_ratio"`
	// Memory is filled by MeasureMemory when the run measures it.
	Memory *Memory `json:"memory,omitempty"`
	// Startup is filled by MeasureStartup: start-up against bash itself,
	// through the daemon when the bench ran one; StartupCold then is the
	// same without it.
	Startup     *Startup  `json:"startup_vs_bash,omitempty"`
	StartupCold *Startup  `json:"startup_cold_vs_bash,omitempty"`
	Started     time.Time `json:"started"`
	Machine     string    `json:"machine"` // where it ran: OS/arch, CPUs, Go version
}

// Run times every op on every runner: one warm-up, then Reps interleaved
// repetitions (A B A B), keeping medians.
func Run(ctx context.Context, cfg Config) *Report {
	rep := &Report{Corpus: cfg.Root, Reps: cfg.Reps, Totals: map[string]float64{}, Started: time.Now(),
		Machine: machine()}
	for _, r := range cfg.Runners {
		rep.Runners = append(rep.Runners, r.Name())
	}
	for i, op := range cfg.Ops {
		res := OpResult{Name: op.Name, Medians: map[string]float64{}, CPUMedians: map[string]float64{}, Identical: map[string]bool{}, Outputs: map[string]string{}}
		times, cpus := map[string][]float64{}, map[string][]float64{}
		first := map[string]Outcome{}
		for rep := -1; rep < cfg.Reps; rep++ {
			for _, r := range cfg.Runners {
				if cfg.Progress != nil {
					fmt.Fprintf(cfg.Progress, "\r\033[K[%d/%d] %-16s %-10s run %d/%d", i+1, len(cfg.Ops), op.Name, r.Name(), rep+2, cfg.Reps+1)
				}
				o := r.Run(ctx, op, cfg.Root)
				if rep < 0 {
					first[r.Name()] = o
					continue
				}
				times[r.Name()] = append(times[r.Name()], float64(o.Took.Microseconds())/1000)
				cpus[r.Name()] = append(cpus[r.Name()], float64(o.CPU.Microseconds())/1000)
			}
		}
		base := first[cfg.Runners[0].Name()]
		for _, r := range cfg.Runners {
			m := median(times[r.Name()])
			res.Medians[r.Name()] = m
			res.CPUMedians[r.Name()] = median(cpus[r.Name()])
			rep.Totals[r.Name()] += m
			o := first[r.Name()]
			res.Identical[r.Name()] = o.Stdout == base.Stdout && o.Exit == base.Exit
			res.Outputs[r.Name()] = fmt.Sprintf("exit %d\n%s", o.Exit, o.Stdout)
		}
		if len(cfg.Runners) > 1 && res.Medians[cfg.Runners[0].Name()] > 0 {
			res.Ratio = res.Medians[cfg.Runners[1].Name()] / res.Medians[cfg.Runners[0].Name()]
		}
		if len(cfg.Runners) > 1 && res.CPUMedians[cfg.Runners[0].Name()] > 0 {
			res.CPURatio = res.CPUMedians[cfg.Runners[1].Name()] / res.CPUMedians[cfg.Runners[0].Name()]
		}
		rep.Ops = append(rep.Ops, res)
	}
	if cfg.Progress != nil {
		fmt.Fprint(cfg.Progress, "\r\033[K")
	}
	rep.GeoMeans = map[string]float64{}
	for _, r := range rep.Runners[min(1, len(rep.Runners)):] {
		rep.GeoMeans[r] = rep.geoMean(r)
	}
	return rep
}

func median(ts []float64) float64 {
	slices.Sort(ts)
	m := ts[len(ts)/2]
	if len(ts)%2 == 0 {
		m = (ts[len(ts)/2-1] + ts[len(ts)/2]) / 2
	}
	return m
}

// selfCPU is the user+system time this process has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machine names where a report was measured: the CPU model where the OS
// says it, OS/arch, CPU count and Go version.
func machine() string {
	m := fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v) + ", " + m
		}
	}
	return m
}
