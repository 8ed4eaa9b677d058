package chat

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
)

// dropFile makes a file in a new folder and returns both.
func dropFile(t *testing.T, name string) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// Dropping files attaches their paths; one from outside the granted
// folders offers its folder, and accepting adds it to the grants, the
// others kept (on main the offer replaced them: with the home folder
// granted, a drop from /tmp/x left folders ["/tmp/x"]). Two drops offered
// at once, and one drop from two folders, add every folder.
func TestHandleDropAttachesAndOffersGrant(t *testing.T) {
	h := newHarness(t)
	granted, inside := dropFile(t, "inside.txt")
	if _, err := h.core.SetConfig("folders", granted); err != nil {
		t.Fatal(err)
	}
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(inside)})
	if got := h.chat.composer.entry.Text; got != inside {
		t.Errorf("composer %q, want %q", got, inside)
	}
	if h.shows("Grant folder access?") {
		t.Error("a path inside the folders offered a grant")
	}
	waitFolders := func(want ...string) {
		t.Helper()
		h.until("the folders "+filepath.Join(want...), func() bool {
			got := h.core.Folders()
			for _, w := range want {
				if !slices.Contains(got, w) {
					return false
				}
			}
			return true
		})
	}

	// One drop from outside: accepting adds its folder, the granted one stays.
	outDir, outside := dropFile(t, "notes.txt")
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(outside)})
	if got := h.chat.composer.entry.Text; got != inside+"\n"+outside {
		t.Errorf("composer %q", got)
	}
	if !h.shows("Grant folder access?") {
		t.Fatalf("no offer to grant; window shows:\n%s", h.texts())
	}
	test.Tap(h.button("Yes"))
	waitFolders(granted, outDir)
	h.until("the grant's outcome", func() bool { return h.shows("Folder access granted") })
	if !h.shows("Added " + outDir + ".") {
		t.Errorf("the outcome does not say what was added:\n%s", h.texts())
	}
	if got := h.core.Config().Folders; !slices.Equal(got, []string{granted, outDir}) {
		t.Errorf("config.json folders %v; want %s kept and %s added", got, granted, outDir)
	}
	test.Tap(h.button("OK"))

	// Two drops at once: two offers, both accepted, both added.
	dirA, fileA := dropFile(t, "a.txt")
	dirB, fileB := dropFile(t, "b.txt")
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(fileA)})
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(fileB)})
	test.Tap(h.button("Yes"))
	test.Tap(h.button("Yes"))
	waitFolders(granted, outDir, dirA, dirB)

	// One drop from two folders: one offer naming both.
	dirC, fileC := dropFile(t, "c.txt")
	dirD, fileD := dropFile(t, "d.txt")
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(fileC), storage.NewFileURI(fileD)})
	if !h.shows(dirC) || !h.shows(dirD) {
		t.Errorf("the offer does not name both folders:\n%s", h.texts())
	}
	test.Tap(h.button("Yes"))
	waitFolders(granted, outDir, dirA, dirB, dirC, dirD)
	if got := h.core.Config().Folders; len(got) != 6 {
		t.Errorf("config.json folders %v; want 6", got)
	}
}
