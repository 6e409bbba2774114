package shred

// A pass is a 12-bit pattern repeated over the file (the bit 0x1000 set:
// with the first bit of every 512-byte block flipped), or random data.
const randomPass = -1

// groups are the patterns shred draws its passes from, in the order it
// takes them: a negative entry is that many random passes. After the last
// group it starts over.
var groups = [][]int{
	{-2},
	{0x000, 0xFFF},
	{0x555, 0xAAA},
	{-1},
	{0x249, 0x492, 0x6DB, 0x924, 0xB6D, 0xDB6},
	{0x111, 0x222, 0x333, 0x444, 0x666, 0x777, 0x888, 0x999, 0xBBB, 0xCCC, 0xDDD, 0xEEE},
	{-1},
	{0x1000, 0x1249, 0x1492, 0x16DB, 0x1924, 0x1B6D, 0x1DB6, 0x1FFF},
	{0x1111, 0x1222, 0x1333, 0x1444, 0x1555, 0x1666, 0x1777, 0x1888, 0x1999, 0x1AAA, 0x1BBB, 0x1CCC, 0x1DDD, 0x1EEE},
	{-1},
}

// plan lays out n passes as GNU shred does: whole groups while they fit;
// a group that does not fit is sampled, unless so few passes are left
// that they are better random. The fixed patterns come in random order;
// the random passes are spread evenly, the first and last pass among
// them. randint(k) is a random number in [0, k).
func plan(n int, randint func(k int) int) []int {
	var fixed []int
	random := 0
	for left, g := n, 0; left > 0; g = (g + 1) % len(groups) {
		grp := groups[g]
		switch k := len(grp); {
		case grp[0] < 0:
			take := min(-grp[0], left)
			random += take
			left -= take
		case k <= left:
			fixed = append(fixed, grp...)
			left -= k
		case left < 2 || 3*left < k:
			random += left
			left = 0
		default:
			// Choose left of the k patterns, each equally likely.
			for i := 0; left > 0; i++ {
				if k-i == left || randint(k-i) < left {
					fixed = append(fixed, grp[i])
					left--
				}
			}
		}
	}
	for i := len(fixed) - 1; i > 0; i-- {
		j := randint(i + 1)
		fixed[i], fixed[j] = fixed[j], fixed[i]
	}
	out := make([]int, 0, n)
	next := 0 // the next random pass's index among the random ones
	for i := 0; i < n; i++ {
		if next < random && isRandomSlot(i, next, n, random) {
			out = append(out, randomPass)
			next++
			continue
		}
		out = append(out, fixed[0])
		fixed = fixed[1:]
	}
	return out
}

// isRandomSlot: pass i is the j-th of r random passes among n, placed at
// ceil(j*(n-1)/(r-1)).
func isRandomSlot(i, j, n, r int) bool {
	if r == 1 {
		return i == 0
	}
	return i == (j*(n-1)+r-2)/(r-1)
}

// patternBytes is the 24-bit value a pass writes (and -v shows).
func patternBytes(p int) int {
	v := p & 0xFFF
	b := v<<12 | v
	if p&0x1000 != 0 {
		b ^= 0x800000
	}
	return b
}

// fill writes pattern p into buf, which starts at offset off of the file.
func fill(buf []byte, off int64, p int) {
	v := patternBytes(p &^ 0x1000)
	pat := [3]byte{byte(v >> 16), byte(v >> 8), byte(v)}
	for i := range buf {
		at := off + int64(i)
		buf[i] = pat[at%3]
		if p&0x1000 != 0 && at%512 == 0 {
			buf[i] ^= 0x80
		}
	}
}
