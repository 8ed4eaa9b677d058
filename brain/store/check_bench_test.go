package store

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkOpenCheck measures what Open's check of an existing file
// costs (precheck, under no lock): page by page up to FullCheckSize of
// pages in use, the quick check beyond. The fixture's conversations are
// a question, a tool call, its result and an answer, three times.
func BenchmarkOpenCheck(b *testing.B) {
	for _, convs := range []int{10, 100, 200, 1000} {
		path := filepath.Join(b.TempDir(), FileName)
		fixture(b, path, convs)
		d, err := Diagnose(path)
		if err != nil || !d.Healthy() {
			b.Fatalf("fixture: %+v, %v", d, err)
		}
		mode := "full"
		if used := int64(d.Pages) * 4096; used > FullCheckSize {
			mode = "quick"
		}
		b.Run(fmt.Sprintf("%dMB-%s", d.Size>>20, mode), func(b *testing.B) {
			for b.Loop() {
				if err := precheck(path, FullCheckSize); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
