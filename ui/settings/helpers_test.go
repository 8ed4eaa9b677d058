package settings

import (
	"archive/zip"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// harness is the settings view on a real core over a fresh workspace,
// with inline runners: everything a tap starts has finished, and shown,
// when the tap returns.
type harness struct {
	t        *testing.T
	ws       string
	core     *assistant.App
	win      fyne.Window
	s        *Settings
	copied   string
	navigate []string
}

// newHarness opens a workspace prepared by setup (nil: an empty one).
func newHarness(t *testing.T, setup func(ws string)) *harness {
	t.Helper()
	t.Setenv("LANG", "en_US.UTF-8")
	a := test.NewTempApp(t)
	h := &harness{t: t, ws: t.TempDir()}
	if setup != nil {
		setup(h.ws)
	}
	core, err := assistant.Open(assistant.Options{Workspace: h.ws, LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := core.Close(); err != nil {
			t.Errorf("closing the core: %v", err)
		}
	})
	h.core = core
	h.win = test.NewTempWindow(t, nil)
	env := &bridge.Env{
		App: a, Window: h.win, Core: core,
		Do:   func(fn func()) { fn() },
		Go:   func(fn func()) { fn() },
		Copy: func(s string) { h.copied = s },
	}
	h.s = New(env)
	env.Navigate = func(p hint.Page, target string) {
		h.navigate = append(h.navigate, string(p)+":"+target)
		h.s.Show(p, target)
	}
	t.Cleanup(h.s.Close)
	h.win.SetContent(h.s.Object())
	h.win.Resize(fyne.NewSize(1200, 900))
	return h
}

// capsDir is the workspace's capability folder.
func (h *harness) capsDir() string { return filepath.Join(h.ws, "brain", "cerebellum") }

// copyFixture copies testdata/skills/<name> into dst/<name>.
func copyFixture(t *testing.T, name, dst string) {
	t.Helper()
	src := filepath.Join("testdata", "skills", name)
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, name, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeZip writes an archive of files (path → content) and returns its path.
func writeZip(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[p]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// visible lists every object showing under o, widgets' renderers included.
func visible(o fyne.CanvasObject) []fyne.CanvasObject {
	if o == nil || !o.Visible() {
		return nil
	}
	out := []fyne.CanvasObject{o}
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, visible(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, visible(c)...)
		}
	}
	return out
}

// onScreen is everything showing in the window, dialogs on top included.
func (h *harness) onScreen() []fyne.CanvasObject {
	out := visible(h.win.Canvas().Content())
	for _, o := range h.win.Canvas().Overlays().List() {
		out = append(out, visible(o)...)
	}
	return out
}

// button finds the showing button whose text is text.
func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	for _, o := range h.onScreen() {
		if b, ok := asButton(o); ok && b.Text == text {
			return b
		}
	}
	h.t.Fatalf("no button %q on screen", text)
	return nil
}

// tap taps the showing button text.
func (h *harness) tap(text string) {
	h.t.Helper()
	b := h.button(text)
	if b.Disabled() {
		h.t.Fatalf("button %q is disabled", text)
	}
	test.Tap(b)
}

// screenText joins every showing label's text.
func (h *harness) screenText() string {
	var b strings.Builder
	for _, o := range h.onScreen() {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// row finds the capability row of name, scrolling the list to it.
func (h *harness) row(name string) *capRow {
	h.t.Helper()
	if i := h.s.caps.index(name); i >= 0 {
		h.s.caps.list.ScrollTo(i)
	}
	for _, o := range h.onScreen() {
		if r, ok := o.(*capRow); ok && r.Name() == name {
			return r
		}
	}
	h.t.Fatalf("no row for %s on screen", name)
	return nil
}

// state is a capability's state in the core.
func (h *harness) state(name string) string {
	c, err := h.core.Capabilities().Get(name)
	if err != nil {
		return "missing"
	}
	return string(c.State)
}

// tapCheck taps a check box in its box (a tap elsewhere in a tall row
// does nothing, as in the real window).
func tapCheck(c *escCheck) {
	m := c.MinSize()
	test.TapAt(c, fyne.NewPos(m.Height/2, c.Size().Height/2))
}
