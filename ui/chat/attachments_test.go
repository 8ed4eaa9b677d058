package chat

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// An image resource attached as a chip travels as an image of the
// message: stored with it, described to this text-only model, and sent
// again by Retry after a first message no model answered (the window
// keeps that conversation, and Retry answers its message again).
func TestAttachedImageTravelsWithTheMessage(t *testing.T) {
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		retry bool
	}{{name: "sent"}, {name: "retried", retry: true}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			// A chip as the menu leaves it once the resource is read.
			h.chat.composer.menu.list = append(h.chat.composer.menu.list, &attached{server: "pics", uri: "pics://logo.png", label: "logo.png",
				contents: []mcp.ResourceContent{{URI: "pics://logo.png", MIMEType: "image/png", Blob: pic.Bytes()}}})
			e := h.chat.composer.entry
			h.win.Canvas().Focus(e)
			test.Type(e, "What is this?")
			if tc.retry {
				h.model.Reply(pt.Status(401, `{"error":{"message":"bad key"}}`))
			} else {
				h.model.Reply(pt.Text("I cannot see images."))
			}
			h.typeKey(fyne.KeyReturn)
			h.idle()
			if tc.retry {
				if h.chat.Current() == 0 {
					t.Fatal("the unanswered first message shown with Retry kept no conversation")
				}
				h.model.Reply(pt.Text("I cannot see images."))
				test.Tap(h.button("Retry"))
				h.idle()
			}
			var user store.Event
			for _, ev := range h.stored(h.chat.Current()) {
				if ev.Type == store.EventUserMessage {
					user = ev
				}
			}
			if !strings.HasPrefix(user.Text, "What is this?\n\n[Attached image pics://logo.png from MCP server pics (image/png, ") ||
				len(user.Images) != 1 || !bytes.Equal(user.Images[0].Data, pic.Bytes()) {
				t.Fatalf("stored message %q with %d images; want the text naming the image and the image", user.Text, len(user.Images))
			}
			reqs := h.model.Requests()
			if len(reqs) == 0 || !strings.Contains(string(reqs[len(reqs)-1].Body), "you cannot see it; tell the user this model cannot read images") {
				t.Error("the text-only model was not told of the image")
			}
		})
	}
}
