//go:build race

package posixre

const raceEnabled = true
