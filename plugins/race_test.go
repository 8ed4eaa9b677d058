//go:build race

package plugins

// raceEnabled: the race detector's runtime reports running out of address
// space in its own words.
const raceEnabled = true
