package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/assistant"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// editHello rewrites hello's description (a hand edit of its SKILL.md).
func (h *harness) editHello(from, to string) {
	h.t.Helper()
	manifest := filepath.Join(h.capsDir(), "hello", "SKILL.md")
	data, err := os.ReadFile(manifest)
	if err != nil {
		h.t.Fatal(err)
	}
	edited := strings.Replace(string(data), from, to, 1)
	if edited == string(data) {
		h.t.Fatalf("SKILL.md has no %q", from)
	}
	if err := os.WriteFile(manifest, []byte(edited), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// QA bug 9: a Resync run elsewhere (the CLI through the window's socket, the
// watcher with autoResync) publishes a snapshot the panel's report does not
// describe; the panel must not keep saying the old report.
func TestResyncReportGoesWhenANewerSnapshotArrives(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "hello")
	h.editHello("Greets people warmly", "Greets people very warmly")
	h.tap("Resync")
	if got := h.s.caps.result.Text(); got != "Changed: hello" || !h.s.caps.results.Visible() {
		t.Fatalf("Resync shows %q (visible %v)", got, h.s.caps.results.Visible())
	}
	// A Resync that changes nothing keeps the snapshot, so the report
	// still describes what shows.
	if _, err := h.core.Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !h.s.caps.results.Visible() {
		t.Error("a Resync that changed nothing hid the report")
	}
	// Another edit, applied by a Resync the page did not run.
	h.editHello("Greets people very warmly", "Greets people coldly")
	if _, err := h.core.Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.s.caps.results.Visible() {
		t.Errorf("the panel still shows the old report %q after a newer Resync", h.s.caps.result.Text())
	}
	// The page's own Resync reports again.
	h.editHello("Greets people coldly", "Greets people warmly")
	h.tap("Resync")
	if got := h.s.caps.result.Text(); got != "Changed: hello" || !h.s.caps.results.Visible() {
		t.Errorf("the next Resync shows %q (visible %v)", got, h.s.caps.results.Visible())
	}
}

// foreground runs the app's "entered foreground" hook, as the window
// gaining focus does.
func (h *harness) foreground() {
	h.t.Helper()
	lc, ok := fyne.CurrentApp().Lifecycle().(interface{ OnEnteredForeground() func() })
	if !ok {
		h.t.Fatal("the test app's lifecycle has no OnEnteredForeground")
	}
	if f := lc.OnEnteredForeground(); f != nil {
		f()
	}
}

// QA bug 3: the banner says what a Resync would apply now, not what the
// last notice said: an edit undone before Resync, or applied by a Resync
// from elsewhere, clears it.
func TestDiskBannerFollowsThePendingDiff(t *testing.T) {
	for _, tc := range []struct {
		name string
		then func(h *harness)
	}{
		{"edit undone, window refocused", func(h *harness) {
			h.editHello("Greets people very warmly", "Greets people warmly")
			h.foreground()
		}},
		{"applied by a Resync from the CLI", func(h *harness) {
			if _, err := h.core.Resync(context.Background()); err != nil {
				h.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
			h.s.Show(hint.PageCapability, "hello")
			h.editHello("Greets people warmly", "Greets people very warmly")
			diff, err := h.core.Pending()
			if err != nil {
				t.Fatal(err)
			}
			h.s.onEvent(assistant.Event{Kind: assistant.EventDisk, Diff: diff})
			banner := h.s.caps.banner
			if !banner.Visible() || !strings.Contains(banner.Text(), "changed hello") {
				t.Fatalf("banner %v: %q", banner.Visible(), banner.Text())
			}
			tc.then(h)
			if banner.Visible() {
				t.Errorf("the banner still says %q with nothing to apply", banner.Text())
			}
		})
	}
}

// A banner still right stays when the window is refocused.
func TestDiskBannerStaysWhileTheEditDoes(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "hello")
	h.editHello("Greets people warmly", "Greets people very warmly")
	diff, err := h.core.Pending()
	if err != nil {
		t.Fatal(err)
	}
	h.s.onEvent(assistant.Event{Kind: assistant.EventDisk, Diff: diff})
	h.foreground()
	if b := h.s.caps.banner; !b.Visible() || !strings.Contains(b.Text(), "changed hello") {
		t.Errorf("after refocusing: banner %v: %q", b.Visible(), b.Text())
	}
}

// QA bug 4: a folder renamed with the capability's name kept is a move,
// and the Resync report says so (the pending diff the banner shows has no
// paths, so the banner cannot).
func TestResyncReportSaysAFolderMoved(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "hello")
	if err := os.Rename(filepath.Join(h.capsDir(), "hello"), filepath.Join(h.capsDir(), "greeting")); err != nil {
		t.Fatal(err)
	}
	h.tap("Resync")
	if got, want := h.s.caps.result.Text(), "Changed: hello\nMoved: hello (folder hello → greeting)"; got != want {
		t.Errorf("Resync shows %q, want %q", got, want)
	}
}

// The window builds the settings when first shown and replays the latest
// disk notice; an edit undone since then is not offered.
func TestReplayedDiskNoticeIsCheckedAgain(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.editHello("Greets people warmly", "Greets people very warmly")
	diff, err := h.core.Pending()
	if err != nil {
		t.Fatal(err)
	}
	h.editHello("Greets people very warmly", "Greets people warmly")
	h.s.Replay(assistant.Event{Kind: assistant.EventDisk, Diff: diff})
	if b := h.s.caps.banner; b.Visible() {
		t.Errorf("the replayed notice of an undone edit shows: %q", b.Text())
	}
}
