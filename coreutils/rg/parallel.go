package rg

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"sync"
)

// job is one file to search, or an error to report in its place.
type job struct {
	path     string
	explicit bool
	err      error
}

// result is what searching one file produced, replayed in walk order.
type result struct {
	out, errs bytes.Buffer
	s         search
	done      chan struct{}
}

// ahead bounds the files searched ahead of the one being written out.
const ahead = 16

// runJobs searches the files on up to four workers and writes their
// output in order, so that it is what a sequential search prints; only
// reading and matching overlap. Every goroutine ends before it returns.
func (s *search) runJobs(jobs []job) {
	workers := min(runtime.NumCPU(), 4)
	if len(jobs) < 2 || workers < 2 || s.quiet {
		workers = 1
	}
	results := make([]*result, len(jobs))
	for i := range results {
		results[i] = &result{done: make(chan struct{})}
	}
	next := make(chan int)
	stop := make(chan struct{})
	slots := make(chan struct{}, ahead)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(next)
		for i := range jobs {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s.runOne(jobs[i], results[i])
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	printedBefore := false
	for i := range jobs {
		r := results[i]
		<-r.done
		if r.s.printed && printedBefore {
			switch {
			case s.heading && !s.json:
				s.out.WriteByte('\n')
			case s.contextOn() && !s.json:
				s.out.WriteString("--\n")
			}
		}
		printedBefore = printedBefore || r.s.printed
		s.out.Write(r.out.Bytes())
		if r.errs.Len() > 0 {
			s.out.Flush()
			s.c.Stderr.Write(r.errs.Bytes())
		}
		s.matched = s.matched || r.s.matched
		s.errored = s.errored || r.s.errored
		s.searched += r.s.searched
		s.jsonStats.add(r.s.jsonStats)
		results[i] = nil
		<-slots
		if s.quiet && s.matched || s.ctx.Err() != nil {
			return
		}
	}
}

// runOne searches one file with a copy of the search writing to r.
func (s *search) runOne(j job, r *result) {
	defer close(r.done)
	fs := *s
	fs.out = bufio.NewWriter(&r.out)
	fs.errw = &r.errs
	fs.matched, fs.errored, fs.printed, fs.searched = false, false, false, 0
	fs.jsonStats = stats{}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(&r.errs, "rg: internal error: %v\n", p)
			fs.errored = true
		}
		fs.out.Flush()
		r.s = fs
	}()
	if j.err != nil {
		fs.fileErr(j.path, j.err)
		return
	}
	fs.searchFile(j.path, j.explicit)
}
