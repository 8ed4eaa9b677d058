package chat

import (
	"sync"
	"testing"
	"time"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// tickClock is a clock the test moves by hand; Tick runs what Every
// registered, as a ticker's goroutine would.
type tickClock struct {
	mu    sync.Mutex
	now   time.Time
	every time.Duration
	fn    func()
	stops int
}

func (f *tickClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *tickClock) Every(d time.Duration, fn func()) (stop func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.every, f.fn = d, fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fn = nil
		f.stops++
	}
}

// advance moves the clock and ticks once.
func (f *tickClock) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	fn := f.fn
	f.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// QA bug 8: the sidebar's "N min ago" moves on while the window is idle,
// on a coarse tick, without a reload.
func TestSidebarTimesMoveOnWhileIdle(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("hello"))
	h.send("hi")
	h.idle()
	convs := h.chat.sidebar.convs
	if len(convs) != 1 {
		t.Fatalf("sidebar lists %d conversations, want 1", len(convs))
	}
	clk := &tickClock{now: convs[0].Updated.Add(10 * time.Second)}
	h.chat.setClock(clk)
	drain := func() {
		for {
			select {
			case fn := <-h.queue:
				fn()
			default:
				return
			}
		}
	}
	drain()
	if clk.every <= 0 || clk.every > time.Minute {
		t.Errorf("the sidebar ticks every %v, want at most a minute", clk.every)
	}
	if !h.shows("just now") {
		t.Fatalf("a new conversation does not read just now:\n%s", h.texts())
	}
	clk.advance(3 * time.Minute)
	drain()
	if !h.shows("3 min ago") {
		t.Errorf("after 3 idle minutes the sidebar reads:\n%s", h.texts())
	}
	clk.advance(2 * time.Hour)
	drain()
	if !h.shows("2 h ago") {
		t.Errorf("after 2 idle hours the sidebar reads:\n%s", h.texts())
	}
	h.chat.Close()
	if clk.stops != 1 {
		t.Errorf("Close stopped the tick %d times, want 1", clk.stops)
	}
}
