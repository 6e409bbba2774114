// Command conformance runs the differential suite and prints pass rates
// per command and in total.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bashbox/bashbox/conformance"
)

func main() {
	casesDir := flag.String("cases", "conformance/cases", "directory of .cases files")
	only := flag.String("run", "", "only cases whose command or title contains this")
	minRate := flag.Float64("min-rate", 0, "fail when the total pass rate (percent) is below this")
	expect := flag.String("expect", "", "the expected differences (one case ID per line): fail on any other failure, and on a listed case that passes")
	report := flag.String("report", "conformance/out/failures.txt", "where to write the failures")
	verbose := flag.Bool("v", false, "print each failure")
	jobs := flag.Int("j", runtime.NumCPU(), "cases run at once")
	flag.Parse()

	cases, err := conformance.LoadCases(*casesDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	var expected map[string]bool
	if *expect != "" {
		data, err := os.ReadFile(*expect)
		if err == nil {
			expected, err = conformance.ParseExpected(data)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %s: %v\n", *expect, err)
			os.Exit(2)
		}
	}
	if *only != "" {
		var kept []conformance.Case
		for _, c := range cases {
			if strings.Contains(c.Command, *only) || strings.Contains(c.Title, *only) {
				kept = append(kept, c)
			}
		}
		cases = kept
	}
	if _, err := conformance.Confinement(); err != nil {
		// As root an unconfined case could set the clock or the hostname.
		if os.Geteuid() == 0 && os.Getenv("BASHBOX_CONFORMANCE_UNCONFINED") == "" {
			fmt.Fprintf(os.Stderr, "conformance: %v; refusing to run cases as root unconfined (install bubblewrap, or set BASHBOX_CONFORMANCE_UNCONFINED=1)\n", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "conformance: warning: %v; the reference bash runs unconfined\n", err)
	}
	base, err := conformance.BaseDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(base)

	results := make([]conformance.Result, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < *jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				dir := filepath.Join(base, fmt.Sprint(i))
				results[i] = conformance.RunCase(context.Background(), cases[i], dir, 10*time.Second)
				os.RemoveAll(dir)
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()

	type tally struct{ pass, total int }
	per := map[string]*tally{}
	var pass int
	var failures strings.Builder
	for _, r := range results {
		t := per[r.Case.Command]
		if t == nil {
			t = &tally{}
			per[r.Case.Command] = t
		}
		t.total++
		if r.Pass {
			t.pass++
			pass++
			continue
		}
		fmt.Fprintf(&failures, "--- %s:%d %s: %s\n(id: %s)\n%s\n%s\n", r.Case.File, r.Case.Line, r.Case.Command, r.Case.Title, r.Case.ID(), r.Case.Script, r.Diff)
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Printf("%-14s %7s %7s %8s\n", "command", "passed", "cases", "rate")
	for _, n := range names {
		t := per[n]
		fmt.Printf("%-14s %7d %7d %7.1f%%\n", n, t.pass, t.total, 100*float64(t.pass)/float64(t.total))
	}
	rate := 100.0
	if len(results) > 0 {
		rate = 100 * float64(pass) / float64(len(results))
	}
	fmt.Printf("%-14s %7d %7d %7.1f%%\n", "TOTAL", pass, len(results), rate)
	if *report != "" {
		os.MkdirAll(filepath.Dir(*report), 0o755)
		os.WriteFile(*report, []byte(failures.String()), 0o644)
		if failures.Len() > 0 {
			fmt.Printf("failures written to %s\n", *report)
		}
	}
	if *verbose {
		fmt.Print(failures.String())
	}
	if expected != nil {
		if problems := conformance.Gate(results, expected, *only == ""); len(problems) > 0 {
			fmt.Printf("FAIL: %d differences from %s:\n  %s\n", len(problems), *expect, strings.Join(problems, "\n  "))
			os.Exit(1)
		}
		fmt.Printf("every failure is an expected difference (%d listed in %s)\n", len(expected), *expect)
	}
	if rate < *minRate {
		fmt.Printf("FAIL: pass rate %.1f%% is below the minimum %.1f%%\n", rate, *minRate)
		os.Exit(1)
	}
}
