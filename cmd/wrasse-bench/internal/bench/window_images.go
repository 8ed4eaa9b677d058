package bench

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The window with image attachments in history (issue 27): a conversation
// whose 200 user messages each carry a photo-sized picture against the same
// conversation without them. Thumbnails are decoded when their rows are
// drawn, at thumbnail size, and the list keeps only the rows in view, so
// the pictures must cost little more than their stored bytes of the pages
// loaded.
const (
	imageAttachments = 200
	imagesMemTarget  = 50 // MB over the conversation without images
	// The pictures: 1024×768 JPEGs, about what a phone's screenshot or a
	// resized photo weighs (a 3 MB bitmap each when decoded whole).
	benchImageW, benchImageH = 1024, 768
)

// windowImages opens each conversation in a fresh window on ws (whose
// wrasse.db it replaces), scrolls through it to its first message with the
// wheel so every thumbnail is drawn once, and compares resident memory.
func (r *runner) windowImages(ctx context.Context, bin, ws string) []Row {
	const measure = "resident memory, 200 image attachments in history"
	plain, err := r.imageWindowRSS(ctx, bin, ws, false)
	if err != nil {
		return []Row{errorRow(sectionWindow, measure, fmt.Errorf("the conversation without images: %w", err))}
	}
	withImages, err := r.imageWindowRSS(ctx, bin, ws, true)
	if err != nil {
		return []Row{errorRow(sectionWindow, measure, err)}
	}
	over := MB(withImages.total - plain.total)
	return []Row{{Section: sectionWindow, Measure: measure, Value: fmt.Sprintf("%s (+%.1f MB)", FormatMB(withImages.total), over),
		Number: over, Unit: "MB", Baseline: "same conversation without images " + FormatMB(plain.total),
		Target: fmt.Sprintf("≤ %d MB over it", imagesMemTarget), Pass: verdict(over <= imagesMemTarget),
		Note: fmt.Sprintf("VmRSS after opening a %d-message conversation whose %d user messages each carry a %d×%d JPEG and wheeling up to its first message, "+
			"against the same texts without pictures, each in a fresh window: %s", 2*imageAttachments, imageAttachments, benchImageW, benchImageH, withImages)}}
}

// imageWindowRSS writes the conversation into ws, opens it in a window,
// scrolls to its top and reads the window's resident set.
func (r *runner) imageWindowRSS(ctx context.Context, bin, ws string, images bool) (residentSet, error) {
	dir, cleanup, err := scratchDir(r.tmp)
	if err != nil {
		return residentSet{}, err
	}
	defer cleanup()
	scratch := filepath.Join(dir, "images.db")
	if err := writeImageHistory(scratch, images); err != nil {
		return residentSet{}, err
	}
	data, err := os.ReadFile(scratch)
	if err != nil {
		return residentSet{}, err
	}
	db := filepath.Join(ws, "wrasse.db")
	if err := os.WriteFile(db, data, 0o600); err != nil {
		return residentSet{}, err
	}
	if err := dropCached(db); err != nil {
		return residentSet{}, err
	}
	w, err := startWindow(ctx, bin, ws, r.tmp)
	if err != nil {
		return residentSet{}, err
	}
	defer w.stop()
	if err := xdotool(ctx, "mousemove", "--sync", strconv.Itoa(firstConvX), strconv.Itoa(firstConvY), "click", "1"); err != nil {
		return residentSet{}, err
	}
	if _, err := w.waitFrame(ctx, func(f frame) bool { return f.conv != 0 }); err != nil {
		return residentSet{}, err
	}
	if err := xdotool(ctx, "mousemove", "--sync", strconv.Itoa(listX), strconv.Itoa(listY)); err != nil {
		return residentSet{}, err
	}
	// Enough wheel steps to pass every message at a few lines a step.
	if err := xdotool(ctx, "click", "--repeat", "1500", "--delay", "4", "4"); err != nil {
		return residentSet{}, err
	}
	if err := sleepCtx(ctx, 3*time.Second); err != nil {
		return residentSet{}, err
	}
	return w.rss(), nil
}

// writeImageHistory writes one conversation of imageAttachments user
// messages, each with a different picture when images is set, and their
// replies.
func writeImageHistory(path string, images bool) error {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	db, err := store.Open(path, store.Options{Clock: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		return err
	}
	c, err := db.CreateConversation("bench-model")
	if err != nil {
		db.Close()
		return err
	}
	for i := range imageAttachments {
		u := store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Picture %d: what is in it?", i)}
		if images {
			pic, err := benchPicture(i)
			if err != nil {
				db.Close()
				return err
			}
			u.Images = []provider.Image{{MIMEType: "image/jpeg", Data: pic}}
		}
		reply := store.Event{Type: store.EventAssistantText, Model: "bench-model", Text: fmt.Sprintf("Picture %d shows %s", i, historyText)}
		for _, e := range []store.Event{u, reply} {
			if _, err := db.AppendEvent(c.ID, e); err != nil {
				db.Close()
				return fmt.Errorf("append message %d: %w", i, err)
			}
		}
	}
	return db.Close()
}

// benchPicture is picture n: gradients and a grain that differ by n, so
// that no two compress alike, encoded as a JPEG at quality 85.
func benchPicture(n int) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, benchImageW, benchImageH))
	seed := uint32(n*2654435761 + 1)
	for y := range benchImageH {
		for x := range benchImageW {
			seed ^= seed << 13
			seed ^= seed >> 17
			seed ^= seed << 5
			grain := uint8(seed & 0x1f)
			img.Set(x, y, color.RGBA{R: uint8(x*255/benchImageW) + grain, G: uint8(y*255/benchImageH) + uint8(n), B: uint8((x+y+n*7)%256) ^ grain, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
