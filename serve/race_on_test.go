//go:build race

package serve

// raceDetector: the race detector slows Go code five to ten times, and
// unevenly (the runtime's copies and collections not at all), so timing
// ratios measured under it say little about the server.
const raceDetector = true
