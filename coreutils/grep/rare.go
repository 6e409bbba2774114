package grep

import "bytes"

// Finding a string in a buffer: bytes.Index looks for its first byte with
// IndexByte and checks each hit. When that byte is common ('f' of "func
// (", 'c' of "context" in source code), the hits come every few dozen
// bytes and each costs a call. Looking for the string's rarest byte
// instead, by the rough frequencies below, makes fewer false starts; a
// buffer where that byte is common after all goes back to bytes.Index.

// byteRank orders bytes by how often they occur in typical text: source
// code and English prose (0 the rarest, 255 the space). It was computed
// from the Go tree's sources and the licence texts Debian ships, averaged.
var byteRank = [256]uint8{
	0, 1, 2, 3, 4, 5, 6, 7, 8, 243, 246, 9, 159, 10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
	255, 191, 229, 178, 161, 188, 182, 189, 227, 228, 203, 183, 235, 231, 237, 230,
	209, 208, 207, 185, 186, 180, 187, 170, 175, 172, 223, 190, 179, 224, 174, 163,
	166, 214, 195, 220, 205, 215, 202, 196, 204, 213, 164, 168, 210, 198, 206, 200,
	212, 165, 211, 217, 222, 197, 173, 194, 167, 177, 162, 193, 184, 192, 158, 199,
	169, 247, 232, 245, 242, 254, 238, 234, 241, 249, 181, 221, 244, 236, 250, 251,
	239, 201, 252, 248, 253, 240, 225, 226, 216, 233, 176, 219, 171, 218, 160, 29,
	155, 124, 98, 121, 135, 30, 125, 31, 32, 99, 33, 34, 131, 35, 100, 101,
	36, 102, 128, 129, 144, 132, 133, 115, 136, 145, 37, 103, 148, 149, 38, 137,
	104, 116, 39, 40, 117, 105, 106, 151, 107, 140, 130, 118, 41, 42, 108, 109,
	126, 122, 110, 119, 43, 141, 154, 44, 147, 111, 142, 127, 152, 112, 134, 45,
	46, 47, 153, 157, 48, 49, 50, 51, 52, 53, 120, 54, 55, 56, 57, 113,
	150, 146, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,
	72, 73, 156, 123, 138, 74, 75, 143, 76, 114, 77, 78, 79, 80, 81, 82,
	139, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97,
}

// rarestByte is the position in s of its least common byte by byteRank;
// among equals, the first.
func rarestByte(s []byte) int {
	r := 0
	for i := 1; i < len(s); i++ {
		if byteRank[s[i]] < byteRank[s[r]] {
			r = i
		}
	}
	return r
}

// indexRare is bytes.Index(hay, needle) found through needle[r].
func indexRare(hay, needle []byte, r int) int {
	n := len(needle)
	if r == 0 || n < 2 || n > len(hay) {
		return bytes.Index(hay, needle)
	}
	c := needle[r]
	fails := 0
	for i := 0; i+n <= len(hay); {
		j := bytes.IndexByte(hay[i+r:len(hay)-n+1+r], c)
		if j < 0 {
			return -1
		}
		s := i + j
		if string(hay[s:s+n]) == string(needle) {
			return s
		}
		i = s + 1
		// A false start every 16 bytes or so: the byte is not rare here,
		// and bytes.Index's own search (which gives up on first bytes in
		// the same way) does better.
		if fails++; fails > 4+i>>4 {
			if k := bytes.Index(hay[i:], needle); k >= 0 {
				return i + k
			}
			return -1
		}
	}
	return -1
}
