package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// BenchmarkOpenStartupWorkspace opens a registry on the start-up workspace
// (1,000 generated capabilities, 50 plugins, plus the built-ins): the
// scanning share of `wrasse caps list`, with the manifest cache as a
// previous start left it and without it (a first start).
func BenchmarkOpenStartupWorkspace(b *testing.B) {
	ws, err := startupWorkspace(filepath.Join(b.TempDir(), "ws"), 1)
	if err != nil {
		b.Fatal(err)
	}
	cache := workspace.Workspace{Root: ws}.ManifestCache()
	for _, c := range []struct {
		name  string
		fresh bool
	}{{"cache", false}, {"nocache", true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c.fresh {
					b.StopTimer()
					if err := os.Remove(cache); err != nil && !os.IsNotExist(err) {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				reg, err := openRegistry(ws, newHost())
				if err != nil {
					b.Fatal(err)
				}
				reg.Close()
			}
		})
	}
}
