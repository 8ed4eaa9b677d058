package settings

import (
	"os"
	"slices"
	"testing"

	"fyne.io/fyne/v2/storage"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func TestFoldersAddAndRemove(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder:", err)
	}
	h := newHarness(t, nil)
	h.s.Show(hint.PageFolders, "")
	p := h.s.folders
	if got, def := p.Folders(); !def || !slices.Equal(got, []string{home}) {
		t.Fatalf("default folders = %v (default %v), want the home folder", got, def)
	}
	extra := t.TempDir()
	l, err := storage.ListerForURI(storage.NewFileURI(extra))
	if err != nil {
		t.Fatal(err)
	}
	p.FolderPicked(l, nil)
	// Adding to the default keeps the home folder: nothing is taken away.
	want := []string{home, extra}
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Fatalf("config folders = %v, want %v", got, want)
	}
	if got, def := p.Folders(); def || !slices.Equal(got, want) {
		t.Errorf("page lists %v (default %v)", got, def)
	}
	if !slices.Contains(h.core.Folders(), extra) {
		t.Errorf("the core does not allow %s: %v", extra, h.core.Folders())
	}
	// Adding it twice changes nothing.
	p.Add(extra)
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Errorf("after adding twice: %v", got)
	}
	p.Remove(extra)
	if got := h.core.Config().Folders; !slices.Equal(got, []string{home}) {
		t.Errorf("after removing: %v", got)
	}
	p.Remove(home)
	if got, def := p.Folders(); !def || !slices.Equal(got, []string{home}) {
		t.Errorf("after removing the last: %v (default %v), want the default home folder", got, def)
	}
}
