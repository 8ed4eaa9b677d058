package cerebellum_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// BenchmarkOpen measures a registry start-up over 1,000 generated
// capabilities (50 with plugins), cold (no manifest cache) and warm.
func BenchmarkOpen(b *testing.B) {
	ws := b.TempDir()
	if err := captest.Write(cerebellum.CapabilitiesDir(ws), captest.Generate(1000, 50, 1)); err != nil {
		b.Fatal(err)
	}
	loaders := map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: newFakeLoader()}
	for _, warm := range []bool{false, true} {
		b.Run(fmt.Sprintf("warm=%v", warm), func(b *testing.B) {
			cache := ""
			if warm {
				cache = filepath.Join(b.TempDir(), "cache.json")
				cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: loaders, ManifestCache: cache})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: loaders, ManifestCache: cache})
				if err != nil {
					b.Fatal(err)
				}
				_ = r.Index(nil)
			}
		})
	}
}

// BenchmarkIndex measures rendering the capability index at 1,000 capabilities.
func BenchmarkIndex(b *testing.B) {
	ws := b.TempDir()
	captest.Write(cerebellum.CapabilitiesDir(ws), captest.Generate(1000, 0, 2))
	r, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: newFakeLoader()}})
	if err != nil {
		b.Fatal(err)
	}
	sess := r.NewSession("c", nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = r.Index(sess)
	}
}
