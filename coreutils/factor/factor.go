// Package factor implements factor: print the prime factors of each
// number, of any size. Numbers that fit in 64 bits are factored with trial
// division, deterministic Miller-Rabin and Pollard-Brent rho in machine
// arithmetic; larger ones with math/big.
package factor

import (
	"bufio"
	"context"
	"io"
	"math/big"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run factors the operands, or the whitespace-separated numbers of
// standard input.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [NUMBER]...\n  or:  "+c.Name()+" OPTION\n"+
		"Print the prime factors of each specified integer NUMBER.  If none\n"+
		"are specified on the command line, read them from standard input.\n\n"+
		utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	f := &factorer{ctx: ctx, c: c, out: textfmt.NewOutput(c.Stdout)}
	ok := true
	if len(operands) > 0 {
		for _, s := range operands {
			if ctx.Err() != nil {
				break
			}
			ok = f.one(s) && ok
			if f.out.Failed() {
				break
			}
		}
	} else {
		br := bufio.NewReaderSize(c.Stdin, 64<<10)
		var tok []byte
		for ctx.Err() == nil && !f.out.Failed() {
			b, err := br.ReadByte()
			if err == nil && !isSpace(b) {
				tok = append(tok, b)
				continue
			}
			if len(tok) > 0 {
				ok = f.one(string(tok)) && ok
				tok = tok[:0]
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				c.Errorf("read error: %s", builtins.ErrText(err))
				ok = false
				break
			}
		}
	}
	if ctx.Err() != nil {
		f.out.Flush()
		return procutil.CancelStatus(ctx)
	}
	st = 0
	if !ok {
		st = 1
	}
	return f.out.Finish(c, st)
}

func isSpace(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' }

type factorer struct {
	ctx context.Context
	c   *builtins.Call
	out *textfmt.Output
}

// one factors the number written s and prints "N: p...".
func (f *factorer) one(s string) bool {
	t := s
	for t != "" && isSpace(t[0]) {
		t = t[1:]
	}
	t = strings.TrimPrefix(t, "+")
	valid := t != ""
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			valid = false
			break
		}
	}
	if !valid {
		f.c.Errorf("%s is not a valid positive integer", utilcmd.Q(f.c, s))
		return false
	}
	var ps []string
	if n, err := strconv.ParseUint(t, 10, 64); err == nil {
		f.out.WriteString(strconv.FormatUint(n, 10))
		f.out.WriteByte(':')
		var fs []uint64
		fs = factor64(f.ctx, n, fs)
		sort.Slice(fs, func(i, j int) bool { return fs[i] < fs[j] })
		var buf [24]byte
		for _, p := range fs {
			f.out.WriteByte(' ')
			f.out.Write(strconv.AppendUint(buf[:0], p, 10))
		}
		f.out.WriteByte('\n')
		return true
	}
	n, _ := new(big.Int).SetString(t, 10)
	var fs []*big.Int
	fs = factorBig(f.ctx, n, fs)
	if f.ctx.Err() != nil {
		return false
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Cmp(fs[j]) < 0 })
	for _, p := range fs {
		ps = append(ps, p.String())
	}
	f.out.WriteString(n.String() + ":")
	for _, p := range ps {
		f.out.WriteString(" " + p)
	}
	f.out.WriteByte('\n')
	return true
}

// smallPrimes are the primes below 1000, for trial division.
var smallPrimes = func() []uint64 {
	var ps []uint64
	sieve := make([]bool, 1000)
	for i := 2; i < 1000; i++ {
		if !sieve[i] {
			ps = append(ps, uint64(i))
			for j := i * i; j < 1000; j += i {
				sieve[j] = true
			}
		}
	}
	return ps
}()

// factor64 appends the prime factors of n (unsorted).
func factor64(ctx context.Context, n uint64, out []uint64) []uint64 {
	if n < 2 {
		return out
	}
	for _, p := range smallPrimes {
		if p*p > n {
			break
		}
		for n%p == 0 {
			out = append(out, p)
			n /= p
		}
	}
	if n == 1 {
		return out
	}
	if n < 1000*1000 || isPrime64(n) {
		return append(out, n)
	}
	return rho64(ctx, n, out)
}

func rho64(ctx context.Context, n uint64, out []uint64) []uint64 {
	if n == 1 {
		return out
	}
	if isPrime64(n) {
		return append(out, n)
	}
	if ctx.Err() != nil {
		return append(out, n)
	}
	d := brent64(n)
	out = rho64(ctx, d, out)
	return rho64(ctx, n/d, out)
}

func mulmod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi%m, lo, m)
	return r
}

func powmod(a, e, m uint64) uint64 {
	r := uint64(1)
	a %= m
	for e > 0 {
		if e&1 == 1 {
			r = mulmod(r, a, m)
		}
		a = mulmod(a, a, m)
		e >>= 1
	}
	return r
}

// isPrime64 is a deterministic Miller-Rabin test for 64-bit numbers.
func isPrime64(n uint64) bool {
	if n < 2 {
		return false
	}
	for _, p := range []uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37} {
		if n%p == 0 {
			return n == p
		}
	}
	d, s := n-1, 0
	for d&1 == 0 {
		d >>= 1
		s++
	}
	for _, a := range []uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37} {
		x := powmod(a, d, n)
		if x == 1 || x == n-1 {
			continue
		}
		composite := true
		for i := 1; i < s; i++ {
			x = mulmod(x, x, n)
			if x == n-1 {
				composite = false
				break
			}
		}
		if composite {
			return false
		}
	}
	return true
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// brent64 finds a nontrivial factor of the odd composite n.
func brent64(n uint64) uint64 {
	if n%2 == 0 {
		return 2
	}
	for c := uint64(1); ; c++ {
		y, r, q := uint64(2), uint64(1), uint64(1)
		var g, x, ys uint64
		f := func(v uint64) uint64 { return (mulmod(v, v, n) + c) % n }
		for g = 1; g == 1; r <<= 1 {
			x = y
			for i := uint64(0); i < r; i++ {
				y = f(y)
			}
			for k := uint64(0); k < r && g == 1; k += 128 {
				ys = y
				for i := uint64(0); i < min(128, r-k); i++ {
					y = f(y)
					diff := x - y
					if x < y {
						diff = y - x
					}
					q = mulmod(q, diff, n)
				}
				g = gcd(q, n)
			}
		}
		if g == n {
			for g = 1; g == 1; {
				ys = f(ys)
				diff := x - ys
				if x < ys {
					diff = ys - x
				}
				g = gcd(diff, n)
			}
		}
		if g != n {
			return g
		}
	}
}

var bigOne = big.NewInt(1)

// factorBig appends the prime factors of n (unsorted).
func factorBig(ctx context.Context, n *big.Int, out []*big.Int) []*big.Int {
	n = new(big.Int).Set(n)
	var q, r big.Int
	for _, p := range smallPrimes {
		bp := new(big.Int).SetUint64(p)
		for {
			q.QuoRem(n, bp, &r)
			if r.Sign() != 0 {
				break
			}
			out = append(out, bp)
			n.Set(&q)
		}
	}
	return rhoBig(ctx, n, out)
}

func rhoBig(ctx context.Context, n *big.Int, out []*big.Int) []*big.Int {
	if n.Cmp(bigOne) <= 0 {
		return out
	}
	if n.IsUint64() {
		for _, p := range factor64(ctx, n.Uint64(), nil) {
			out = append(out, new(big.Int).SetUint64(p))
		}
		return out
	}
	if n.ProbablyPrime(20) || ctx.Err() != nil {
		return append(out, n)
	}
	d := brentBig(ctx, n)
	if d == nil {
		return append(out, n)
	}
	out = rhoBig(ctx, d, out)
	return rhoBig(ctx, new(big.Int).Quo(n, d), out)
}

// brentBig finds a nontrivial factor of the composite n, or nil when
// cancelled.
func brentBig(ctx context.Context, n *big.Int) *big.Int {
	for c := int64(1); ; c++ {
		bc := big.NewInt(c)
		y, x, ys := big.NewInt(2), new(big.Int), new(big.Int)
		q, g, diff := big.NewInt(1), big.NewInt(1), new(big.Int)
		f := func(v *big.Int) {
			v.Mul(v, v)
			v.Add(v, bc)
			v.Mod(v, n)
		}
		for r := 1; g.Cmp(bigOne) == 0; r <<= 1 {
			if ctx.Err() != nil {
				return nil
			}
			x.Set(y)
			for i := 0; i < r; i++ {
				f(y)
				if i&1023 == 1023 && ctx.Err() != nil {
					return nil
				}
			}
			for k := 0; k < r && g.Cmp(bigOne) == 0; k += 128 {
				if ctx.Err() != nil {
					return nil
				}
				ys.Set(y)
				for i := 0; i < min(128, r-k); i++ {
					f(y)
					diff.Sub(x, y)
					diff.Abs(diff)
					q.Mul(q, diff)
					q.Mod(q, n)
				}
				g.GCD(nil, nil, q, n)
			}
		}
		if g.Cmp(n) == 0 {
			for g.SetInt64(1); g.Cmp(bigOne) == 0; {
				f(ys)
				diff.Sub(x, ys)
				diff.Abs(diff)
				g.GCD(nil, nil, diff, n)
			}
		}
		if g.Cmp(n) != 0 {
			return g
		}
	}
}
