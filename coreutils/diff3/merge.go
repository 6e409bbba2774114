package diff3

import (
	"context"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
)

// Kinds of three-way blocks, named by the file that differs.
const (
	kindAll   = iota // all three differ ("====")
	kindMine         // only MINE changed ("====1")
	kindOlder        // both made the same change ("====2")
	kindYours        // only YOURS changed ("====3")
)

// rng is a 1-based inclusive line range; hi = lo-1 when empty.
type rng struct{ lo, hi int }

// hunk is a two-way change between the common file and another.
type hunk struct{ common, other rng }

// block is a three-way difference: ranges in mine, older and yours.
type block struct {
	kind int
	r    [3]rng // 0 mine, 1 older, 2 yours
}

// twoWay lists the changes between other and common, as diff does when
// diff3 runs "diff OTHER COMMON".
func twoWay(ctx context.Context, other, common *gnudiff.File, opt gnudiff.Options) ([]hunk, error) {
	script, err := gnudiff.Compare(ctx, other, common, opt)
	if err != nil {
		return nil, err
	}
	hs := make([]hunk, 0, len(script))
	for _, ch := range script {
		hs = append(hs, hunk{
			common: rng{ch.Line1 + 1, ch.Line1 + ch.Inserted},
			other:  rng{ch.Line0 + 1, ch.Line0 + ch.Deleted},
		})
	}
	return hs, nil
}

// threeWay merges the changes older->mine (d0) and older->yours (d1)
// into blocks: changes that overlap or touch in the common file join.
func threeWay(d0, d1 []hunk, lines [3]*gnudiff.File) []block {
	var out []block
	// last maps common lines to the other files after the previous block.
	lastHi := [3]int{0, 0, 0}
	threads := [2][]hunk{d0, d1}
	for len(threads[0]) > 0 || len(threads[1]) > 0 {
		base := 0
		switch {
		case len(threads[0]) == 0:
			base = 1
		case len(threads[1]) == 0:
			base = 0
		case threads[0][0].common.lo > threads[1][0].common.lo:
			base = 1
		}
		var using [2][]hunk
		high := base
		mark := threads[base][0].common.hi
		using[base] = append(using[base], threads[base][0])
		threads[base] = threads[base][1:]
		other := high ^ 1
		for len(threads[other]) > 0 && threads[other][0].common.lo <= mark+1 {
			h := threads[other][0]
			using[other] = append(using[other], h)
			threads[other] = threads[other][1:]
			if mark < h.common.hi {
				high ^= 1
				mark = h.common.hi
			}
			other = high ^ 1
		}
		lowc := using[base][0].common.lo
		highc := mark
		var b block
		b.r[1] = rng{lowc, highc}
		for d := 0; d < 2; d++ {
			f := 2 * d // mine is 0, yours is 2
			if len(using[d]) > 0 {
				first, last := using[d][0], using[d][len(using[d])-1]
				b.r[f] = rng{lowc - first.common.lo + first.other.lo, highc - last.common.hi + last.other.hi}
			} else {
				b.r[f] = rng{lowc - lastHi[1] + lastHi[f], highc - lastHi[1] + lastHi[f]}
			}
		}
		switch {
		case len(using[0]) == 0:
			b.kind = kindYours
		case len(using[1]) == 0:
			b.kind = kindMine
		case sameLines(lines[0], b.r[0], lines[2], b.r[2]):
			b.kind = kindOlder
		default:
			b.kind = kindAll
		}
		for f := 0; f < 3; f++ {
			lastHi[f] = b.r[f].hi
		}
		out = append(out, b)
	}
	return out
}

func sameLines(a *gnudiff.File, ra rng, b *gnudiff.File, rb rng) bool {
	if ra.hi-ra.lo != rb.hi-rb.lo {
		return false
	}
	for i := 0; i <= ra.hi-ra.lo; i++ {
		if string(a.Line(ra.lo-1+i)) != string(b.Line(rb.lo-1+i)) {
			return false
		}
	}
	return true
}
