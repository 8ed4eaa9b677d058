package chat

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // decoders for the thumbnails' sizes
	_ "image/jpeg" // (the canvas decodes the pictures itself)
	_ "image/png"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// thumbHeight is the height of a result image's thumbnail in a tool card;
// its width follows the picture's shape, at most thumbMaxWidth.
const (
	thumbHeight   = 96
	thumbMaxWidth = 240
)

// thumbBackdrop is drawn behind each thumbnail.
func thumbBackdrop() color.Color { return color.NRGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff} }

// thumbs shows the images of a tool result in a row of thumbnails, left
// aligned under the call's arguments.
type thumbs struct {
	box   *fyne.Container
	shown []provider.Image
}

func newThumbs() *thumbs {
	t := &thumbs{box: container.NewHBox()}
	t.box.Hide()
	return t
}

// set shows images, rebuilding the row only when they changed (a card is
// bound again on every change of its call).
func (t *thumbs) set(images []provider.Image, quiet bool) {
	if !sameImages(t.shown, images) {
		t.shown = images
		objs := make([]fyne.CanvasObject, 0, len(images))
		for i, img := range images {
			if len(img.Data) == 0 {
				continue
			}
			c := canvas.NewImageFromResource(fyne.NewStaticResource(fmt.Sprintf("result-image-%d", i), img.Data))
			c.FillMode = canvas.ImageFillContain
			c.ScaleMode = canvas.ImageScaleSmooth
			c.SetMinSize(thumbSize(img.Data))
			// A light backdrop: pictures with transparency (logos, icons)
			// are often dark drawings that vanish on the dark theme.
			bg := canvas.NewRectangle(thumbBackdrop())
			bg.CornerRadius = 4
			objs = append(objs, container.NewStack(bg, c))
		}
		t.box.Objects = objs
	}
	setVisible(t.box, len(t.box.Objects) > 0)
	if !quiet {
		t.box.Refresh()
	}
}

// thumbSize keeps the picture's shape at thumbHeight (a square when its
// size cannot be read, as for WebP).
func thumbSize(data []byte) fyne.Size {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return fyne.NewSize(thumbHeight, thumbHeight)
	}
	w := min(float32(thumbHeight)*float32(cfg.Width)/float32(cfg.Height), thumbMaxWidth)
	return fyne.NewSize(max(w, 16), thumbHeight)
}

func sameImages(a, b []provider.Image) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].MIMEType != b[i].MIMEType || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// exportImages is a result's images for the Markdown export: each inline
// as a data: URI, so the file stands alone.
func exportImages(images []provider.Image) string {
	var b strings.Builder
	for i, img := range images {
		if len(img.Data) == 0 {
			fmt.Fprintf(&b, ">\n> *(image %d, %s: not stored)*\n", i+1, img.MIMEType)
			continue
		}
		fmt.Fprintf(&b, ">\n> ![image %d (%s)](data:%s;base64,%s)\n", i+1, img.MIMEType, img.MIMEType, base64.StdEncoding.EncodeToString(img.Data))
	}
	return b.String()
}
