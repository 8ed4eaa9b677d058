package chat

import (
	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// messageImages shows the pictures of a user's message under its text,
// as the tool cards show a result's (thumbs.go): a row of thumbnails at
// thumbHeight, each decoded by the canvas when drawn, at its drawn size,
// so a long conversation of pictures holds their stored bytes only for
// the loaded pages and pixels only for the rows in view (the list keeps
// no others). A message view binds it to each row it shows:
//
//	v.images.bind(r, v.c.imageSource(), v.quiet) // in messageView.bind, for every row
//
// with v.images.box placed in the view's column under the text.
type messageImages struct {
	*thumbs
}

func newMessageImages() *messageImages { return &messageImages{newThumbs()} }

// Object is the row of thumbnails (hidden without pictures).
func (m *messageImages) Object() fyne.CanvasObject { return m.box }

// bind shows r's pictures: a user message's, and none for any other row
// or a later piece of a long message (the first piece carries them).
func (m *messageImages) bind(r *row, src imageSource, quiet bool) {
	var images []provider.Image
	if r != nil && r.kind == rowUser && r.part == nil {
		images = r.images
		src.seq = r.seq
	}
	m.set(images, src, quiet)
}
