package cerebellum_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// QA (session 4): the Resync diff is by content, so a capability whose
// state changed because of another one's edit went unreported (greeter
// failed by adder's tool-name collision, restored when adder's tool was
// renamed), and a capability now made from another folder (two folders
// of one name, the winner deleted) was not reported changed. The diff
// lists every capability whose state, kind, folder, tools or description
// changed, through a full Resync and a folder Resync alike.
func TestResyncReportsCollateralChanges(t *testing.T) {
	type edit struct {
		folder string
		md     string // "" removes the folder
		gone   string // another folder removed in the same edit (a rename)
		want   cerebellum.Diff
	}
	for _, tc := range []struct {
		name  string
		start map[string]string // folder → SKILL.md
		edits []edit
	}{
		{
			name:  "tool-name collision fails another, renaming restores it",
			start: map[string]string{"greeter": skill("greeter", "Greets.", "greet_echo", "greet_add")},
			edits: []edit{
				{"adder", skill("adder", "Adds.", "greet_add"), "", cerebellum.Diff{Added: []string{"adder"}, Changed: []string{"greeter"}}},
				{"adder", skill("adder", "Adds.", "add_numbers"), "", cerebellum.Diff{Changed: []string{"adder", "greeter"}}},
				{"adder", "", "", cerebellum.Diff{Removed: []string{"adder"}}},
			},
		},
		{
			name: "two folders of one name, the winner deleted",
			start: map[string]string{
				"packing":      skill("packing", "Packs."),
				"packing-copy": skill("packing", "Packs."),
			},
			edits: []edit{
				{"packing", "", "", cerebellum.Diff{Removed: []string{"packing-copy"}, Changed: []string{"packing"}}},
			},
		},
		{
			name:  "folder renamed, same content",
			start: map[string]string{"notes-guide": skill("notes", "Notes.")},
			edits: []edit{
				{"meeting-notes", skill("notes", "Notes."), "notes-guide", cerebellum.Diff{Changed: []string{"notes"}}},
			},
		},
	} {
		for _, folders := range []bool{false, true} {
			path := "Resync"
			if folders {
				path = "ResyncFolders"
			}
			t.Run(tc.name+"/"+path, func(t *testing.T) {
				e := newEnv(t)
				for f, md := range tc.start {
					// Plugins serve the tools (a fake loader).
					e.addWorkspace(f, md, true)
				}
				r := e.open()
				dir := cerebellum.CapabilitiesDir(e.ws)
				for i, ed := range tc.edits {
					touched := []string{ed.folder}
					if ed.md == "" {
						if err := os.RemoveAll(filepath.Join(dir, ed.folder)); err != nil {
							t.Fatal(err)
						}
					} else {
						e.addWorkspace(ed.folder, ed.md, true)
					}
					if ed.gone != "" {
						if err := os.RemoveAll(filepath.Join(dir, ed.gone)); err != nil {
							t.Fatal(err)
						}
						touched = append(touched, ed.gone)
					}
					pending, err := manage.New(r, manage.Options{}).Pending()
					if err != nil {
						t.Fatal(err)
					}
					var d cerebellum.Diff
					if folders {
						d, err = manage.New(r, manage.Options{}).ResyncFolders(context.Background(), touched)
					} else {
						d, err = manage.New(r, manage.Options{}).Resync(context.Background())
					}
					if err != nil {
						t.Fatal(err)
					}
					d.Unchanged, pending.Unchanged = nil, nil
					if !reflect.DeepEqual(d, ed.want) {
						t.Errorf("edit %d: diff %+v, want %+v", i, d, ed.want)
					}
					if !reflect.DeepEqual(pending, ed.want) {
						t.Errorf("edit %d: pending %+v, want %+v", i, pending, ed.want)
					}
				}
			})
		}
	}
}
