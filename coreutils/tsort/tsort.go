// Package tsort implements tsort: a topological sort of the partial order
// given as pairs of tokens, by Knuth's Algorithm T in the same order as
// GNU tsort (items are scanned in byte order of their names, successors
// most recent first), with GNU's loop reports.
package tsort

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"sort"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

type item struct {
	str     string
	count   int
	printed bool
	qlink   *item
	top     *successor
}

type successor struct {
	suc  *item
	next *successor
}

// Run sorts the pairs of a file or standard input.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION] [FILE]\n"+
		"Write totally ordered list consistent with the partial ordering in FILE.\n\n"+
		"With no FILE, or when FILE is -, read standard input.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if len(operands) > 1 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[1]))
		return c.TryHelp(1)
	}
	file := "-"
	if len(operands) == 1 {
		file = operands[0]
	}
	in, err := textio.Open(c, file)
	if err != nil {
		c.Errorf("%s: %s", utilcmd.F(c, file), builtins.ErrText(err))
		return 1
	}
	defer in.Close()
	if f, ok := in.(interface{ Stat() (fs.FileInfo, error) }); ok && file != "-" {
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			c.Errorf("%s: read error: Is a directory", utilcmd.F(c, file))
			return 1
		}
	}

	items := map[string]*item{}
	get := func(s string) *item {
		it := items[s]
		if it == nil {
			it = &item{str: s}
			items[s] = it
		}
		return it
	}
	br := bufio.NewReaderSize(in, textfmt.BufSize)
	var j *item
	var tok []byte
	var tick textfmt.Tick
	odd := false
	for {
		b, err := br.ReadByte()
		if err == nil && b != ' ' && b != '\t' && b != '\n' {
			tok = append(tok, b)
			continue
		}
		if len(tok) > 0 {
			k := get(string(tok))
			tok = tok[:0]
			if j != nil {
				if j.str != k.str {
					k.count++
					j.top = &successor{suc: k, next: j.top}
				}
				j, odd = nil, false
			} else {
				j, odd = k, true
			}
			if tick.Stop(ctx) {
				return 130
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			c.Errorf("%s: read error: %s", utilcmd.F(c, file), builtins.ErrText(err))
			return 1
		}
	}
	if odd {
		c.Errorf("%s: input contains an odd number of tokens", utilcmd.F(c, file))
		return 1
	}

	// The tree walk visits items in strcmp order.
	order := make([]*item, 0, len(items))
	for _, it := range items {
		order = append(order, it)
	}
	sort.Slice(order, func(a, b int) bool { return order[a].str < order[b].str })

	out := textfmt.NewOutput(c.Stdout)
	ok := true
	n := len(order)
	var loop *item
	for n > 0 {
		if ctx.Err() != nil {
			out.Flush()
			return 130
		}
		// T4: scan for zeros.
		var head, zeros *item
		for _, k := range order {
			if k.count == 0 && !k.printed {
				if head == nil {
					head = k
				} else {
					zeros.qlink = k
				}
				zeros = k
			}
		}
		for head != nil {
			out.WriteString(head.str)
			out.WriteByte('\n')
			head.printed = true
			n--
			for p := head.top; p != nil; p = p.next {
				p.suc.count--
				if p.suc.count == 0 {
					zeros.qlink = p.suc
					zeros = p.suc
				}
			}
			head = head.qlink
		}
		if n > 0 {
			c.Errorf("%s: input contains a loop:", utilcmd.F(c, file))
			ok = false
			for {
				loop = detectLoop(c, order, loop)
				if loop == nil {
					break
				}
			}
		}
	}
	st = 0
	if !ok {
		st = 1
	}
	return out.Finish(c, st)
}

// detectLoop walks the items once as GNU's detect_loop does: it follows
// predecessors from the first item still counted until it meets one
// twice, prints that loop, and removes one of its relations. It returns
// the loop state for the next walk (nil when a loop was removed).
func detectLoop(c *builtins.Call, order []*item, loop *item) *item {
	for _, k := range order {
		if k.count == 0 {
			continue
		}
		if loop == nil {
			loop = k
			continue
		}
		for p := &k.top; *p != nil; p = &(*p).next {
			if (*p).suc != loop {
				continue
			}
			if k.qlink != nil {
				for loop != nil {
					tmp := loop.qlink
					c.Errorf("%s", loop.str)
					if loop == k {
						s := *p
						s.suc.count--
						*p = s.next
						break
					}
					loop.qlink = nil
					loop = tmp
				}
				for loop != nil {
					tmp := loop.qlink
					loop.qlink = nil
					loop = tmp
				}
				return nil
			}
			k.qlink = loop
			loop = k
			break
		}
	}
	return loop
}
