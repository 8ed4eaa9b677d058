package chat

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/wrasse-app/wrasse/brain/provider"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

func wide(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 40, 20))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A result's images show as thumbnails in its card, kept to the picture's
// shape; a card without images shows none, and binding again keeps them.
func TestToolCardThumbnails(t *testing.T) {
	h := newHarness(t)
	card := newToolCard(h.chat)
	pic := wide(t)
	withImage := &row{kind: rowTool, tool: &toolCall{id: "a", name: "everything__get-tiny-image", done: true, result: "The image:",
		images: []provider.Image{{MIMEType: "image/png", Data: pic}, {MIMEType: "image/png"}}}}
	card.bind(withImage)
	if !card.thumbs.box.Visible() || len(card.thumbs.box.Objects) != 1 {
		t.Fatalf("thumbnails shown %v, %d of them; want the one image with data", card.thumbs.box.Visible(), len(card.thumbs.box.Objects))
	}
	stack := card.thumbs.box.Objects[0].(*fyne.Container)
	img := stack.Objects[1].(*canvas.Image)
	if s := img.MinSize(); s.Height != thumbHeight || s.Width != 2*thumbHeight {
		t.Errorf("thumbnail %v; want %dx%d (the picture's 2:1 shape)", s, 2*thumbHeight, thumbHeight)
	}
	card.bind(withImage)
	if card.thumbs.box.Objects[0] != stack {
		t.Error("binding the same call again rebuilt the thumbnail")
	}
	if h := card.heightFor(600); h < thumbHeight {
		t.Errorf("card height %v leaves no room for the thumbnail", h)
	}
	card.bind(&row{kind: rowTool, tool: &toolCall{id: "b", name: "echo", done: true, result: "hi"}})
	if card.thumbs.box.Visible() {
		t.Error("a card without images shows thumbnails")
	}
}

func TestExportImages(t *testing.T) {
	md := exportMarkdown("Pics", []store.Event{
		{Seq: 1, Type: store.EventToolCall, ToolCallID: "a", ToolName: "everything__get-tiny-image", Arguments: []byte(`{}`)},
		{Seq: 2, Type: store.EventToolResult, ToolCallID: "a", Text: "The image:",
			Images: []provider.Image{{MIMEType: "image/png", Data: []byte("PNG")}, {MIMEType: "image/gif"}}},
	})
	for _, want := range []string{"> ![image 1 (image/png)](data:image/png;base64,UE5H)\n", "> *(image 2, image/gif: not stored)*\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
}

// A call ID a server uses again in a later reply gets its own card, not
// the earlier call's (seen with a model server that restarted its count).
func TestReusedCallIDGetsItsOwnCard(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"1+1"}`).WithID("call_1"))
	h.model.Reply(pt.Text("two"))
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"2+2"}`).WithID("call_1"))
	h.model.Reply(pt.Text("four"))
	h.send("1+1?")
	h.idle()
	h.send("2+2?")
	h.idle()
	cards := h.rowsOf(rowTool)
	if len(cards) != 2 || string(cards[0].tool.args) != `{"expression":"1+1"}` || string(cards[1].tool.args) != `{"expression":"2+2"}` ||
		!cards[0].tool.done || !cards[1].tool.done {
		t.Fatalf("%d cards; want one per call, each with its own arguments and result", len(cards))
	}
}
