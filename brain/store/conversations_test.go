package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestParseID(t *testing.T) {
	tests := []struct {
		in      string
		want    ID
		wantErr error
	}{
		{"c42", 42, nil},
		{"C7", 7, nil},
		{"42", 42, nil},
		{" c1 ", 1, nil},
		{"c0", 0, ErrInvalidID},
		{"", 0, ErrInvalidID},
		{"c", 0, ErrInvalidID},
		{"c-1", 0, ErrInvalidID},
		{"x42", 0, ErrInvalidID},
		{"c18446744073709551616", 0, ErrInvalidID},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseID(tt.in)
			wantErr(t, err, tt.wantErr)
			if got != tt.want {
				t.Errorf("ParseID(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestIDJSON(t *testing.T) {
	b, err := json.Marshal(struct{ ID ID }{42})
	if err != nil || string(b) != `{"ID":"c42"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var v struct{ ID ID }
	if err := json.Unmarshal(b, &v); err != nil || v.ID != 42 {
		t.Fatalf("Unmarshal = %v, %v", v, err)
	}
	if err := json.Unmarshal([]byte(`{"ID":"nope"}`), &v); err == nil {
		t.Fatal("Unmarshal accepted a bad id")
	}
}

func TestMakeTitle(t *testing.T) {
	long := "Please help me write a cover letter for a junior data analyst position at a logistics company"
	tests := []struct{ name, in, want string }{
		{"short", "Hello there", "Hello there"},
		{"whitespace", "  Hello\n\n  there\t ", "Hello there"},
		{"empty", "   ", ""},
		{"word boundary", long, "Please help me write a cover letter for a junior data…"},
		{"exactly 60", strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{"no spaces", strings.Repeat("x", 80), strings.Repeat("x", 60) + "…"},
		{"punctuation trimmed", "What is this, exactly, and why does it keep happening to me, every day?", "What is this, exactly, and why does it keep happening to me…"},
		{"runes", strings.Repeat("é", 70), strings.Repeat("é", 60) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MakeTitle(tt.in)
			if got != tt.want {
				t.Errorf("MakeTitle = %q, want %q", got, tt.want)
			}
			if n := len([]rune(strings.TrimSuffix(got, "…"))); n > TitleLen {
				t.Errorf("title has %d runes, more than %d", n, TitleLen)
			}
		})
	}
}

func TestConversationLifecycle(t *testing.T) {
	db, _, _ := openTest(t)
	a := mustConv(t, db, "m1")
	b := mustConv(t, db, "m2")
	c := mustConv(t, db, "m3")
	if a.ID != 1 || b.ID != 2 || c.ID != 3 {
		t.Fatalf("ids = %d %d %d, want 1 2 3", a.ID, b.ID, c.ID)
	}
	if !a.Created.Equal(a.Updated) || a.Model != "m1" || a.EventCount != 0 {
		t.Errorf("new conversation = %+v", a)
	}
	got, err := db.GetConversation(b.ID)
	if err != nil || !reflect.DeepEqual(got, b) {
		t.Fatalf("GetConversation = %+v, %v; want %+v", got, err, b)
	}

	order := func() []ID {
		t.Helper()
		l, err := db.ListConversations()
		if err != nil {
			t.Fatal(err)
		}
		var ids []ID
		for _, c := range l {
			ids = append(ids, c.ID)
		}
		return ids
	}
	if got := order(); !reflect.DeepEqual(got, []ID{3, 2, 1}) {
		t.Errorf("list = %v, want newest first", got)
	}
	mustAppend(t, db, a.ID, Event{Type: EventUserMessage, Text: "first"})
	if got := order(); !reflect.DeepEqual(got, []ID{1, 3, 2}) {
		t.Errorf("list after activity in c1 = %v, want [1 3 2]", got)
	}
	// Renames, model switches and loaded sets do not reorder.
	if err := db.SetTitle(b.ID, "  Renamed \n title "); err != nil {
		t.Fatal(err)
	}
	if err := db.SetModel(b.ID, "m9"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLoaded(b.ID, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if got := order(); !reflect.DeepEqual(got, []ID{1, 3, 2}) {
		t.Errorf("list after rename = %v, want [1 3 2]", got)
	}
	got, _ = db.GetConversation(b.ID)
	if got.Title != "Renamed title" || got.Model != "m9" {
		t.Errorf("after SetTitle/SetModel: %+v", got)
	}

	if err := db.DeleteConversation(a.ID); err != nil {
		t.Fatal(err)
	}
	if got := order(); !reflect.DeepEqual(got, []ID{3, 2}) {
		t.Errorf("list after delete = %v", got)
	}
	_, err = db.Events(a.ID)
	wantErr(t, err, ErrNotFound)
	wantErr(t, db.DeleteConversation(a.ID), ErrNotFound)
	_, err = db.GetConversation(a.ID)
	wantErr(t, err, ErrNotFound)
	// IDs are never reused.
	if d := mustConv(t, db, ""); d.ID != 4 {
		t.Errorf("next id = %d, want 4", d.ID)
	}
}

func TestMissingConversation(t *testing.T) {
	db, _, _ := openTest(t)
	const missing ID = 99
	calls := map[string]func() error{
		"SetTitle":    func() error { return db.SetTitle(missing, "x") },
		"SetModel":    func() error { return db.SetModel(missing, "x") },
		"SetLoaded":   func() error { return db.SetLoaded(missing, nil) },
		"Loaded":      func() error { _, err := db.Loaded(missing); return err },
		"AppendEvent": func() error { _, err := db.AppendEvent(missing, Event{Type: EventError}); return err },
		"AppendText":  func() error { return db.AppendText(missing, 1, "x") },
		"FinishEvent": func() error { return db.FinishEvent(missing, 1, StatusComplete) },
		"UpdateEvent": func() error { return db.UpdateEvent(missing, Event{Seq: 1, Type: EventError}) },
		"Event":       func() error { _, err := db.Event(missing, 1); return err },
		"LastEvents":  func() error { _, err := db.LastEvents(missing, 3); return err },
		"Delete":      func() error { return db.DeleteConversation(missing) },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) { wantErr(t, call(), ErrNotFound) })
	}
}

func TestTitleFromFirstUserMessage(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	steps := []struct {
		set   *string // SetTitle before the event, when non-nil
		event Event
		want  string
	}{
		{nil, Event{Type: EventAssistantText, Text: "Hi, how can I help?"}, ""},
		{nil, Event{Type: EventUserMessage, Text: "  Fix my\nbike  "}, "Fix my bike"},
		{nil, Event{Type: EventUserMessage, Text: "and the car"}, "Fix my bike"},
		{ptr("Bikes"), Event{Type: EventUserMessage, Text: "thanks"}, "Bikes"},
		{ptr(""), Event{Type: EventUserMessage, Text: "new subject"}, "new subject"},
	}
	for i, s := range steps {
		if s.set != nil {
			if err := db.SetTitle(c.ID, *s.set); err != nil {
				t.Fatal(err)
			}
		}
		mustAppend(t, db, c.ID, s.event)
		got, err := db.GetConversation(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != s.want {
			t.Errorf("step %d: title = %q, want %q", i, got.Title, s.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestLoadedSets(t *testing.T) {
	tests := []struct {
		name string
		set  []string
		want []string
	}{
		{"nil", nil, nil},
		{"empty", []string{}, nil},
		{"lru order kept", []string{"web", "files", "pdf"}, []string{"web", "files", "pdf"}},
		{"ten", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path, clock := openTest(t)
			c := mustConv(t, db, "")
			other := mustConv(t, db, "")
			if err := db.SetLoaded(other.ID, []string{"other"}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetLoaded(c.ID, tt.set); err != nil {
				t.Fatal(err)
			}
			if len(tt.set) > 0 {
				tt.set[0] = "mutated" // the store keeps its own copy
			}
			db = reopen(t, db, path, clock)
			got, err := db.Loaded(c.ID)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Loaded = %v, %v; want %v", got, err, tt.want)
			}
			if got, _ := db.Loaded(other.ID); !reflect.DeepEqual(got, []string{"other"}) {
				t.Errorf("other conversation's set = %v", got)
			}
		})
	}
}

func TestDamagedConversationRecord(t *testing.T) {
	db, _, _ := openTest(t)
	good := mustConv(t, db, "")
	mustAppend(t, db, good.ID, Event{Type: EventUserMessage, Text: "findme"})
	bad := mustConv(t, db, "")
	mustAppend(t, db, bad.ID, Event{Type: EventUserMessage, Text: "findme too"})
	for _, raw := range []string{"{oops", `{"events":99999999999999}`} {
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte(bucketConversations)).Put(conversationKey(bad.ID), []byte(raw))
		})
		if err != nil {
			t.Fatal(err)
		}
		list, err := db.ListConversations()
		if err != nil || len(list) != 2 {
			t.Fatalf("%s: list = %+v, %v", raw, list, err)
		}
		// Events stay readable whatever the record says.
		if evs, err := db.Events(bad.ID); err != nil || len(evs) != 1 {
			t.Errorf("%s: events = %+v, %v", raw, evs, err)
		}
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketConversations)).Put(conversationKey(bad.ID), []byte("{oops"))
	}); err != nil {
		t.Fatal(err)
	}
	list, _ := db.ListConversations()
	var placeholder Conversation
	for _, c := range list {
		if c.ID == bad.ID {
			placeholder = c
		}
	}
	if placeholder.Title != "(damaged conversation)" {
		t.Errorf("damaged conversation listed as %+v", placeholder)
	}
	_, err := db.GetConversation(bad.ID)
	wantErr(t, err, ErrCorrupt)
	hits, err := db.Search("findme", 0)
	if err != nil || len(hits) != 1 || hits[0].Conversation != good.ID {
		t.Errorf("Search with a damaged record = %+v, %v", hits, err)
	}
	// The user can still delete it.
	wantErr(t, db.DeleteConversation(bad.ID), nil)
}

func TestConcurrentWriters(t *testing.T) {
	db, _, _ := openTest(t)
	db.bolt.NoSync = true // durability is not under test here; speed is kept
	const writers, each = 4, 25
	ids := make([]ID, writers)
	for i := range ids {
		ids[i] = mustConv(t, db, "").ID
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*2)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := db.AppendEvent(ids[w], Event{Type: EventUserMessage, Text: fmt.Sprint(i)}); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() { // a reader alongside
			defer wg.Done()
			for range each {
				if _, err := db.ListConversations(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range ids {
		evs := mustEvents(t, db, id)
		if len(evs) != each {
			t.Fatalf("%s has %d events, want %d", id, len(evs), each)
		}
		for i, e := range evs {
			if e.Seq != uint64(i+1) || e.Text != fmt.Sprint(i) {
				t.Errorf("%s event %d = %d %q", id, i, e.Seq, e.Text)
			}
		}
	}
}
