package chat

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// harness is a chat view on a real core whose model is the shared fake
// server. env.Do queues onto a channel that only the test goroutine
// drains (pump), so every widget change happens on the test goroutine, in
// the order the turn produced it; env.Go runs real goroutines, counted so
// the cleanup waits for them.
type harness struct {
	t     testing.TB
	core  *assistant.App
	model *providertest.Model
	env   *bridge.Env
	chat  *Chat
	win   fyne.Window
	queue chan func()
	// running counts the goroutines env.Go started. Not a WaitGroup: a
	// queued update that the cleanup runs may start one (a long
	// conversation's rest is read after a timer), and a WaitGroup forbids
	// Add from zero while someone waits.
	mu      sync.Mutex
	running int
	ended   chan struct{}

	copied    []string
	navigated []hint.Page
}

const waitLimit = 30 * time.Second

func newHarness(t testing.TB) *harness {
	t.Helper()
	test.NewTempApp(t)
	h := &harness{t: t, queue: make(chan func(), 4096), ended: make(chan struct{}, 1)}
	h.model = providertest.NewModel(t, providertest.OpenAI)
	core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h.core = core
	if _, err := core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", h.model.BaseURL(), "fake-model", 32000
		// A new workspace grants no folder; commands need one to run in.
		c.Folders = []string{t.TempDir()}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.env = &bridge.Env{
		App:      fyne.CurrentApp(),
		Core:     core,
		Do:       func(fn func()) { h.queue <- fn },
		Go:       h.spawn,
		Copy:     func(s string) { h.copied = append(h.copied, s) },
		OpenURL:  func(*url.URL) {},
		Navigate: func(p hint.Page, _ string) { h.navigated = append(h.navigated, p) },
	}
	h.win = test.NewTempWindow(t, widget.NewLabel(""))
	h.env.Window = h.win
	h.chat = New(h.env)
	h.win.SetContent(container.NewStack(container.NewHSplit(h.chat.Sidebar(), h.chat.Object()), tip.NewLayer()))
	h.win.Resize(fyne.NewSize(1100, 800))
	t.Cleanup(h.close)
	return h
}

// spawn runs fn on a goroutine of its own, counted so the cleanup waits
// for it.
func (h *harness) spawn(fn func()) {
	h.mu.Lock()
	h.running++
	h.mu.Unlock()
	go func() {
		defer func() {
			h.mu.Lock()
			h.running--
			h.mu.Unlock()
			select {
			case h.ended <- struct{}{}:
			default:
			}
		}()
		fn()
	}()
}

// settled reports whether no counted goroutine runs and no update is queued.
func (h *harness) settled() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.running == 0 && len(h.queue) == 0
}

// close stops turns, then runs queued updates until every goroutine
// ended (the updates may start more), before the core closes.
func (h *harness) close() {
	h.chat.Close()
	limit := time.After(waitLimit)
	for !h.settled() {
		select {
		case fn := <-h.queue:
			fn()
		case <-h.ended:
		case <-limit:
			h.t.Error("goroutines still running at the end of the test")
			return
		}
	}
	h.core.Close()
}

// until runs queued UI updates until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(waitLimit)
	for !cond() {
		select {
		case fn := <-h.queue:
			fn()
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// idle waits for the current conversation's turn to end and runs what it
// queued.
func (h *harness) idle() {
	h.t.Helper()
	h.until("the turn to end", func() bool { return !h.chat.running(h.chat.cur) })
	for {
		select {
		case fn := <-h.queue:
			fn()
		default:
			return
		}
	}
}

// send types text into the composer and presses Enter.
func (h *harness) send(text string) {
	h.t.Helper()
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)
	e.SetText("")
	test.Type(e, text)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// visible lists the objects drawn: the window's and its dialogs', not
// descending into hidden ones.
func (h *harness) visible() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		out = append(out, o)
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(h.win.Content())
	for _, o := range h.win.Canvas().Overlays().List() {
		walk(o)
	}
	return out
}

// texts are all the texts drawn in the window and its dialogs.
func (h *harness) texts() string {
	var b strings.Builder
	for _, o := range h.visible() {
		if t, ok := o.(*canvas.Text); ok {
			b.WriteString(t.Text)
			b.WriteByte('\n')
		}
		// A wrapped label's lines break where the width says: its whole
		// text too, so that a phrase split over two lines is found.
		if l, ok := o.(*widget.Label); ok && l.Wrapping != fyne.TextWrapOff {
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (h *harness) shows(s string) bool { return strings.Contains(h.texts(), s) }

// button finds a visible button by its text, in the window or a dialog.
func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	objs := h.visible()
	for i := len(objs) - 1; i >= 0; i-- { // dialogs first
		if b, ok := objs[i].(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	h.t.Fatalf("no button %q is shown; the window shows:\n%s", text, h.texts())
	return nil
}

// rowsOf lists the current conversation's rows of one kind.
func (h *harness) rowsOf(k rowKind) []*row {
	var out []*row
	for i := range h.chat.rowCount() {
		if r := h.chat.rowAt(i); r.kind == k {
			out = append(out, r)
		}
	}
	return out
}

// storedTypes are the stored events' types of conversation id.
func (h *harness) stored(id store.ID) []store.Event {
	h.t.Helper()
	ev, err := h.core.History().Events(id)
	if err != nil {
		h.t.Fatal(err)
	}
	return ev
}
