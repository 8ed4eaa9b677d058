package cerebellum_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestResyncEqualsRebuild: over random sequences of edits, additions and
// removals of workspace folders applied by Resync or by ResyncFolders (the
// watcher's path), the registry's snapshot equals that of a registry opened
// from scratch on the same folders (capabilities, tool owners, patterns,
// search ranking), and each Resync reports exactly what changed.
func TestResyncEqualsRebuild(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			e := newEnv(t)
			folders := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
			version := 0
			write := func(f string) {
				version++
				name := f
				if rng.IntN(12) == 0 {
					name = folders[rng.IntN(len(folders))] // a duplicate name
				}
				var tools []string
				for range rng.IntN(3) {
					tools = append(tools, fmt.Sprintf("%s_t%d", f, rng.IntN(2)))
				}
				if rng.IntN(8) == 0 {
					tools = append(tools, "shared_tool") // a collision
				}
				slices.Sort(tools)
				tools = slices.Compact(tools)
				text := skill(name, fmt.Sprintf("Capability %s, version %d, about %s.", name, version, []string{"maps", "mail", "music"}[rng.IntN(3)]), tools...)
				if rng.IntN(6) == 0 {
					text = strings.Replace(text, "description:", "requires: ["+folders[rng.IntN(len(folders))]+"]\ndescription:", 1)
				}
				e.addWorkspace(f, text, len(tools) > 0 && rng.IntN(5) > 0)
			}
			for _, f := range folders[:5] {
				write(f)
			}
			dir := cerebellum.CapabilitiesDir(e.ws)
			open := func(cache string) *cerebellum.Registry {
				r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, ManifestCache: cache,
					Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			r := open(filepath.Join(t.TempDir(), "cache"))
			defer r.Close()
			before := hashes(r.Snapshot())
			for step := range 40 {
				var touched []string
				for range 1 + rng.IntN(2) {
					f := folders[rng.IntN(len(folders))]
					touched = append(touched, f)
					if rng.IntN(5) == 0 {
						if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
							t.Fatal(err)
						}
					} else {
						write(f)
					}
				}
				if step%9 == 0 {
					r.Snapshot().Search() // so the next index is made from this one
				}
				var d cerebellum.Diff
				var err error
				if rng.IntN(3) == 0 {
					d, err = manage.New(r, manage.Options{}).Resync(ctx)
				} else {
					d, err = manage.New(r, manage.Options{}).ResyncFolders(ctx, touched)
				}
				if err != nil {
					t.Fatal(err)
				}
				fresh := open("")
				at := fmt.Sprintf("step %d (%v)", step, touched)
				compareRegistries(t, at, r.Snapshot(), fresh.Snapshot())
				after := hashes(fresh.Snapshot())
				if want := diffOf(before, after); !reflect.DeepEqual(d, want) {
					t.Fatalf("%s: diff %+v, want %+v", at, d, want)
				}
				before = after
				fresh.Close()
			}
		})
	}
}

// hashes is what a Resync compares of each capability: its content,
// kind, whether it failed and its folder (a capability failed or restored,
// or made from another folder, by another's edit is reported changed).
func hashes(s *cerebellum.Snapshot) map[string]string {
	m := map[string]string{}
	for _, c := range s.Capabilities() {
		m[c.Name] = fmt.Sprint(c.Hash, c.Kind, c.State == cerebellum.StateFailed, c.Source, c.Folder)
	}
	return m
}

func diffOf(before, after map[string]string) cerebellum.Diff {
	var d cerebellum.Diff
	for n, h := range after {
		switch old, ok := before[n]; {
		case !ok:
			d.Added = append(d.Added, n)
		case old != h:
			d.Changed = append(d.Changed, n)
		default:
			d.Unchanged = append(d.Unchanged, n)
		}
	}
	for n := range before {
		if _, ok := after[n]; !ok {
			d.Removed = append(d.Removed, n)
		}
	}
	for _, l := range []*[]string{&d.Added, &d.Changed, &d.Removed, &d.Unchanged} {
		sort.Strings(*l)
	}
	return d
}

func compareRegistries(t *testing.T, at string, got, want *cerebellum.Snapshot) {
	t.Helper()
	gj, _ := json.Marshal(got.Capabilities())
	wj, _ := json.Marshal(want.Capabilities())
	if string(gj) != string(wj) {
		t.Fatalf("%s: capabilities differ\n got %s\nwant %s", at, gj, wj)
	}
	if got.ToolCount() != want.ToolCount() || !reflect.DeepEqual(got.Patterns(), want.Patterns()) {
		t.Fatalf("%s: %d tools, patterns %v; want %d, %v", at, got.ToolCount(), got.Patterns(), want.ToolCount(), want.Patterns())
	}
	for _, c := range want.Capabilities() {
		if c.Manifest == nil {
			continue
		}
		for _, tl := range c.Manifest.Tools {
			g, gok := got.Owner(tl.Name)
			w, wok := want.Owner(tl.Name)
			if gok != wok || gok && g.Name != w.Name {
				t.Fatalf("%s: tool %s owner %v %v, want %v %v", at, tl.Name, g, gok, w, wok)
			}
		}
	}
	for _, q := range []string{"maps", "mail music", "capability version", "alpha", "shared tool"} {
		gh, wh := got.Search().Search(q, 10, nil), want.Search().Search(q, 10, nil)
		if !reflect.DeepEqual(gh, wh) {
			t.Fatalf("%s: search %q\n got %v\nwant %v", at, q, gh, wh)
		}
	}
}
