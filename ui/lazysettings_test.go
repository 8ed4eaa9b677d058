package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// visibilityLog is a settings object that records Show and Hide.
type visibilityLog struct {
	widget.Label
	calls *[]string
}

func (v *visibilityLog) Show() { *v.calls = append(*v.calls, "show"); v.Label.Show() }
func (v *visibilityLog) Hide() { *v.calls = append(*v.calls, "hide"); v.Label.Hide() }

// replayingSettings is fakeSettings that also takes missed events.
type replayingSettings struct {
	fakeSettings
	obj      *visibilityLog
	replayed []assistant.Event
	closed   bool
}

func (r *replayingSettings) Object() fyne.CanvasObject  { return r.obj }
func (r *replayingSettings) Replay(e assistant.Event)   { r.replayed = append(r.replayed, e) }
func (r *replayingSettings) Close()                     { r.closed = true }
func (r *replayingSettings) HandleDrop(uris []fyne.URI) { r.fakeSettings.HandleDrop(uris) }
func (r *replayingSettings) Show(p hint.Page, t string) { r.fakeSettings.Show(p, t) }

type lazyHarness struct {
	lazy   *lazySettings
	builds int
	real   *replayingSettings
	calls  []string
}

func newLazyHarness(t *testing.T) *lazyHarness {
	t.Helper()
	test.NewTempApp(t)
	h := &lazyHarness{}
	env := &bridge.Env{Do: func(f func()) { f() }, Go: func(f func()) { f() }}
	h.lazy = newLazySettings(env, func() settingsView {
		h.builds++
		h.real = &replayingSettings{fakeSettings: fakeSettings{page: hint.PageModel}}
		h.real.obj = &visibilityLog{calls: &h.calls}
		h.real.obj.ExtendBaseWidget(h.real.obj)
		return h.real
	})
	return h
}

// Each way into the settings builds them once, on first use; a frame shown
// passes Show and Hide on, starting hidden as the eagerly built view did.
func TestLazySettingsBuildOnFirstUse(t *testing.T) {
	cases := []struct {
		name  string
		use   func(h *lazyHarness)
		calls []string // what the built object saw over two uses
	}{
		{name: "the frame shown", use: func(h *lazyHarness) { h.lazy.Object().Show() }, calls: []string{"hide", "show", "show"}},
		{name: "a page shown", use: func(h *lazyHarness) { h.lazy.Show(hint.PageCapabilities, "web") }, calls: []string{"hide"}},
		{name: "a drop", use: func(h *lazyHarness) { h.lazy.HandleDrop(nil) }, calls: []string{"hide"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newLazyHarness(t)
			h.lazy.Object().Hide() // the shell hides the settings at start
			if h.builds != 0 || h.lazy.Page() != hint.PageNone {
				t.Fatalf("built %d times before use, page %q", h.builds, h.lazy.Page())
			}
			tc.use(h)
			tc.use(h)
			if h.builds != 1 {
				t.Errorf("built %d times, want 1", h.builds)
			}
			if !slices.Equal(h.calls, tc.calls) {
				t.Errorf("the settings' object saw %v, want %v", h.calls, tc.calls)
			}
			if h.lazy.Page() != h.real.page {
				t.Errorf("page %q after the build, want the real settings' %q", h.lazy.Page(), h.real.page)
			}
		})
	}
}

// The latest disk change seen before the build is replayed once; one that
// arrives after the build is passed on.
func TestLazySettingsReplayTheLatestDiskChange(t *testing.T) {
	h := newLazyHarness(t)
	first := assistant.Event{Kind: assistant.EventDisk, Diff: cerebellum.Diff{Added: []string{"a"}}}
	latest := assistant.Event{Kind: assistant.EventDisk, Diff: cerebellum.Diff{Changed: []string{"b"}}}
	h.lazy.missed(first)
	h.lazy.missed(latest)
	h.lazy.Object().Show()
	if len(h.real.replayed) != 1 || !slices.Equal(h.real.replayed[0].Diff.Changed, []string{"b"}) {
		t.Fatalf("replayed %+v, want only the latest change", h.real.replayed)
	}
	late := assistant.Event{Kind: assistant.EventDisk, Diff: cerebellum.Diff{Removed: []string{"c"}}}
	h.lazy.missed(late)
	if len(h.real.replayed) != 2 {
		t.Errorf("an event queued before the build but run after it was not passed on: %+v", h.real.replayed)
	}
	h.lazy.Close()
	if !h.real.closed {
		t.Error("Close did not close the built settings")
	}
}

// Close before any use builds nothing.
func TestLazySettingsCloseUnbuilt(t *testing.T) {
	h := newLazyHarness(t)
	h.lazy.Close()
	if h.builds != 0 {
		t.Errorf("Close built the settings %d times", h.builds)
	}
}
