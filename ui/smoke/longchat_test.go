//go:build smoke

package smoke

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// longMessages is the length of the conversation Ctrl+Home crosses.
const longMessages = 500

// TestWindowCtrlHomeShowsTheFirstMessage opens a 500-message conversation
// in the real window (a click on its sidebar row), presses Ctrl+Home with
// the composer focused, as after opening it, and waits for a frame that
// shows message 1 at the top; Ctrl+End goes back. The window reports
// what it painted through its frame log (WRASSE_FRAME_LOG: each frame's
// conversation and whether its first message is at the top), so the test
// reads what was drawn, not the chat's state.
func TestWindowCtrlHomeShowsTheFirstMessage(t *testing.T) {
	requireDisplay(t)
	ctx, bin := begin(t, 3*time.Minute)

	ws := newWorkspace(t, openAIConfig("http://127.0.0.1:9/v1"))
	writeLongConversation(t, ws, longMessages)

	frames := filepath.Join(t.TempDir(), "frames.log")
	launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke", "WRASSE_FRAME_LOG="+frames), ws)

	// The sidebar's first row: the window sits at the screen's corner
	// (no window manager under Xvfb), as wrasse-bench's window figures
	// click it.
	click(t, ctx, "140", "170") // the first row, under its date section's title
	waitFor(t, ctx, "the conversation to open at its end", func() bool {
		f, ok := lastFrame(frames)
		return ok && f.conv != 0 && !f.first
	})
	xdo(t, ctx, "key", "ctrl+Home")
	waitFor(t, ctx, "a frame showing message 1 after Ctrl+Home", func() bool {
		f, ok := lastFrame(frames)
		return ok && f.first
	})
	if out := *shotFlag; out != "" {
		time.Sleep(time.Second) // a picture: let the buttons' state paint
		if err := screenshot(ctx, out, false); err != nil {
			t.Error(err)
		}
	}
	xdo(t, ctx, "key", "ctrl+End")
	waitFor(t, ctx, "Ctrl+End to leave the first message", func() bool {
		f, ok := lastFrame(frames)
		return ok && !f.first
	})
	if os.Getenv("SHOTS") != "" {
		// The picture for the docs: scrolled up a little (ten notches),
		// both buttons shown, the pointer on the top one for its tip.
		xdo(t, ctx, "mousemove", "--sync", "700", "350", "click", "--repeat", "10", "--delay", "30", "4")
		xdo(t, ctx, "mousemove", "--sync", os.Getenv("TOP_X"), os.Getenv("TOP_Y"))
		time.Sleep(time.Second)
		shotIn(t, ctx, "SHOTS", "long-conversation-jump.png", false)
	}
}

// writeLongConversation stores a conversation of n messages, questions
// and Markdown answers, numbered from 0.
func writeLongConversation(t *testing.T, ws string, n int) {
	t.Helper()
	core, err := assistant.Open(assistant.Options{Workspace: ws, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	db := core.Engine().DB
	c, err := db.CreateConversation("test-model")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		e := store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Question %d: how do I do the thing number %d well?", i, i)}
		if i%2 == 1 {
			e = store.Event{Type: store.EventAssistantText, Model: "test-model",
				Text: fmt.Sprintf("## Answer %d\n\nIn **three** steps:\n\n1. Read the `docs`.\n2. Try it.\n3. Check it.\n", i)}
		}
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			t.Fatal(err)
		}
	}
}

// paintedFrame is a line of the window's frame log.
type paintedFrame struct {
	conv  uint64
	first bool
}

// lastFrame is the last frame the window logged.
func lastFrame(path string) (paintedFrame, bool) {
	f, err := os.Open(path)
	if err != nil {
		return paintedFrame{}, false
	}
	defer f.Close()
	var last paintedFrame
	found := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ns int64
		var conv uint64
		first := 0
		if n, _ := fmt.Sscanf(sc.Text(), "frame %d %d %d", &ns, &conv, &first); n == 3 {
			last, found = paintedFrame{conv: conv, first: first == 1}, true
		}
	}
	return last, found
}
