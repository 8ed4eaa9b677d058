package chat

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

func TestSectionOf(t *testing.T) {
	now := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	cases := []struct {
		at   time.Time
		want string
	}{
		{now.Add(-time.Minute), "Today"},
		{time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), "Today"},
		{time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC), "Yesterday"},
		{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "Yesterday"},
		{time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC), "Previous 7 days"},
		{time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), "Previous 7 days"},
		{time.Date(2026, 11, 24, 23, 0, 0, 0, time.UTC), "Previous 30 days"},
		{time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), "Previous 30 days"},
		{time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), "November 2026"},
		{time.Date(2025, 12, 25, 12, 0, 0, 0, time.UTC), "December 2025"},
	}
	for _, c := range cases {
		if got := sectionOf(now, c.at); got != c.want {
			t.Errorf("sectionOf(%v) = %q, want %q", c.at, got, c.want)
		}
	}
}

// titles lists the sidebar's rows as text: "# Section" or a title.
func sidebarRows(s *sidebar) []string {
	var out []string
	for i := range s.length() {
		e, _ := s.entry(i)
		if e.section {
			out = append(out, "# "+e.title)
		} else {
			out = append(out, e.title)
		}
	}
	return out
}

// itemRows lists items as text: "# Section" or a title.
func itemRows(items []sidebarItem) string {
	var out []string
	for _, it := range items {
		if it.section != "" {
			out = append(out, "# "+it.section)
		} else {
			out = append(out, it.conv.Title)
		}
	}
	return strings.Join(out, " | ")
}

func TestArrangeSections(t *testing.T) {
	now := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	conv := func(id int, title string, at time.Time, pinned, archived bool) store.Conversation {
		return store.Conversation{ID: store.ID(id), Title: title, Updated: at, Pinned: pinned, Archived: archived}
	}
	convs := []store.Conversation{ // newest first, as the store lists them
		conv(6, "today", now.Add(-time.Hour), false, false),
		conv(5, "old pinned", now.AddDate(0, -3, 0), true, false),
		conv(4, "yesterday", now.AddDate(0, 0, -1), false, false),
		conv(3, "archived", now.AddDate(0, 0, -2), false, true),
		conv(2, "last week", now.AddDate(0, 0, -4), false, false),
		conv(1, "october", time.Date(2026, 10, 3, 12, 0, 0, 0, time.UTC), false, false),
	}
	items, n := arrange(convs, nil, now, false)
	got := itemRows(items)
	want := "# Pinned | old pinned | # Today | today | # Yesterday | yesterday | # Previous 7 days | last week | # October 2026 | october"
	if got != want || n != 1 {
		t.Errorf("rows:\n%s\nwant\n%s (archived %d)", got, want, n)
	}
	items, _ = arrange(convs, nil, now, true)
	if got := itemRows(items); got != "# Archived | archived" {
		t.Errorf("archived rows: %s", got)
	}
}

// newConversation sends text in a new conversation and waits for the
// reply; it returns the conversation's ID.
func (h *harness) newConversation(text string) store.ID {
	h.t.Helper()
	h.chat.NewConversation()
	h.model.Reply(pt.Text("ok"))
	h.send(text)
	h.idle()
	return h.chat.cur.id
}

// TestSidebarPinAndArchive: a conversation pinned from its menu goes to
// Pinned at the top; one archived leaves the list for the Archived
// button's, and comes back when unarchived. Both survive a restart (the
// core keeps them with the conversation).
func TestSidebarPinAndArchive(t *testing.T) {
	h := newHarness(t)
	first := h.newConversation("first")
	second := h.newConversation("second")
	s := h.chat.sidebar
	act := func(id store.ID, label string) {
		t.Helper()
		for i := range s.length() {
			if e, _ := s.entry(i); e.id == id && !e.section {
				for _, it := range s.menuItems(e) {
					if it.Label == label {
						it.Action()
						return
					}
				}
				t.Fatalf("%s's menu has no %q", id, label)
			}
		}
		t.Fatalf("%s is not listed: %v", id, sidebarRows(s))
	}
	act(first, "Pin to top")
	h.until("first pinned", func() bool { r := sidebarRows(s); return len(r) > 1 && r[0] == "# Pinned" && r[1] == "first" })
	if r := sidebarRows(s); strings.Join(r, "|") != "# Pinned|first|# Today|second" {
		t.Errorf("rows %v", r)
	}
	act(second, "Archive")
	h.until("second archived", func() bool { return !slicesContains(sidebarRows(s), "second") })
	if !s.archivedBtn.Visible() || s.archivedBtn.Text != "Archived (1)" {
		t.Fatalf("archived button %q visible %v", s.archivedBtn.Text, s.archivedBtn.Visible())
	}
	tapButton(s.archivedBtn)
	if r := sidebarRows(s); strings.Join(r, "|") != "# Archived|second" {
		t.Fatalf("archived list %v", r)
	}
	act(second, "Unarchive")
	// The last archived one unarchived: the list goes back to the others.
	h.until("the list back", func() bool { return !s.archived })
	if r := sidebarRows(s); strings.Join(r, "|") != "# Pinned|first|# Today|second" {
		t.Errorf("rows after unarchiving %v", r)
	}
	if s.archived || s.archivedBtn.Visible() {
		t.Errorf("still in the archived list (%v) or the button shown (%v)", s.archived, s.archivedBtn.Visible())
	}
	if c, _ := h.core.History().GetConversation(first); !c.Pinned {
		t.Error("the pin was not stored with the conversation")
	}
}

func slicesContains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func tapButton(b interface{ Tapped(*fyne.PointEvent) }) { b.Tapped(&fyne.PointEvent{}) }

// An empty search says so instead of showing an empty sidebar.
func TestSidebarSearchSaysNoMatch(t *testing.T) {
	h := newHarness(t)
	h.newConversation("hello there")
	s := h.chat.sidebar
	s.search.SetText("zebracorn")
	h.until("the search to answer", func() bool { return s.searched })
	if !s.empty.Visible() || !h.shows("No conversations match “zebracorn”.") {
		t.Fatalf("empty search shows:\n%s", h.texts())
	}
	s.search.SetText("hello")
	h.until("the search to answer", func() bool { return s.searched })
	if s.empty.Visible() || len(s.hits) == 0 {
		t.Errorf("a search with hits shows the note (%v) or no hits (%d)", s.empty.Visible(), len(s.hits))
	}
}

// The find bar closes when its conversation is deleted, from the
// sidebar or from elsewhere (the CLI).
func TestFindBarClosesWhenItsConversationIsDeleted(t *testing.T) {
	for _, from := range []string{"sidebar", "core"} {
		t.Run(from, func(t *testing.T) {
			h := newHarness(t)
			id := h.newConversation("find me")
			h.chat.ShowFind()
			if !h.chat.find.object.Visible() {
				t.Fatal("find bar not shown")
			}
			if from == "sidebar" {
				h.chat.sidebar.delete(id)
			} else if err := h.core.DeleteConversation(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			h.until("the find bar to close", func() bool { return !h.chat.find.object.Visible() })
			if h.chat.cur.id != 0 {
				t.Errorf("still showing %s", h.chat.cur.id)
			}
		})
	}
}

// The sections move on at midnight on the sidebar's clock, without a
// reload: yesterday's Today is Yesterday.
func TestSidebarSectionsMoveOnAtMidnight(t *testing.T) {
	h := newHarness(t)
	h.newConversation("late night")
	convs := h.chat.sidebar.convs
	clk := &tickClock{now: convs[0].Updated.Add(10 * time.Second)}
	h.chat.setClock(clk)
	h.idle()
	if r := sidebarRows(h.chat.sidebar); strings.Join(r, "|") != "# Today|late night" {
		t.Fatalf("rows %v", r)
	}
	y, m, d := clk.now.Date()
	clk.advance(time.Date(y, m, d+1, 0, 0, 1, 0, clk.now.Location()).Sub(clk.now))
	h.idle()
	if r := sidebarRows(h.chat.sidebar); strings.Join(r, "|") != "# Yesterday|late night" {
		t.Errorf("after midnight: %v", r)
	}
}
