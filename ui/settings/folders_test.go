package settings

import (
	"os"
	"slices"
	"strings"
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
	// The first folder replaces the home default, as the page says before it.
	if !strings.Contains(p.about.Text, "replaces that default") {
		t.Errorf("the page does not say what adding does: %q", p.about.Text)
	}
	p.FolderPicked(l, nil)
	want := []string{extra}
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Fatalf("config folders = %v, want %v", got, want)
	}
	if got, def := p.Folders(); def || !slices.Equal(got, want) {
		t.Errorf("page lists %v (default %v)", got, def)
	}
	if got := h.core.Folders(); !slices.Contains(got, extra) || slices.Contains(got, home) {
		t.Errorf("the core allows %v, want %s and not the home folder", got, extra)
	}
	if !strings.Contains(p.outcome.Text(), "home folder is no longer allowed") {
		t.Errorf("outcome %q does not say the home folder went", p.outcome.Text())
	}
	// Adding it twice changes nothing; a second folder is added to the list.
	p.Add(extra)
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Errorf("after adding twice: %v", got)
	}
	p.Add(home)
	if got := h.core.Config().Folders; !slices.Equal(got, []string{extra, home}) {
		t.Errorf("after adding the home folder: %v", got)
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
