//go:build !race

package bench

// raceEnabled is true when the race detector is on.
const raceEnabled = false
