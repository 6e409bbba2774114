//go:build !race

package posixre

const raceEnabled = false
