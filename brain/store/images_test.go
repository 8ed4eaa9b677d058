package store

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// imageCount is how many image blobs the database holds.
func imageCount(t *testing.T, db *DB) int {
	t.Helper()
	n := 0
	if err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketImages)).ForEach(func(_, _ []byte) error { n++; return nil })
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestToolResultImages(t *testing.T) {
	db, path, clock := openTest(t)
	if err := db.SetSecret("api_key", "sk-secret-value-123"); err != nil {
		t.Fatal(err)
	}
	c := mustConv(t, db, "m")
	big := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 64<<10) // 256 KB
	small := []byte("\x89PNG small")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "show me"})
	mustAppend(t, db, c.ID, Event{Type: EventToolCall, ToolCallID: "t1", ToolName: "pic"})
	res := mustAppend(t, db, c.ID, Event{Type: EventToolResult, ToolCallID: "t1", ToolName: "pic", Text: "key sk-secret-value-123",
		Images: []provider.Image{{MIMEType: "image/png", Data: big}, {MIMEType: "image/png", Data: small}}})

	check := func(t *testing.T, db *DB, what string) {
		t.Helper()
		events := mustEvents(t, db, c.ID)
		e := events[len(events)-1]
		if len(e.Images) != 2 || !bytes.Equal(e.Images[0].Data, big) || !bytes.Equal(e.Images[1].Data, small) || e.Images[1].MIMEType != "image/png" {
			t.Fatalf("%s: images not read back (%d)", what, len(e.Images))
		}
		if strings.Contains(e.Text, "sk-secret") {
			t.Errorf("%s: text %q not redacted", what, e.Text)
		}
		one, err := db.Event(c.ID, res.Seq)
		if err != nil || len(one.Images) != 2 || !bytes.Equal(one.Images[1].Data, small) {
			t.Errorf("%s: Event = %d images, %v", what, len(one.Images), err)
		}
		msgs := ToMessages(events)
		if m := msgs[len(msgs)-1]; m.Role != provider.RoleTool || len(m.Images) != 2 || !bytes.Equal(m.Images[0].Data, big) {
			t.Errorf("%s: ToMessages lost the images: %+v", what, m.Role)
		}
	}
	check(t, db, "after append")

	// The event itself stays small: the bytes are not in its JSON.
	if err := db.bolt.View(func(tx *bolt.Tx) error {
		raw := eventBucket(tx, c.ID).Get(encodeU64(res.Seq))
		if len(raw) > 1024 || !strings.Contains(string(raw), `"images":[{"mimeType":"image/png","size":262144}`) {
			t.Errorf("stored event is %d bytes: %.300s", len(raw), raw)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	db = reopen(t, db, path, clock)
	check(t, db, "after reopening")

	// An update replaces the images.
	upd, _ := db.Event(c.ID, res.Seq)
	upd.Images = upd.Images[1:]
	if err := db.UpdateEvent(c.ID, upd); err != nil {
		t.Fatal(err)
	}
	if e, _ := db.Event(c.ID, res.Seq); len(e.Images) != 1 || !bytes.Equal(e.Images[0].Data, small) || imageCount(t, db) != 1 {
		t.Errorf("after update: %d images, %d blobs", len(e.Images), imageCount(t, db))
	}

	// Truncating or deleting removes the bytes.
	mustAppend(t, db, c.ID, Event{Type: EventToolResult, ToolCallID: "t2", Images: []provider.Image{{MIMEType: "image/gif", Data: []byte("GIF89a")}}})
	other := mustConv(t, db, "m")
	mustAppend(t, db, other.ID, Event{Type: EventToolResult, ToolCallID: "t3", Images: []provider.Image{{MIMEType: "image/gif", Data: []byte("GIF89a")}}})
	if n := imageCount(t, db); n != 3 {
		t.Fatalf("%d blobs; want 3", n)
	}
	if _, err := db.TruncateFrom(c.ID, res.Seq+1); err != nil {
		t.Fatal(err)
	}
	if n := imageCount(t, db); n != 2 {
		t.Errorf("after truncating the last event: %d blobs; want 2", n)
	}
	if err := db.DeleteConversation(c.ID); err != nil {
		t.Fatal(err)
	}
	if n := imageCount(t, db); n != 1 {
		t.Errorf("after deleting the conversation: %d blobs; want the other conversation's 1", n)
	}
	if e := mustEvents(t, db, other.ID); len(e[0].Images) != 1 || string(e[0].Images[0].Data) != "GIF89a" {
		t.Errorf("the other conversation's image: %+v", e[0].Images)
	}
}

// A blob gone missing (a damaged file) reads as an image without data,
// which the providers describe instead of sending.
func TestMissingImageBytes(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	e := mustAppend(t, db, c.ID, Event{Type: EventToolResult, ToolCallID: "t1", Images: []provider.Image{{MIMEType: "image/png", Data: []byte("x")}}})
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketImages)).Delete(imageKey(c.ID, e.Seq, 0))
	}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Event(c.ID, e.Seq)
	if err != nil || len(got.Images) != 1 || got.Images[0].MIMEType != "image/png" || got.Images[0].Data != nil {
		t.Errorf("Event = %+v, %v; want one image without data", got.Images, err)
	}
}

// A page for the window carries its images' types but not their bytes;
// ImageData reads one picture's bytes when it is drawn.
func TestPageBeforeLeavesImageBytesInTheFile(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	pic := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1024)
	u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "look", Images: []provider.Image{{MIMEType: "image/png", Data: pic}}})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "seen"})
	page, err := db.PageBefore(c.ID, 0, 10)
	if err != nil || len(page) != 2 {
		t.Fatalf("PageBefore = %d events, %v", len(page), err)
	}
	if im := page[0].Images; len(im) != 1 || im[0].MIMEType != "image/png" || im[0].Data != nil {
		t.Fatalf("the page's image = %+v; want its type and no bytes", im)
	}
	data, err := db.ImageData(c.ID, u.Seq, 0)
	if err != nil || !bytes.Equal(data, pic) {
		t.Fatalf("ImageData = %d bytes, %v; want the stored %d", len(data), err, len(pic))
	}
	if _, err := db.ImageData(c.ID, u.Seq, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("ImageData of a picture that is not there = %v; want ErrNotFound", err)
	}
	if full, _ := db.EventsBefore(c.ID, 0, 10); !bytes.Equal(full[0].Images[0].Data, pic) {
		t.Error("EventsBefore no longer reads the bytes")
	}
}
