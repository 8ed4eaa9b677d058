package chat

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // the decoders of the types a model API takes
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // WebP, which Go's image package does not read

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
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
// aligned under the call's arguments (and a user message's pictures,
// messagethumbs.go).
//
// Each picture is decoded when a drawn row shows it and kept only at
// thumbnail size: a canvas.Image made from the file's bytes keeps the
// whole decoded picture for as long as the object lives (3 MB for a
// 1024×768 photo), which for a conversation of pictures scrolled through
// came to 180 MB over the same conversation without them. A measuring
// row (quiet) decodes nothing: the thumbnail's size comes from the
// picture's header.
type thumbs struct {
	box   *fyne.Container
	shown []provider.Image
	// from is the stored event the shown pictures belong to (its
	// conversation and seq): pictures read from the store come without
	// their bytes (History's pages), so two rows' are told apart by it.
	from imageSource
	// drawn: the thumbnails hold decoded pictures (not the quiet
	// placeholders).
	drawn bool
	// slots are the thumbnails' objects, kept from one bind to the next:
	// the canvas keeps a texture for every image object drawn until it
	// has been gone for a minute, so new objects for each row scrolled
	// past held every picture's pixels twice (the Go image and its
	// texture); a slot's image object is given the next picture instead.
	slots []*thumbSlot
}

// thumbSlot is one thumbnail: its backdrop with a picture, or with a
// placeholder of the picture's size in a measuring row.
type thumbSlot struct {
	stack *fyne.Container
	bg    *canvas.Rectangle
	img   *canvas.Image
	ph    *canvas.Rectangle
}

func newThumbSlot() *thumbSlot {
	// A light backdrop: pictures with transparency (logos, icons) are
	// often dark drawings that vanish on the dark theme.
	sl := &thumbSlot{bg: canvas.NewRectangle(thumbBackdrop()), img: &canvas.Image{}, ph: canvas.NewRectangle(color.Transparent)}
	sl.bg.CornerRadius = 4
	sl.img.FillMode, sl.img.ScaleMode = canvas.ImageFillContain, canvas.ImageScaleSmooth
	sl.stack = container.NewStack(sl.bg, sl.ph)
	return sl
}

func newThumbs() *thumbs {
	t := &thumbs{box: container.NewHBox()}
	t.box.Hide()
	return t
}

// slot is thumbnail i's slot, made when first needed.
func (t *thumbs) slot(i int) *thumbSlot {
	for len(t.slots) <= i {
		t.slots = append(t.slots, newThumbSlot())
	}
	return t.slots[i]
}

// imageSource is where pictures without their bytes are read from: the
// stored event seq of conversation id, through read (History.ImageData).
type imageSource struct {
	id   store.ID
	seq  uint64
	read func(id store.ID, seq uint64, n int) ([]byte, error)
}

func (s imageSource) same(o imageSource) bool { return s.id == o.id && s.seq == o.seq }

// bytes is picture n's bytes: as given, or read from the store when the
// page it came in left them there; nil when there are none.
func (s imageSource) bytes(img provider.Image, n int) []byte {
	if len(img.Data) > 0 || s.read == nil || s.seq == 0 {
		return img.Data
	}
	data, err := s.read(s.id, s.seq, n)
	if err != nil {
		return nil
	}
	return data
}

// set shows images, rebuilding the row only when they changed (a card is
// bound again on every change of its call). Pictures without their bytes
// are read from src when drawn, and only then: a measuring row (quiet)
// gives them the thumbnail's height, all its size depends on.
func (t *thumbs) set(images []provider.Image, src imageSource, quiet bool) {
	if !sameImages(t.shown, images) || !t.from.same(src) || !quiet && !t.drawn {
		t.shown, t.from, t.drawn = images, src, !quiet
		objs := make([]fyne.CanvasObject, 0, len(images))
		for i, img := range images {
			sl := t.slot(len(objs))
			if quiet && len(img.Data) == 0 {
				sl.placeholder(fyne.NewSize(thumbHeight, thumbHeight))
				objs = append(objs, sl.stack)
				continue
			}
			data := src.bytes(img, i)
			if len(data) == 0 {
				continue
			}
			size := thumbSize(data)
			if quiet {
				sl.placeholder(size)
			} else {
				sl.picture(data, size, i)
			}
			objs = append(objs, sl.stack)
		}
		t.box.Objects = objs
	}
	setVisible(t.box, len(t.box.Objects) > 0)
	if !quiet {
		t.box.Refresh()
	}
}

// placeholder shows an empty box of size (a measuring row's).
func (sl *thumbSlot) placeholder(size fyne.Size) {
	sl.ph.SetMinSize(size)
	sl.stack.Objects = []fyne.CanvasObject{sl.bg, sl.ph}
}

// picture shows data, decoded at size; a type Go cannot decode is left
// to the canvas.
func (sl *thumbSlot) picture(data []byte, size fyne.Size, i int) {
	if pic := thumbImage(data, size); pic != nil {
		sl.img.Image, sl.img.Resource = pic, nil
	} else {
		sl.img.Image, sl.img.Resource = nil, fyne.NewStaticResource(fmt.Sprintf("result-image-%d", i), data)
	}
	sl.img.SetMinSize(size)
	sl.stack.Objects = []fyne.CanvasObject{sl.bg, sl.img}
	sl.img.Refresh()
}

// thumbScale is how many pixels a thumbnail keeps per unit of its size:
// enough for a screen at twice the usual density.
const thumbScale = 2

// thumbImage decodes a picture and shrinks it to size at thumbScale; nil
// when Go cannot decode it. Only quiet rows skip it (see thumbs).
func thumbImage(data []byte, size fyne.Size) image.Image {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	b := src.Bounds()
	w, h := int(size.Width*thumbScale), int(size.Height*thumbScale)
	if b.Dx() <= w && b.Dy() <= h {
		return src
	}
	f := min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()))
	dst := image.NewNRGBA(image.Rect(0, 0, max(1, int(float64(b.Dx())*f)), max(1, int(float64(b.Dy())*f))))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, xdraw.Src, nil)
	return dst
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

// imageSource is where the thumbnails of the conversation on screen read
// the bytes a page left in the store (the caller sets the event's seq).
func (c *Chat) imageSource() imageSource {
	if c.core == nil || c.cur == nil {
		return imageSource{}
	}
	return imageSource{id: c.cur.id, read: c.core.History().ImageData}
}
