package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// withHome points the home folder at a new one holding Documents and a
// projects folder.
func withHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", "projects"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	return home
}

// button finds a button of the folders page by its text.
func (p *foldersPage) button(t *testing.T, text string) *widget.Button {
	t.Helper()
	for _, o := range p.common.Objects {
		if b, ok := asButton(o); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no button %q among the common folders", text)
	return nil
}

// The page starts with no folder granted and says so, offers the common
// folders as one-click choices, and adds to the grants without replacing
// them; the whole home folder only by hand, with a warning.
func TestFoldersAddAndRemove(t *testing.T) {
	home := withHome(t)
	h := newHarness(t, nil)
	h.s.Show(hint.PageFolders, "")
	p := h.s.folders
	if got := p.Folders(); len(got) != 0 {
		t.Fatalf("a new workspace lists %v; want no folder", got)
	}
	if !strings.Contains(p.about.Text, "No folder is granted") {
		t.Errorf("the page does not say no folder is granted: %q", p.about.Text)
	}
	docs, projects := filepath.Join(home, "Documents"), filepath.Join(home, "projects")
	sep := string(filepath.Separator)
	test.Tap(p.button(t, "~"+sep+"Documents"))
	if got := h.core.Folders(); !slices.Equal(got, []string{docs}) {
		t.Fatalf("after the Documents button: %v", got)
	}
	if !strings.Contains(p.outcome.Text(), "Added "+docs) {
		t.Errorf("outcome %q", p.outcome.Text())
	}
	// Offered no more once granted; the next one adds to the first.
	for _, o := range p.common.Objects {
		if b, ok := asButton(o); ok && b.Text == "~"+sep+"Documents" {
			t.Error("Documents is still offered once granted")
		}
	}
	test.Tap(p.button(t, "~"+sep+"projects"))
	extra := t.TempDir()
	l, err := storage.ListerForURI(storage.NewFileURI(extra))
	if err != nil {
		t.Fatal(err)
	}
	p.FolderPicked(l, nil)
	want := []string{docs, projects, extra}
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Fatalf("config folders = %v, want %v", got, want)
	}
	if got := p.Folders(); !slices.Equal(got, want) {
		t.Errorf("page lists %v", got)
	}
	if strings.Contains(p.about.Text, "No folder") {
		t.Errorf("about text with folders granted: %q", p.about.Text)
	}
	// Adding it twice changes nothing.
	p.Add(extra)
	if got := h.core.Config().Folders; !slices.Equal(got, want) {
		t.Errorf("after adding twice: %v", got)
	}
	// The whole home folder: only by hand, and the page warns.
	for _, o := range p.common.Objects {
		if b, ok := asButton(o); ok && b.Text == home {
			t.Error("the home folder is offered as a common folder")
		}
	}
	p.Add(home)
	if !slices.Contains(h.core.Folders(), home) || !strings.Contains(p.outcome.Text(), "your whole home folder") ||
		p.outcome.label.Importance != widget.WarningImportance {
		t.Errorf("adding the home folder: %v, outcome %q", h.core.Folders(), p.outcome.Text())
	}
	for _, f := range []string{home, extra, projects, docs} {
		p.Remove(f)
	}
	if got := p.Folders(); len(got) != 0 || !strings.Contains(p.outcome.Text(), "No folder is granted now") {
		t.Errorf("after removing all: %v, outcome %q", got, p.outcome.Text())
	}
}
