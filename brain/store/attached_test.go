package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// The files attached to a conversation are kept with its record: added
// once each, the oldest forgotten past MaxAttached, and gone with the
// conversation.
func TestAttachedFiles(t *testing.T) {
	db, _, _ := openTest(t)
	c, err := db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	a := AttachedFile{Path: "/home/u/a.txt", Real: "/data/a.txt"}
	b := AttachedFile{Path: "/home/u/b.txt", Real: "/home/u/b.txt"}
	for _, add := range [][]AttachedFile{{a}, {b, a}, nil, {{Path: "", Real: "/x"}}} {
		if err := db.AddAttached(c.ID, add); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := db.Attached(c.ID); err != nil || !slices.Equal(got, []AttachedFile{b, a}) {
		t.Errorf("Attached = %v, %v; want b then a, once each", got, err)
	}
	if got, err := db.Attached(other.ID); err != nil || len(got) != 0 {
		t.Errorf("another conversation's Attached = %v, %v; want none", got, err)
	}

	many := make([]AttachedFile, MaxAttached+2)
	for i := range many {
		p := fmt.Sprintf("/f/%d", i)
		many[i] = AttachedFile{Path: p, Real: p}
	}
	if err := db.AddAttached(c.ID, many); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Attached(c.ID)
	if len(got) != MaxAttached || got[0] != many[2] || got[len(got)-1] != many[len(many)-1] {
		t.Errorf("past the limit: %d kept from %v to %v; want the newest %d", len(got), got[0], got[len(got)-1], MaxAttached)
	}

	if err := db.DeleteConversation(c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Attached(c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Attached of a deleted conversation: %v; want ErrNotFound", err)
	}
	if err := db.AddAttached(c.ID, []AttachedFile{a}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddAttached to a deleted conversation: %v; want ErrNotFound", err)
	}
}
