package store

import (
	"errors"
	"strings"
	"testing"
)

// TestOrganiseSurvivesReopen: pinned, archived and a conversation's own
// instructions are kept in its record, across a restart, and do not
// reorder the list.
func TestOrganiseSurvivesReopen(t *testing.T) {
	db, path, clock := openTest(t)
	a := mustConv(t, db, "m")
	b := mustConv(t, db, "m")
	if err := db.SetPinned(a.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := db.SetArchived(b.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := db.SetInstructions(a.ID, "  Answer in French.  "); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	list, err := db.ListConversations()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != b.ID || list[1].ID != a.ID {
		t.Fatalf("order changed: %+v", list)
	}
	got := map[ID]Conversation{list[0].ID: list[0], list[1].ID: list[1]}
	if !got[a.ID].Pinned || got[a.ID].Archived || got[a.ID].Instructions != "Answer in French." {
		t.Errorf("a = %+v", got[a.ID])
	}
	if got[b.ID].Pinned || !got[b.ID].Archived {
		t.Errorf("b = %+v", got[b.ID])
	}
	// Archiving a pinned conversation unpins it.
	if err := db.SetArchived(a.ID, true); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.GetConversation(a.ID); c.Pinned || !c.Archived {
		t.Errorf("archived pinned conversation: %+v", c)
	}
}

func TestSetInstructionsLimits(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	err := db.SetInstructions(c.ID, strings.Repeat("x", MaxInstructionsLen+1))
	if !errors.Is(err, ErrInstructionsTooLong) {
		t.Fatalf("too long: %v", err)
	}
	if err := db.SetInstructions(ID(999), "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing conversation: %v", err)
	}
	if err := db.AddRedaction("api_key", "sk-secret-value-123"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetInstructions(c.ID, "use sk-secret-value-123"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetConversation(c.ID); strings.Contains(got.Instructions, "sk-secret") {
		t.Errorf("secret kept: %q", got.Instructions)
	}
}
