package jq

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// Reading the inputs: files and standard input, JSON texts, raw lines
// or --stream events, and where each was read for messages.

func (j *jq) readFile(name string) ([]byte, error) {
	f, err := j.c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, errors.New("is a directory")
	}
	return j.c.ReadAll(j.ctx, f)
}

func (j *jq) parseOne(text string) (any, error) {
	d := &decoder{data: []byte(text), order: j.order}
	v, err := d.next()
	if err != nil {
		return nil, err
	}
	if d.more() {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// openSource reads the current source, reporting a failure as jq does.
func (j *jq) openSource() ([]byte, bool) {
	s := j.srcs[j.cur]
	var data []byte
	var err error
	if s.path == "-" {
		data, err = j.c.ReadAll(j.ctx, j.c.Stdin)
	} else {
		data, err = j.readFile(s.path)
	}
	if err != nil {
		fmt.Fprintf(j.c.Stderr, "jq: error: Could not open file %s: %s\n", s.path, builtins.ErrText(err))
		j.inputErr = true
		return nil, false
	}
	return data, true
}

// Next is the input iterator shared by the main loop and input/inputs.
// It returns an error value on invalid input and stops.
func (j *jq) Next() (any, bool) {
	if !j.stream || j.rawIn {
		return j.next()
	}
	for len(j.events) == 0 {
		v, ok := j.next()
		if !ok {
			return nil, false
		}
		if _, isErr := v.(error); isErr {
			return v, true
		}
		j.events = j.streamEvents(nil, v, j.events[:0])
	}
	ev := j.events[0]
	j.events = j.events[1:]
	return ev, true
}

// streamEvents appends --stream's events for v at path p: [path, leaf]
// for each scalar or empty container, and [path] closing each non-empty
// container at its last element.
func (j *jq) streamEvents(p []any, v any, out []any) []any {
	at := func(k any) []any { return append(append(make([]any, 0, len(p)+1), p...), k) }
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			for i, el := range x {
				out = j.streamEvents(at(i), el, out)
			}
			return append(out, []any{at(len(x) - 1)})
		}
	case map[string]any:
		if len(x) > 0 {
			keys := j.order.keys(x, false)
			for _, k := range keys {
				out = j.streamEvents(at(k), x[k], out)
			}
			return append(out, []any{at(keys[len(keys)-1])})
		}
	}
	path := append([]any{}, p...)
	return append(out, []any{path, v})
}

// next reads the next input value.
func (j *jq) next() (any, bool) {
	if j.parseErr != nil {
		return nil, false
	}
	for {
		if j.dec == nil && j.lines == nil {
			if j.cur >= len(j.srcs) {
				return nil, false
			}
			data, ok := j.openSource()
			if !ok {
				j.cur++
				continue
			}
			if j.rawIn {
				j.lines = bufio.NewReader(bytes.NewReader(data))
				j.rawN = 0
			} else {
				j.dec = &decoder{data: data, order: j.order}
				if len(data) >= aheadMin && j.c.SearchWorkers() >= 2 {
					// j.dec then only keeps the position (see ahead.go).
					j.ahead = startAhead(j.ctx, data)
				}
			}
		}
		if j.ahead != nil {
			it, resume, ok := j.ahead.next(j.order)
			if !ok {
				j.ahead = nil
				if resume >= 0 {
					j.dec.pos = resume // a big value: the rest in line
				} else {
					j.dec = nil
					j.cur++
				}
				continue
			}
			j.posSet = true
			j.dec.pos = it.end
			if it.err != nil {
				j.parseErr = it.err
				return it.err, true
			}
			j.last = j.here()
			return it.v, true
		}
		if j.rawIn {
			line, err := j.lines.ReadString('\n')
			if line == "" && err != nil {
				j.lines = nil
				j.cur++
				continue
			}
			j.posSet = true
			if strings.HasSuffix(line, "\n") {
				j.rawN++
				line = line[:len(line)-1]
			}
			j.last = j.here()
			return line, true
		}
		if !j.dec.more() {
			j.dec = nil
			j.cur++
			continue
		}
		j.posSet = true
		v, err := j.dec.next()
		if err != nil {
			j.parseErr = err
			return err, true
		}
		j.last = j.here()
		return v, true
	}
}

// inputPos is where an input was read, kept as offsets: it is turned into
// jq's "FILE:LINE" only when a message needs it, not for every input.
type inputPos struct {
	set, raw bool
	src      int
	dec      *decoder // JSON input: the decoder and its offset after the value
	off      int
	rawN     int // raw input: lines read
}

// here is the position of the input just read.
func (j *jq) here() inputPos {
	p := inputPos{set: j.posSet, src: min(j.cur, len(j.srcs)-1)}
	switch {
	case j.dec != nil:
		p.dec, p.off = j.dec, j.dec.pos
	case j.lines != nil:
		p.raw, p.rawN = true, j.rawN
	default:
		p.set = false
	}
	return p
}

// position is jq's "(at FILE:LINE)" for error messages.
func (j *jq) position() string {
	if j.last.set {
		return j.format(j.last)
	}
	return j.format(j.here())
}

func (j *jq) format(p inputPos) string {
	if !p.set {
		return "<unknown>"
	}
	name := j.srcs[p.src].name
	if p.raw {
		return fmt.Sprintf("%s:%d", name, p.rawN)
	}
	return fmt.Sprintf("%s:%d", name, p.dec.lineAt(p.off))
}
