package store

import (
	"errors"
	"maps"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// texts are the events' texts joined, to compare histories at a glance.
func texts(evs []Event) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Text)
	}
	return strings.Join(out, "|")
}

// edit keeps the events from seq on as a version and appends the new
// message and reply, as an edit or a regenerate does.
func edit(t *testing.T, db *DB, id ID, seq uint64, msg, reply string) Event {
	t.Helper()
	if _, err := db.KeepVersion(id, seq); err != nil {
		t.Fatalf("KeepVersion(%d): %v", seq, err)
	}
	u := mustAppend(t, db, id, Event{Type: EventUserMessage, Text: msg})
	mustAppend(t, db, id, Event{Type: EventAssistantText, Text: reply})
	return u
}

func TestVersionsSwitchBackAndForth(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "m")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "hello"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "hi"})
	u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "name a fern",
		Images: []provider.Image{{MIMEType: "image/png", Data: []byte("png-1")}}})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "bracken"})
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "another"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "maidenhair"})

	// An edit: version 2 of 2.
	u2 := edit(t, db, c.ID, u.Seq, "name a moss", "sphagnum")
	// A regenerate of the edited message: version 3 of 3.
	u3 := edit(t, db, c.ID, u2.Seq, "name a moss", "haircap")
	if got := texts(mustEvents(t, db, c.ID)); got != "hello|hi|name a moss|haircap" {
		t.Fatalf("live after edit and regenerate = %q", got)
	}
	assertVersions(t, db, c.ID, map[uint64]Version{u3.Seq: {3, 3}})

	steps := []struct {
		n    int
		want string
		head uint64
	}{
		{1, "hello|hi|name a fern|bracken|another|maidenhair", u.Seq},
		{2, "hello|hi|name a moss|sphagnum", u2.Seq},
		{3, "hello|hi|name a moss|haircap", u3.Seq},
		{1, "hello|hi|name a fern|bracken|another|maidenhair", u.Seq},
	}
	at := u3.Seq
	for _, s := range steps {
		head, err := db.SwitchVersion(c.ID, at, s.n)
		if err != nil || head != s.head {
			t.Fatalf("SwitchVersion(%d, %d) = %d, %v; want %d", at, s.n, head, err, s.head)
		}
		at = head
		evs := mustEvents(t, db, c.ID)
		if got := texts(evs); got != s.want {
			t.Fatalf("after switching to %d: %q, want %q", s.n, got, s.want)
		}
		if got, _ := db.GetConversation(c.ID); got.EventCount != len(evs) {
			t.Fatalf("EventCount = %d, want %d", got.EventCount, len(evs))
		}
		assertVersions(t, db, c.ID, map[uint64]Version{head: {s.n, 3}})
	}

	// The kept version's picture came back with it, and all of it
	// survives a restart.
	db = reopen(t, db, path, clock)
	evs := mustEvents(t, db, c.ID)
	if len(evs[2].Images) != 1 || string(evs[2].Images[0].Data) != "png-1" {
		t.Fatalf("image after the switch and a restart: %+v", evs[2].Images)
	}
	assertVersions(t, db, c.ID, map[uint64]Version{u.Seq: {1, 3}})
	if _, err := db.SwitchVersion(c.ID, u.Seq, 2); err != nil {
		t.Fatal(err)
	}
	if got := texts(mustEvents(t, db, c.ID)); got != "hello|hi|name a moss|sphagnum" {
		t.Fatalf("after a restart, version 2 = %q", got)
	}
	// Search sees the live version only.
	if hits, err := db.Search("sphagnum", 10); err != nil || len(hits) != 1 {
		t.Fatalf("search for the live version = %v, %v", hits, err)
	}
	if hits, _ := db.Search("maidenhair", 10); len(hits) != 0 {
		t.Fatalf("search found a kept version: %v", hits)
	}

	for _, n := range []int{0, 4} {
		if _, err := db.SwitchVersion(c.ID, u2.Seq, n); !errors.Is(err, ErrNoVersion) {
			t.Fatalf("SwitchVersion to %d = %v, want ErrNoVersion", n, err)
		}
	}
}

func TestVersionsNested(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	a := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "a"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "A"})
	b := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "b"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "B"})
	b2 := edit(t, db, c.ID, b.Seq, "b2", "B2")
	// Editing the first message keeps everything after it, the edit of b
	// included, as version 1 of the start.
	a2 := edit(t, db, c.ID, a.Seq, "a2", "A2")
	assertVersions(t, db, c.ID, map[uint64]Version{a2.Seq: {2, 2}})
	if _, err := db.SwitchVersion(c.ID, a2.Seq, 1); err != nil {
		t.Fatal(err)
	}
	// Back on version 1 of the start, b's versions are there again.
	if got := texts(mustEvents(t, db, c.ID)); got != "a|A|b2|B2" {
		t.Fatalf("live = %q", got)
	}
	assertVersions(t, db, c.ID, map[uint64]Version{a.Seq: {1, 2}, b2.Seq: {2, 2}})
	if _, err := db.SwitchVersion(c.ID, b2.Seq, 1); err != nil {
		t.Fatal(err)
	}
	if got := texts(mustEvents(t, db, c.ID)); got != "a|A|b|B" {
		t.Fatalf("live = %q", got)
	}
	// Export reads the others.
	others, err := db.VersionEvents(c.ID, a.Seq)
	if err != nil || texts(others[2]) != "a2|A2" || len(others[1]) != 0 {
		t.Fatalf("VersionEvents = %v, %v", others, err)
	}
}

func TestVersionsTitleFollowsFirstMessage(t *testing.T) {
	db, _, _ := openTest(t)
	tests := []struct {
		name    string
		rename  string
		want    string
		wantOld string
	}{
		{"automatic title follows", "", "what is a spore", "what is a fern"},
		{"a title the person gave stays", "Botany", "Botany", "Botany"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustConv(t, db, "m")
			u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "what is a fern"})
			mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "a plant"})
			if tt.rename != "" {
				if err := db.SetTitle(c.ID, tt.rename); err != nil {
					t.Fatal(err)
				}
			}
			u2 := edit(t, db, c.ID, u.Seq, "what is a spore", "a cell")
			if got, _ := db.GetConversation(c.ID); got.Title != tt.want {
				t.Fatalf("title after the edit = %q, want %q", got.Title, tt.want)
			}
			if _, err := db.SwitchVersion(c.ID, u2.Seq, 1); err != nil {
				t.Fatal(err)
			}
			if got, _ := db.GetConversation(c.ID); got.Title != tt.wantOld {
				t.Fatalf("title after switching back = %q, want %q", got.Title, tt.wantOld)
			}
		})
	}
}

func TestVersionsGoWithTheirConversation(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "draw",
		Images: []provider.Image{{MIMEType: "image/png", Data: []byte("png")}}})
	edit(t, db, c.ID, u.Seq, "draw again", "ok")
	if err := db.DeleteConversation(c.ID); err != nil {
		t.Fatal(err)
	}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketVersions)).Bucket(conversationKey(c.ID)) != nil {
			t.Error("the versions bucket of a deleted conversation is still there")
		}
		if k, _ := tx.Bucket([]byte(bucketImages)).Cursor().First(); k != nil {
			t.Errorf("an image of a deleted conversation is still there: %x", k)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// TruncateFrom, which keeps nothing, drops the versions after what it
	// removes with their images.
	c = mustConv(t, db, "m")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "one"})
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "two"})
	u = mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "three",
		Images: []provider.Image{{MIMEType: "image/png", Data: []byte("png")}}})
	edit(t, db, c.ID, u.Seq, "three, edited", "four")
	if _, err := db.TruncateFrom(c.ID, r.Seq); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Versions(c.ID); len(v) != 0 {
		t.Fatalf("versions after truncating before them: %v", v)
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if cb := tx.Bucket([]byte(bucketVersions)).Bucket(conversationKey(c.ID)); cb != nil && cb.Bucket(encodeU64(r.Seq)) != nil {
			t.Error("the versions after a truncated event are still there")
		}
		if k, _ := tx.Bucket([]byte(bucketImages)).Cursor().First(); k != nil {
			t.Errorf("an image of a dropped version is still there: %x", k)
		}
		return nil
	})
}

func assertVersions(t *testing.T, db *DB, id ID, want map[uint64]Version) {
	t.Helper()
	got, err := db.Versions(id)
	if err != nil || !maps.Equal(got, want) {
		t.Fatalf("Versions = %v, %v; want %v", got, err, want)
	}
}

// TestVersionsAfterUpgrade: a file of schema 3 (no versions bucket) is
// upgraded on open, and an edit then keeps a version in it.
func TestVersionsAfterUpgrade(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "m")
	u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "old file"})
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bucketVersions)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), encodeU64(3))
	})
	if err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	var v uint64
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		v, _ = decodeU64(tx.Bucket([]byte(bucketMeta)).Get([]byte(keySchemaVersion)))
		return nil
	})
	if v != 4 {
		t.Fatalf("schema after opening a version 3 file = %d, want 4", v)
	}
	u2 := edit(t, db, c.ID, u.Seq, "new file", "ok")
	assertVersions(t, db, c.ID, map[uint64]Version{u2.Seq: {2, 2}})
}

// TestVersionKeepsAStreamingReply: a reply left streaming is kept with
// the text it had, marked interrupted, and its pieces leave the
// streaming bucket (Open would otherwise look for it).
func TestVersionKeepsAStreamingReply(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "m")
	u := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "go"})
	s := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	if err := db.AppendText(c.ID, s.Seq, "half a repl"); err != nil {
		t.Fatal(err)
	}
	u2 := edit(t, db, c.ID, u.Seq, "go on", "done")
	assertNoStreamingIndex(t, db)
	db = reopen(t, db, path, clock)
	if _, err := db.SwitchVersion(c.ID, u2.Seq, 1); err != nil {
		t.Fatal(err)
	}
	evs := mustEvents(t, db, c.ID)
	if len(evs) != 2 || evs[1].Text != "half a repl" || evs[1].Status != StatusInterrupted {
		t.Fatalf("the kept streaming reply came back as %+v", evs)
	}
}
