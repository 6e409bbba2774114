package gnudiff

// The diagonal search: GNU diff's compareseq and diag (Myers's algorithm
// with its heuristics), splitting the files at a middle snake.

type partition struct {
	xmid, ymid           int
	loMinimal, hiMinimal bool
}

func (c *comparison) tick() bool {
	c.steps++
	if c.steps&1023 == 0 && c.ctx.Err() != nil {
		c.interrupted = true
	}
	return c.interrupted
}

func (c *comparison) compareseq(xoff, xlim, yoff, ylim int, minimal bool) {
	xv, yv := c.undisc[0], c.undisc[1]
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			c.changed[1][c.realIdx[1][yoff]+1] = true
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			c.changed[0][c.realIdx[0][xoff]+1] = true
		}
	default:
		if c.tick() {
			return
		}
		p := c.diag(xoff, xlim, yoff, ylim, minimal)
		c.compareseq(xoff, p.xmid, yoff, p.ymid, p.loMinimal)
		c.compareseq(p.xmid, xlim, p.ymid, ylim, p.hiMinimal)
	}
}

// diag finds the midpoint of the shortest edit script between
// xv[xoff:xlim] and yv[yoff:ylim], searching forward from the start and
// backward from the end until the searches overlap.
func (c *comparison) diag(xoff, xlim, yoff, ylim int, minimal bool) partition {
	xv, yv := c.undisc[0], c.undisc[1]
	fd, bd, o := c.fd, c.bd, c.doff
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	odd := (fmid-bmid)&1 != 0
	const offsetMax = 1<<31 - 1
	xs, ys := xv[:xlim:xlim], yv[:ylim:ylim]

	fd[fmid+o] = int32(xoff)
	bd[bmid+o] = int32(xlim)
	for cost := 1; ; cost++ {
		bigSnake := false
		if fmin > dmin {
			fmin--
			fd[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+o] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := int(fd[d-1+o]), int(fd[d+1+o])
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for uint(x) < uint(len(xs)) && uint(y) < uint(len(ys)) && xs[x] == ys[y] {
				x++
				y++
			}
			if x-x0 > snakeLimit {
				bigSnake = true
			}
			fd[d+o] = int32(x)
			if odd && bmin <= d && d <= bmax && int(bd[d+o]) <= x {
				return partition{x, y, true, true}
			}
		}

		if bmin > dmin {
			bmin--
			bd[bmin-1+o] = offsetMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+o] = offsetMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := int(bd[d-1+o]), int(bd[d+1+o])
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y {
				if uint(x-1) >= uint(len(xs)) || uint(y-1) >= uint(len(ys)) || xs[x-1] != ys[y-1] {
					break
				}
				x--
				y--
			}
			if x0-x > snakeLimit {
				bigSnake = true
			}
			bd[d+o] = int32(x)
			if !odd && fmin <= d && d <= fmax && x <= int(fd[d+o]) {
				return partition{x, y, true, true}
			}
		}

		if minimal {
			continue
		}

		if cost > 200 && bigSnake && c.opt.SpeedLargeFiles {
			best := 0
			var part partition
			for d := fmax; d >= fmin; d -= 2 {
				dd := d - fmid
				x := int(fd[d+o])
				y := x - d
				v := (x-xoff)*2 - dd
				if v > 12*(cost+abs(dd)) && v > best &&
					xoff+snakeLimit <= x && x < xlim && yoff+snakeLimit <= y && y < ylim {
					for k := 1; xv[x-k] == yv[y-k]; k++ {
						if k == snakeLimit {
							best = v
							part.xmid, part.ymid = x, y
							break
						}
					}
				}
			}
			if best > 0 {
				part.loMinimal, part.hiMinimal = true, false
				return part
			}
			best = 0
			for d := bmax; d >= bmin; d -= 2 {
				dd := d - bmid
				x := int(bd[d+o])
				y := x - d
				v := (xlim-x)*2 + dd
				if v > 12*(cost+abs(dd)) && v > best &&
					xoff < x && x <= xlim-snakeLimit && yoff < y && y <= ylim-snakeLimit {
					for k := 0; xv[x+k] == yv[y+k]; k++ {
						if k == snakeLimit-1 {
							best = v
							part.xmid, part.ymid = x, y
							break
						}
					}
				}
			}
			if best > 0 {
				part.loMinimal, part.hiMinimal = false, true
				return part
			}
		}

		if cost >= c.tooExpens {
			fxybest, fxbest := -1, 0
			for d := fmax; d >= fmin; d -= 2 {
				x := min(int(fd[d+o]), xlim)
				y := x - d
				if ylim < y {
					x = ylim + d
					y = ylim
				}
				if fxybest < x+y {
					fxybest = x + y
					fxbest = x
				}
			}
			bxybest, bxbest := offsetMax, 0
			for d := bmax; d >= bmin; d -= 2 {
				x := max(xoff, int(bd[d+o]))
				y := x - d
				if y < yoff {
					x = yoff + d
					y = yoff
				}
				if x+y < bxybest {
					bxybest = x + y
					bxbest = x
				}
			}
			if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
				return partition{fxbest, fxybest - fxbest, true, false}
			}
			return partition{bxbest, bxybest - bxbest, false, true}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
