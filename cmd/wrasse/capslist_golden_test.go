package main

import (
	"bytes"
	"flag"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/fsclocktest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestCapsListGolden pins the bytes `caps list` prints (text and --json) for
// a fixture workspace of every kind and state, read afresh and then from the
// manifest cache: making the listing cheaper must not change what it says.
func TestCapsListGolden(t *testing.T) {
	ws := t.TempDir()
	if err := os.CopyFS(ws, os.DirFS("testdata/listws")); err != nil {
		t.Fatal(err)
	}
	// Dated back, so the second open trusts the cache's stats.
	then := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(cerebellum.CapabilitiesDir(ws), func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		t.Fatal(err)
	}
	states := cerebellum.MemoryStates{"switched-off": {Disabled: true}}
	open := func() *cerebellum.Registry {
		reg, err := cerebellum.Open(cerebellum.Options{
			Workspace:     ws,
			States:        states,
			Pinned:        []string{"pinned-guide", "not-installed"},
			Logger:        slog.New(slog.DiscardHandler),
			ManifestCache: filepath.Join(ws, "manifests"),
		})
		if err != nil {
			t.Fatal(err)
		}
		return reg
	}
	for _, pass := range []string{"fresh", "cached"} {
		reg := open()
		for _, tt := range []struct {
			golden string
			json   bool
		}{{"testdata/caps-list.golden", false}, {"testdata/caps-list-json.golden", true}} {
			var out bytes.Buffer
			if err := printCapsList(reg, tt.json, &out); err != nil {
				t.Fatal(err)
			}
			if *update && pass == "fresh" {
				if err := os.WriteFile(tt.golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(tt.golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestCapsListGolden -update to write it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s: caps list (json %v) differs from %s:\n%s", pass, tt.json, tt.golden, out.String())
			}
		}
		if err := reg.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// An edit that keeps the size and the modification time is still seen
	// (by the change time), through the cache and its decoder.
	skill := filepath.Join(cerebellum.CapabilitiesDir(ws), "recipes", "SKILL.md")
	data, err := os.ReadFile(skill)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("the fridge."), []byte("the larder."), 1)
	fsclocktest.WaitChangeTick(t, skill) // else the edit may keep the cached change time
	if err := os.WriteFile(skill, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(skill, then, then); err != nil {
		t.Fatal(err)
	}
	reg := open()
	defer reg.Close()
	var out bytes.Buffer
	if err := printCapsList(reg, false, &out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("what is in the larder.")) || bytes.Contains(out.Bytes(), []byte("fridge")) {
		t.Errorf("the edited description is not listed:\n%s", out.String())
	}
}
