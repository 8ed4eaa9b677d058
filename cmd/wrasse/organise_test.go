package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// seedConversations opens workspace ws, creates n conversations titled
// "one", "two"… with a reply's usage each, and closes it.
func seedConversations(t *testing.T, ws string, titles ...string) []store.ID {
	t.Helper()
	app, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	db := app.Engine().DB
	var ids []store.ID
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, title := range titles {
		c, err := db.CreateConversation("claude-sonnet-4-5")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetTitle(c.ID, title); err != nil {
			t.Fatal(err)
		}
		u := provider.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CachedTokens: 500_000}
		if _, err := db.AppendEvent(c.ID, store.Event{Type: store.EventUsage, Time: at, Model: "claude-sonnet-4-5", Usage: &u}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	return ids
}

// TestConversationsOrganiseCLI: pin, archive and instructions from the
// command line, seen by list as the sidebar shows them.
func TestConversationsOrganiseCLI(t *testing.T) {
	ws := t.TempDir()
	seedConversations(t, ws, "one", "two", "three")
	steps := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"pin", []string{"conversations", "pin", "c1"}, 0, "Pinned c1"},
		{"archive", []string{"conversations", "archive", "c2"}, 0, "Archived c2"},
		{"list", []string{"conversations", "list"}, 0, "c1"},
		{"archived list", []string{"conversations", "list", "--archived"}, 0, "two"},
		{"unarchive", []string{"conversations", "unarchive", "c2"}, 0, "Unarchived c2"},
		{"unpin json", []string{"conversations", "unpin", "c1", "--json"}, 0, `"unpinned": "c1"`},
		{"no instructions", []string{"conversations", "instructions", "c3"}, 0, "no instructions of its own"},
		{"set instructions", []string{"conversations", "instructions", "c3", "Answer", "in", "French."}, 0, "Set the instructions of c3"},
		{"show instructions", []string{"conversations", "instructions", "c3"}, 0, "Answer in French."},
		{"missing", []string{"conversations", "pin", "c9"}, 1, ""},
	}
	for _, s := range steps {
		code, out, errOut := cli(t, ws, s.args...)
		if code != s.code || !strings.Contains(out, s.out) {
			t.Fatalf("%s: exit %d (want %d)\nstdout: %s\nstderr: %s", s.name, code, s.code, out, errOut)
		}
		switch s.name {
		case "list":
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 3 || !strings.Contains(lines[1], "📌 one") || strings.Contains(out, "two") {
				t.Errorf("list with c1 pinned and c2 archived:\n%s", out)
			}
		case "archived list":
			if strings.Contains(out, "one") || strings.Contains(out, "three") {
				t.Errorf("archived list shows others:\n%s", out)
			}
		}
	}
}

// TestUsageCLI: wrasse usage prints the Usage page's table, priced from
// the table the person can edit.
func TestUsageCLI(t *testing.T) {
	ws := t.TempDir()
	seedConversations(t, ws, "one", "two")
	code, out, errOut := cli(t, ws, "usage")
	// Two replies of Sonnet: 500k plain at $3, 500k cached at $0.30,
	// 100k out at $15 per million, each: $3.15.
	if code != 0 || !strings.Contains(out, "2,000,000") || !strings.Contains(out, "1,000,000") || !strings.Contains(out, "$6.30") {
		t.Fatalf("usage: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ := cli(t, ws, "usage", "set-price", "claude-sonnet-4", "6", "30", "0.6"); code != 0 || !strings.Contains(out, "$6 in") {
		t.Fatalf("set-price: %d %s", code, out)
	}
	if _, out, _ := cli(t, ws, "usage"); !strings.Contains(out, "$12.60") {
		t.Errorf("after doubling the prices:\n%s", out)
	}
	if code, _, errOut := cli(t, ws, "usage", "set-price", "x", "cheap", "1"); code != 2 || !strings.Contains(errOut, "not a price") {
		t.Errorf("bad price: %d %s", code, errOut)
	}
	if code, _, _ := cli(t, ws, "usage", "reset-prices"); code != 0 {
		t.Fatal("reset")
	}
	if _, out, _ := cli(t, ws, "usage", "prices"); !strings.Contains(out, "claude-sonnet-4   $3 ") {
		t.Errorf("prices after reset:\n%s", out)
	}
}
