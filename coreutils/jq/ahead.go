package jq

import (
	"context"
	"slices"

	"github.com/bashbox/bashbox/builtins"
)

// Decoding ahead. On a stream of small records jq spends about a fifth of
// its time decoding them. When the call may use a second CPU, a helper
// goroutine decodes a source's values ahead of the filter, in batches,
// while the filter runs on the values before them.
//
// Nothing the user sees changes:
//   - values are handed over in order;
//   - a parse error comes after every value before it, as the value that
//     ends the source;
//   - the key order of each object is recorded when its value is handed
//     over, exactly as the decoder would have recorded it in line. The
//     keyOrder is the filter's and is never touched by the helper.
//
// The whole source is already in memory, so the helper only turns bytes
// into values early. What it holds ahead stays small: at most batchesHeld
// batches of about batchBytes of input each. A value of more than
// batchBytes ends the helper's work instead: the rest of the source, from
// that value on, is decoded in line, as it would be without the helper,
// so that a stream of big documents never has several decoded at once.
const (
	aheadMin    = 64 << 10 // smaller sources are decoded in line
	batchBytes  = 32 << 10 // a batch ends after this much input
	batchValues = 256      // or after this many values
	batchesHeld = 4        // batches decoded and not yet taken
)

// orderRec is an object's key order, recorded when its value is taken.
type orderRec struct {
	m    map[string]any
	keys []string
}

// deferRecord notes obj's key order for the filter's side (deferred mode).
// Keys equal to the last object's are passed as that same slice, which is
// never changed once handed over, so the decoder can reuse its own.
func (d *decoder) deferRecord(obj map[string]any, keys []string) {
	if len(keys) >= 2 && slices.Equal(keys, d.last) {
		d.recs = append(d.recs, orderRec{obj, d.last})
		d.keyBuf = keys
		return
	}
	d.recs = append(d.recs, orderRec{obj, keys})
	if len(keys) >= 2 {
		d.last = keys
	}
}

// decoded is one value, or the parse error that ends its source.
type decoded struct {
	v    any
	err  error
	end  int // the decoder's offset after the value, or at the error
	recs int // the end of the value's order records in its batch
}

type batch struct {
	vals []decoded
	recs []orderRec
}

type ahead struct {
	batches chan *batch
	stop    chan struct{} // closed by close: the helper stops
	// resume, once batches is closed, is where the source goes on in line
	// (a big value starts there), or -1 at its end.
	resume int
	g      builtins.Group
	cur    *batch
	i, rec int
}

func newAhead() *ahead {
	return &ahead{batches: make(chan *batch, batchesHeld), stop: make(chan struct{}), resume: -1}
}

// startAhead starts decoding data.
func startAhead(ctx context.Context, data []byte) *ahead {
	a := newAhead()
	d := &decoder{data: data, deferred: true}
	a.g.Go(func() {
		defer close(a.batches)
		for !a.stopping() {
			b, last := &batch{}, false
			start := d.pos
			for len(b.vals) < batchValues && d.pos-start < batchBytes && !a.stopping() {
				if !d.more() {
					last = true
					break
				}
				from, recs := d.pos, len(d.recs)
				v, err := d.next()
				if err == nil && d.pos-from > batchBytes {
					// Dropped: decoded again in line, with the rest.
					a.resume, d.recs = from, d.recs[:recs]
					last = true
					break
				}
				b.vals = append(b.vals, decoded{v: v, err: err, end: d.pos, recs: len(d.recs)})
				if err != nil {
					last = true
					break
				}
			}
			b.recs, d.recs = d.recs, nil
			if len(b.vals) > 0 {
				select {
				case a.batches <- b:
				case <-a.stop:
					return
				case <-ctx.Done():
					return
				}
			}
			if last {
				return
			}
		}
	})
	return a
}

// next takes the next value, recording its objects' key orders in o.
// When the helper is done it waits for it, so that a panic there is
// raised here, in the command's goroutine, and reports false with the
// offset where the source goes on in line (-1: at its end).
func (a *ahead) next(o *keyOrder) (decoded, int, bool) {
	for a.cur == nil || a.i == len(a.cur.vals) {
		b, ok := <-a.batches
		if !ok {
			a.close()
			return decoded{}, a.resume, false
		}
		a.cur, a.i, a.rec = b, 0, 0
	}
	it := a.cur.vals[a.i]
	a.i++
	for ; a.rec < it.recs; a.rec++ {
		r := a.cur.recs[a.rec]
		o.record(r.m, r.keys)
	}
	return it, -1, true
}

func (a *ahead) stopping() bool {
	select {
	case <-a.stop:
		return true
	default:
		return false
	}
}

// close stops the helper and waits for it to end; again, it does nothing.
func (a *ahead) close() {
	if a.stopping() {
		return
	}
	close(a.stop)
	a.g.Wait()
}
