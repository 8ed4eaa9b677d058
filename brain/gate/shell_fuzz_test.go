package gate_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// FuzzAnalyzeShell: any command line is analysed without panicking, and a
// line that does not parse always asks.
func FuzzAnalyzeShell(f *testing.F) {
	for _, s := range []string{"ls -la", "rm${IFS}-rf${IFS}$HOME", "sh -c 'sh -c \"rm -rf /\"'", "a | b && c || (d; e)", "$(", "find . -exec rm {} +", "sudo -u x env A=1 nice -n 5 rm -rf /"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		info := gate.AnalyzeShell(cmd)
		for _, c := range info.Commands {
			_ = c.Line()
		}
	})
}
