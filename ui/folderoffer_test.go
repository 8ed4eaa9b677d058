package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// offerCore opens a workspace whose home folder holds Documents and a
// projects folder; conversations > 0 makes it one from before folders
// had to be granted.
func offerCore(t *testing.T, conversations int) (*assistant.App, string) {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", "projects"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), Home: home, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	for range conversations {
		if _, err := core.Engine().DB.CreateConversation("m"); err != nil {
			t.Fatal(err)
		}
	}
	return core, home
}

// offerButtons are the texts of the offer's buttons.
func offerButtons(o *folderOffer) []string {
	var out []string
	for _, b := range o.buttons.Objects {
		out = append(out, b.(*widget.Button).Text)
	}
	return out
}

func offerButton(t *testing.T, o *folderOffer, text string) *widget.Button {
	t.Helper()
	for _, b := range o.buttons.Objects {
		if b := b.(*widget.Button); b.Text == text {
			return b
		}
	}
	t.Fatalf("no button %q; the offer has %v", text, offerButtons(o))
	return nil
}

// A new workspace's window offers the common folders, one click each,
// never the home folder; a click grants it and the offer goes.
func TestFirstRunOffersFolders(t *testing.T) {
	core, home := offerCore(t, 0)
	h := newHarness(t, core)
	o := h.shell.offer
	sep := string(filepath.Separator)
	if !o.Showing() || !strings.Contains(o.text.Text, "may not use any of your folders yet") {
		t.Fatalf("offer shown %v: %q", o.Showing(), o.text.Text)
	}
	want := []string{"~" + sep + "Documents", "~" + sep + "projects", "Other folder…", "Not now"}
	if got := offerButtons(o); !slices.Equal(got, want) {
		t.Errorf("buttons %v; want %v", got, want)
	}
	test.Tap(offerButton(t, o, "Other folder…"))
	if h.settings.page != hint.PageFolders || !h.shell.Showing() {
		t.Errorf("Other folder… shows page %q (settings shown %v); want the Folders page", h.settings.page, h.shell.Showing())
	}
	test.Tap(offerButton(t, o, "~"+sep+"Documents"))
	if got := core.Folders(); !slices.Equal(got, []string{filepath.Join(home, "Documents")}) {
		t.Fatalf("granted %v", got)
	}
	if o.Showing() {
		t.Error("the offer stays once a folder is granted")
	}
}

// Not now hides the offer for this window; a workspace from before
// folders had to be granted is told what changed.
func TestFirstRunOfferNotNowAndUpgrade(t *testing.T) {
	core, _ := offerCore(t, 2)
	h := newHarness(t, core)
	o := h.shell.offer
	if !o.Showing() || !strings.Contains(o.text.Text, "no longer lets the assistant use your whole home folder") {
		t.Fatalf("offer shown %v: %q", o.Showing(), o.text.Text)
	}
	test.Tap(offerButton(t, o, "Not now"))
	if o.Showing() || len(core.Folders()) != 0 {
		t.Errorf("after Not now: shown %v, folders %v", o.Showing(), core.Folders())
	}
}
