package store

import (
	"reflect"
	"testing"
)

// A conversation's model choice survives a reopen, a nil or empty one
// forgets it, and setting it neither reorders the list nor counts as a
// change of the events.
func TestModelChoice(t *testing.T) {
	chosen := &ModelChoice{Provider: "ollama", BaseURL: "http://localhost:11434", Model: "qwen3:8b"}
	tests := []struct {
		name string
		set  []*ModelChoice
		want *ModelChoice
	}{
		{"chosen", []*ModelChoice{chosen}, chosen},
		{"chosen then forgotten", []*ModelChoice{chosen, nil}, nil},
		{"an empty model forgets", []*ModelChoice{chosen, {Provider: "ollama"}}, nil},
		{"chosen again", []*ModelChoice{{Provider: "openai", Model: "a"}, chosen}, chosen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path, clock := openTest(t)
			c := mustConv(t, db, "")
			before, _ := db.GetConversation(c.ID)
			for _, ch := range tt.set {
				if err := db.SetModelChoice(c.ID, ch); err != nil {
					t.Fatal(err)
				}
			}
			db = reopen(t, db, path, clock)
			got, err := db.GetConversation(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Choice, tt.want) {
				t.Errorf("Choice = %+v, want %+v", got.Choice, tt.want)
			}
			if !got.Updated.Equal(before.Updated) || got.EventCount != before.EventCount {
				t.Errorf("choosing a model moved the record: %v/%d, was %v/%d", got.Updated, got.EventCount, before.Updated, before.EventCount)
			}
		})
	}
	db, _, _ := openTest(t)
	if err := db.SetModelChoice(99, chosen); err == nil {
		t.Error("a missing conversation took a model")
	}
}
