//go:build smoke

package smoke

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// Where the reply's Select text is and where its first line of text
// starts, in a 1280×800 screen with a one-line first message (measured on
// screenshots, as versions_test.go's).
var (
	selectTextAt = env2("SELECT_XY", "962", "181")
	replyTextAt  = env2("REPLY_TEXT_XY", "306", "213")
	composerAt   = env2("COMPOSER_XY", "675", "645")
)

const selectReply = "Ferns reproduce by **spores**, not seeds.\n\nMosses do too."

// TestWindowSelectsTextInAReply: in the real window, Select text makes a
// reply selectable; a mouse drag over its first words and Ctrl+C copy
// them, and Ctrl+V puts them in the composer, which sends them: the
// message stored is the part selected. Then find marks a word in a long
// reply (a picture).
func TestWindowSelectsTextInAReply(t *testing.T) {
	requireDisplay(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text(selectReply))
	var long strings.Builder
	for i := range 40 {
		if i%9 == 4 {
			fmt.Fprintf(&long, "Paragraph %d: a fern's spores travel on the wind and need damp ground.\n\n", i+1)
		} else {
			fmt.Fprintf(&long, "Paragraph %d: fronds unroll from fiddleheads in spring.\n\n", i+1)
		}
	}
	model.Reply(providertest.Text(long.String()))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	w := launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke"), ws)
	send(t, ctx, "How do ferns reproduce?")
	show := func() string { return w.conversation(ctx) }
	waitFor(t, ctx, "the reply", func() bool { return strings.Contains(show(), "Mosses do too.") })
	time.Sleep(500 * time.Millisecond)

	click(t, ctx, selectTextAt[0], selectTextAt[1])
	time.Sleep(300 * time.Millisecond)
	// A drag over the first words, as a hand does it: press, move in
	// steps, release.
	x0, y := replyTextAt[0], replyTextAt[1]
	xdo(t, ctx, "mousemove", "--sync", x0, y, "mousedown", "1")
	var x int
	fmt.Sscan(x0, &x)
	for step := 1; step <= 6; step++ {
		xdo(t, ctx, "mousemove", "--sync", fmt.Sprint(x+step*25), y)
		time.Sleep(30 * time.Millisecond)
	}
	xdo(t, ctx, "mouseup", "1")
	time.Sleep(300 * time.Millisecond)
	shotIn(t, ctx, "VERSION_SHOTS", "select-text.png", true)
	xdo(t, ctx, "key", "ctrl+c")

	// Paste into the composer and send: the message the model gets is
	// what was copied.
	click(t, ctx, composerAt[0], composerAt[1])
	xdo(t, ctx, "key", "ctrl+v")
	time.Sleep(200 * time.Millisecond)
	xdo(t, ctx, "key", "Return")
	waitFor(t, ctx, "the pasted message", func() bool { return len(model.Requests()) >= 2 })
	pasted := model.Requests()[1].LastMessage().Content
	if pasted == "" || len(pasted) >= len(selectReply) || !strings.HasPrefix(selectReply, pasted) || !strings.HasPrefix(pasted, "Ferns") {
		t.Fatalf("the selection copied and pasted is %q; want the reply's first words", pasted)
	}
	t.Logf("selected, copied and pasted: %q", pasted)

	// Find in the long reply to the pasted message.
	waitFor(t, ctx, "the long reply", func() bool { return strings.Contains(show(), "Paragraph 40") })
	time.Sleep(500 * time.Millisecond)
	xdo(t, ctx, "key", "ctrl+f")
	time.Sleep(200 * time.Millisecond)
	xdo(t, ctx, "type", "--delay", "15", "spores")
	xdo(t, ctx, "key", "Return", "Return", "Return")
	time.Sleep(500 * time.Millisecond)
	shotIn(t, ctx, "VERSION_SHOTS", "find.png", true)
}
