package cerebellum_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// BenchmarkResyncEdit measures a folder Resync after one capability's
// SKILL.md changed, as the watcher does, at 1,000 and 10,000 capabilities
// (files dated back, as a workspace stands between edits), with the
// previous snapshot's search index built, as in a running app.
func BenchmarkResyncEdit(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := b.TempDir()
			dir := cerebellum.CapabilitiesDir(ws)
			caps := captest.Generate(n, 50, 1)
			if err := captest.Write(dir, caps); err != nil {
				b.Fatal(err)
			}
			then := time.Now().Add(-time.Hour)
			if err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				return os.Chtimes(p, then, then)
			}); err != nil {
				b.Fatal(err)
			}
			r, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: newFakeLoader()},
				ManifestCache: filepath.Join(b.TempDir(), "cache"), AppliedState: filepath.Join(b.TempDir(), "applied.json")})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			ctx := context.Background()
			if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
				b.Fatal(err)
			}
			target := caps[n/2]
			file := filepath.Join(dir, target.Name, "SKILL.md")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				r.Snapshot().Search()
				text := strings.Replace(target.SkillMD, "description: ", fmt.Sprintf("description: edit %d ", i), 1)
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				d, err := manage.New(r, manage.Options{}).ResyncFolders(ctx, []string{target.Name})
				if err != nil || len(d.Changed) != 1 {
					b.Fatalf("%+v %v", d, err)
				}
				r.Snapshot().Search()
			}
		})
	}
}
