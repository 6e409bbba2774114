// Package blake2 makes the BLAKE2b hashes of b2sum and cksum -a blake2b.
//
// It is apart from package digest because golang.org/x/crypto/blake2b
// imports golang.org/x/sys/cpu, whose package initialisation probes the
// CPU again (slow on virtual machines) in every process that links it: the
// lean front binary links md5sum and the sha*sum commands through digest,
// but not b2sum or cksum, so it does not pay for it.
package blake2

import (
	"hash"

	"golang.org/x/crypto/blake2b"
)

// New returns an unkeyed BLAKE2b hash of size bytes (1 to 64).
func New(size int) hash.Hash {
	h, err := blake2b.New(size, nil)
	if err != nil {
		panic(err) // digest checks the length before it asks
	}
	return h
}
