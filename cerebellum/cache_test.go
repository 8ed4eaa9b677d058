package cerebellum_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// TestManifestCacheGivesTheSameCapabilities: a second start-up served from
// the cache sees exactly what parsing sees, and an edit is noticed.
func TestManifestCacheGivesTheSameCapabilities(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("full", "---\nname: full\ndescription: D.\nkeywords: [a]\ntools:\n  - name: full_run\n    description: R.\n    timeout: 5s\n    parameters:\n      type: object\n      properties:\n        x: {type: string}\ndanger_patterns:\n  - {pattern: 'full_run .*boom', reason: no}\n---\n# Body\ntext\n", true)
	e.addWorkspace("other-folder", "---\nname: renamed\ndescription: Mismatch warning.\n---\nx\n", false)
	e.addWorkspace("broken", "---\nname: broken\n---\n", false)
	cacheFile := filepath.Join(t.TempDir(), "cache.json")
	open := func() *cerebellum.Registry {
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, ManifestCache: cacheFile,
			Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := open()
	if _, err := os.Stat(cacheFile); err != nil {
		t.Fatalf("cache not written: %v", err)
	}
	second := open()
	for i, c := range first.List() {
		d := second.List()[i]
		c.FS, d.FS = nil, nil
		if !reflect.DeepEqual(c, d) {
			t.Fatalf("cached capability differs:\n%+v\n%+v", c, d)
		}
		if c.Manifest != nil && !reflect.DeepEqual(c.Manifest.Warnings, d.Manifest.Warnings) {
			t.Fatal("warnings differ")
		}
	}
	if got := second.Snapshot().Patterns(); len(got) != 1 || got[0].Pattern.Re == nil || !got[0].Pattern.Re.MatchString(`full_run {"x":"BOOM"}`) {
		t.Fatalf("patterns from cache: %+v", got)
	}
	e.addWorkspace("full", "---\nname: full\ndescription: Edited.\n---\nx\n", false)
	if c, _ := open().Get("full"); c.Description() != "Edited." {
		t.Fatalf("edit not seen through the cache: %q", c.Description())
	}
}
