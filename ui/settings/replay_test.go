package settings

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// A disk change replayed into settings built after it shows the banner as
// the live event would have (the window builds the settings on first use).
func TestReplayShowsAMissedDiskChange(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	if h.s.caps.banner.Visible() {
		t.Fatal("a banner before any change")
	}
	// A real edit: the replayed notice is checked against the folders.
	h.editHello("Greets people warmly", "Greets people very warmly")
	h.s.Replay(assistant.Event{Kind: assistant.EventDisk, Diff: cerebellum.Diff{Changed: []string{"hello"}}})
	if b := h.s.caps.banner; !b.Visible() || !strings.Contains(b.Text(), "changed hello") {
		t.Errorf("banner %v: %q, want it to say hello changed", b.Visible(), b.Text())
	}
}
