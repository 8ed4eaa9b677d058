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

// Dropped files become chips of the message (fileattach_test.go), never
// a grant: a file from outside the granted folders offers nothing. A
// dropped folder outside them offers itself, and accepting adds it to the
// grants, the others kept (on main the offer replaced them: with the home
// folder granted, a drop from /tmp/x left folders ["/tmp/x"]). Two drops
// offered at once, and one drop of two folders, add every folder.
func TestHandleDropAttachesAndOffersGrant(t *testing.T) {
	h := newHarness(t)
	granted, inside := dropFile(t, "inside.txt")
	if _, err := h.core.SetConfig("folders", granted); err != nil {
		t.Fatal(err)
	}
	_, outside := dropFile(t, "outside.txt")
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(inside), storage.NewFileURI(outside)})
	h.until("the files read", func() bool { return h.shows("inside.txt · text") && h.shows("outside.txt · text") })
	if got := h.chat.composer.entry.Text; got != "" {
		t.Errorf("composer %q; the files are chips, not text", got)
	}
	if h.shows("Grant folder access?") {
		t.Error("dropping files offered a grant")
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

	// A folder inside the granted ones offers nothing.
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(granted)})
	if h.shows("Grant folder access?") {
		t.Error("a folder inside the grants offered a grant")
	}

	// A folder from outside: accepting adds it, the granted one stays.
	outDir := t.TempDir()
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(outDir)})
	if !h.shows("Grant folder access?") {
		t.Fatalf("no offer to grant; window shows:\n%s", h.texts())
	}
	test.Tap(h.button("Allow"))
	waitFolders(granted, outDir)
	h.until("the grant's outcome", func() bool { return h.shows("Folder access granted") })
	if !h.shows("Added " + outDir + ".") {
		t.Errorf("the outcome does not say what was added:\n%s", h.texts())
	}
	if got := h.core.Config().Folders; !slices.Equal(got, []string{granted, outDir}) {
		t.Errorf("config.json folders %v; want %s kept and %s added", got, granted, outDir)
	}
	test.Tap(h.button("OK"))

	// Declined: nothing changes.
	declined := t.TempDir()
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(declined)})
	test.Tap(h.button("Not now"))
	if slices.Contains(h.core.Folders(), declined) {
		t.Error("a declined offer granted the folder")
	}

	// Two drops at once: two offers, both accepted, both added.
	dirA, dirB := t.TempDir(), t.TempDir()
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(dirA)})
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(dirB)})
	test.Tap(h.button("Allow"))
	test.Tap(h.button("Allow"))
	waitFolders(granted, outDir, dirA, dirB)

	// One drop of two folders: one offer naming both.
	dirC, dirD := t.TempDir(), t.TempDir()
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(dirC), storage.NewFileURI(dirD)})
	if !h.shows(dirC) || !h.shows(dirD) {
		t.Errorf("the offer does not name both folders:\n%s", h.texts())
	}
	test.Tap(h.button("Allow"))
	waitFolders(granted, outDir, dirA, dirB, dirC, dirD)
	if got := h.core.Config().Folders; len(got) != 6 {
		t.Errorf("config.json folders %v; want 6", got)
	}
}
