package store

import (
	"reflect"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World!", []string{"hello", "world"}},
		{"  tax   TAX 2023 tax-return ", []string{"tax", "2023", "return"}},
		{"Ünïcode café", []string{"ünïcode", "café"}},
		{"?!", nil},
	}
	for _, tt := range tests {
		if got := Terms(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// searchFixture builds three conversations; the fake clock makes their
// Updated times increase in the order written.
func searchFixture(t *testing.T) *DB {
	db, _, _ := openTest(t)
	c1 := mustConv(t, db, "") // c1: Lisbon trip
	mustAppend(t, db, c1.ID, Event{Type: EventUserMessage, Text: "Plan a trip to Lisbon"})
	mustAppend(t, db, c1.ID, Event{Type: EventAssistantText, Text: "Lisbon in spring is lovely. Book the tram 28 early; trains from Porto take three hours."})
	mustAppend(t, db, c1.ID, Event{Type: EventToolCall, ToolCallID: "1", ToolName: "web", Arguments: []byte(`{"q":"porto budget"}`)})
	mustAppend(t, db, c1.ID, Event{Type: EventError, Text: "budget exceeded"}) // not searched

	c2 := mustConv(t, db, "") // c2: taxes
	mustAppend(t, db, c2.ID, Event{Type: EventUserMessage, Text: "Help with my tax return for 2023"})
	mustAppend(t, db, c2.ID, Event{Type: EventToolResult, ToolCallID: "x", Text: "Found receipts: TRAIN tickets to Porto, 2023"})
	mustAppend(t, db, c2.ID, Event{Type: EventAssistantText, Text: "Your travel costs are deductible."})

	c3 := mustConv(t, db, "") // c3: titled only by SetTitle, no matching text
	if err := db.SetTitle(c3.ID, "Porto wine notes"); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, c3.ID, Event{Type: EventUserMessage, Text: "Ruby or tawny?"})
	return db
}

func TestSearch(t *testing.T) {
	db := searchFixture(t)
	type hit struct {
		Conv    ID
		Seq     uint64
		Type    EventType
		Matched int
		Snippet string
	}
	tests := []struct {
		query string
		limit int
		want  []hit
	}{
		{"lisbon", 0, []hit{{1, 2, EventAssistantText, 1, "Lisbon in spring is lovely. Book the tram 28 early; trains from Porto take three hours."}}},
		// Matched terms first; then recency (c3 was updated last).
		{"porto train", 0, []hit{
			{2, 2, EventToolResult, 2, "Found receipts: TRAIN tickets to Porto, 2023"},
			{1, 2, EventAssistantText, 2, "…is lovely. Book the tram 28 early; trains from Porto take three hours."},
			{3, 0, "", 1, "Porto wine notes"},
		}},
		{"porto train", 2, []hit{
			{2, 2, EventToolResult, 2, "Found receipts: TRAIN tickets to Porto, 2023"},
			{1, 2, EventAssistantText, 2, "…is lovely. Book the tram 28 early; trains from Porto take three hours."},
		}},
		// Title and event terms combine: "wine" in the title, "tawny" in the text.
		{"wine tawny", 0, []hit{{3, 1, EventUserMessage, 2, "Ruby or tawny?"}}},
		// Ties within a conversation go to the latest event.
		{"2023", 0, []hit{{2, 2, EventToolResult, 1, "Found receipts: TRAIN tickets to Porto, 2023"}}},
		{"budget", 0, nil}, // only in tool arguments and an error event
		{"nothing-like-this", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := db.Search(tt.query, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []hit
			for _, h := range hits {
				got = append(got, hit{h.Conversation, h.Seq, h.Type, h.Matched, h.Snippet})
				if h.Title == "" || h.Updated.IsZero() {
					t.Errorf("hit lacks title or time: %+v", h)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Search(%q):\n got %+v\nwant %+v", tt.query, got, tt.want)
			}
		})
	}
	_, err := db.Search(" ?! ", 5)
	wantErr(t, err, ErrEmptyQuery)
}

func TestSnippet(t *testing.T) {
	long := "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega"
	tests := []struct {
		name, text string
		terms      []string
		want       string
	}{
		{"whole", "short  text\nhere", []string{"text"}, "short text here"},
		{"cut both sides", long + " " + long + " NEEDLE " + long + " " + long, []string{"needle"},
			"…sigma tau upsilon phi chi psi omega NEEDLE alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma…"},
		{"earliest term", "bbb aaa", []string{"aaa", "bbb"}, "bbb aaa"},
		{"no match: head", long + long, []string{"zzz"}, "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omegaalpha beta gamma…"},
		{"runes", "ééé Straße", []string{"straße"}, "ééé Straße"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := snippet(tt.text, lower(tt.text), tt.terms); got != tt.want {
				t.Errorf("snippet = %q\n      want %q", got, tt.want)
			}
		})
	}
}
