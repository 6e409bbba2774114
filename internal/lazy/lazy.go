// Package lazy holds package-level values built on first use.
//
// Every package linked into a bashbox binary initialises before main runs,
// whether or not the call uses it, and a map literal or a table computed at
// package level is built then. A Value declared with a function literal is
// static data (the compiler lays it out in the binary), so it costs nothing
// at start-up, unlike sync.OnceValue, whose call allocates during package
// initialisation: `bashbox run -c true` should not pay for date's month
// names or dd's flag table.
package lazy

import "sync"

// Value is a value built by New on the first call of Get. Declare it at
// package level as
//
//	var months = lazy.Value[map[string]int]{New: func() map[string]int { ... }}
//
// and read it with months.Get(). It is safe for concurrent use; it must not
// be copied after first use.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, building it with New on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.build)
	return l.v
}

func (l *Value[T]) build() { l.v = l.New() }
