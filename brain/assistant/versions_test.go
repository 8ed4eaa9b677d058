package assistant

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// TestEditAndRegenerateKeepVersions: an edit makes a second version of
// the message, a regenerate a third; switching shows each with what
// followed it, and the next turn's request holds the version shown.
func TestEditAndRegenerateKeepVersions(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	ctx := context.Background()
	m.Reply(providertest.Text("ferns are old"))
	id, err := a.Turn(ctx, 0, "tell me about ferns", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text("by spores"))
	if _, err := a.Turn(ctx, id, "how do they spread", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	first := userSeqs(t, a, id)[0]
	m.Reply(providertest.Text("mosses are older"))
	if _, err := a.Resend(ctx, id, first, "tell me about mosses", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	edited := userSeqs(t, a, id)[0]
	assertAppVersions(t, a, id, map[uint64]store.Version{edited: {N: 2, Of: 2}})
	if c, _ := a.db.GetConversation(id); c.Title != "tell me about mosses" {
		t.Errorf("title after editing the first message = %q, want it to follow", c.Title)
	}
	m.Reply(providertest.Text("mosses are very old"))
	if _, err := a.Regenerate(ctx, id, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	regen := userSeqs(t, a, id)[0]
	assertAppVersions(t, a, id, map[uint64]store.Version{regen: {N: 3, Of: 3}})

	var news []string
	stop := a.Subscribe(func(e Event) {
		if e.Kind == EventConversations {
			news = append(news, e.Names...)
		}
	})
	defer stop()
	steps := []struct {
		n    int
		want string
	}{
		{1, "user_message:tell me about ferns | assistant_text:ferns are old | user_message:how do they spread | assistant_text:by spores"},
		{2, "user_message:tell me about mosses | assistant_text:mosses are older"},
		{3, "user_message:tell me about mosses | assistant_text:mosses are very old"},
		{2, "user_message:tell me about mosses | assistant_text:mosses are older"},
	}
	at := regen
	for _, s := range steps {
		head, err := a.SwitchVersion(ctx, id, at, s.n)
		if err != nil {
			t.Fatalf("SwitchVersion(%d): %v", s.n, err)
		}
		at = head
		if got := strings.Join(texts(t, a, id), " | "); got != s.want {
			t.Fatalf("version %d: %s\nwant %s", s.n, got, s.want)
		}
	}
	if len(news) != len(steps) || news[0] != id.String() {
		t.Errorf("announcements = %v; want one per switch", news)
	}
	// The next turn answers version 2's history, and only it.
	m.Reply(providertest.Text("in damp places"))
	if _, err := a.Turn(ctx, id, "where do they grow", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	req := m.Requests()[len(m.Requests())-1]
	var sent []string
	for _, msg := range req.Messages {
		if msg.Role == "user" || msg.Role == "assistant" {
			sent = append(sent, msg.Content)
		}
	}
	if got := strings.Join(sent, " | "); got != "tell me about mosses | mosses are older | where do they grow" {
		t.Fatalf("the model was sent %q", got)
	}
}

// TestSwitchVersionWhileATurnRuns is refused: the turn writes to the
// live version.
func TestSwitchVersionWhileATurnRuns(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	ctx := context.Background()
	m.Reply(providertest.Text("one"))
	id, err := a.Turn(ctx, 0, "first", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text("one again"))
	if _, err := a.Regenerate(ctx, id, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	head := userSeqs(t, a, id)[0]
	m.Reply(providertest.Text("Half"), providertest.Hold())
	tctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := a.Turn(tctx, id, "second", TurnOptions{})
		done <- err
	}()
	<-m.Waiting()
	if _, err := a.SwitchVersion(ctx, id, head, 1); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("switch while a turn runs = %v; want ErrBusy", err)
	}
	cancel()
	<-done
	if _, err := a.SwitchVersion(ctx, id, head, 1); err != nil {
		t.Errorf("switch after the turn = %v", err)
	}
	if _, err := a.SwitchVersion(ctx, id+100, head, 1); !errors.Is(err, ErrNoConversation) {
		t.Errorf("switch in a missing conversation = %v", err)
	}
}

func userSeqs(t *testing.T, a *App, id store.ID) []uint64 {
	t.Helper()
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, e := range evs {
		if e.Type == store.EventUserMessage {
			out = append(out, e.Seq)
		}
	}
	return out
}

func assertAppVersions(t *testing.T, a *App, id store.ID, want map[uint64]store.Version) {
	t.Helper()
	got, err := a.History().Versions(id)
	if err != nil || !maps.Equal(got, want) {
		t.Fatalf("Versions = %v, %v; want %v", got, err, want)
	}
}

// TestRetryOfAFailedTurnKeepsNoVersion: answering again a message nothing
// answered (Retry after a failure) keeps no empty version; an edit of it
// keeps the message as written.
func TestRetryOfAFailedTurnKeepsNoVersion(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	ctx := context.Background()
	m.Reply(providertest.Text("hi"))
	id, err := a.Turn(ctx, 0, "hello", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Status(500, `{"error":{"message":"down"}}`))
	if _, err := a.Turn(ctx, id, "are you there", TurnOptions{}); err == nil {
		t.Fatal("the failing turn did not fail")
	}
	m.Reply(providertest.Text("yes"))
	if _, err := a.Regenerate(ctx, id, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	assertAppVersions(t, a, id, map[uint64]store.Version{})
	if got := strings.Join(texts(t, a, id), " | "); !strings.HasSuffix(got, "user_message:are you there | assistant_text:yes") || strings.Count(got, "are you there") != 1 {
		t.Fatalf("after the retry: %s", got)
	}
	// A failed message edited is kept as written.
	m.Reply(providertest.Status(500, `{"error":{"message":"down"}}`))
	if _, err := a.Turn(ctx, id, "one more", TurnOptions{}); err == nil {
		t.Fatal("the failing turn did not fail")
	}
	seqs := userSeqs(t, a, id)
	m.Reply(providertest.Text("sure"))
	if _, err := a.Resend(ctx, id, seqs[len(seqs)-1], "one more, please", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	seqs = userSeqs(t, a, id)
	assertAppVersions(t, a, id, map[uint64]store.Version{seqs[len(seqs)-1]: {N: 2, Of: 2}})
}
