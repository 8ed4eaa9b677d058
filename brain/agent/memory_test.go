package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// seedHistory appends n events of earlier turns (a question, a file read
// with a long result, an answer) to conversation id.
func seedHistory(tb testing.TB, db *store.DB, id store.ID, n int) {
	tb.Helper()
	result := strings.Repeat("line of tool output with some words in it\n", 48)
	for i := 0; i < n; i += 4 {
		call := fmt.Sprintf("seed_%d", i)
		for _, e := range []store.Event{
			{Type: store.EventUserMessage, Text: fmt.Sprintf("question %d: please read the file and tell me what it says", i)},
			{Type: store.EventToolCall, ToolCallID: call, ToolName: "fs_read", Arguments: json.RawMessage(`{"path":"notes/today.md"}`)},
			{Type: store.EventToolResult, ToolCallID: call, ToolName: "fs_read", Text: result},
			{Type: store.EventAssistantText, Text: fmt.Sprintf("answer %d: the file lists the plans for the day", i)},
		} {
			if _, err := db.AppendEvent(id, e); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// memoryEnv is an env over a database written without fsync (setup speed)
// with a long conversation, whose agents count the strings they size.
type memoryEnv struct {
	*env
	id     store.ID
	counts atomic.Int64
	memory *agent.Memory
}

func newMemoryEnv(t *testing.T, history int) *memoryEnv {
	t.Helper()
	e := newEnv(t, providertest.NewProvider(t, "fake"))
	db, err := store.Open(filepath.Join(t.TempDir(), "wrasse.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e.db = db
	c, err := db.CreateConversation("test-model")
	if err != nil {
		t.Fatal(err)
	}
	seedHistory(t, db, c.ID, history)
	return &memoryEnv{env: e, id: c.ID}
}

// turn runs one turn of text in conversation id with mem (nil: none),
// within an 8,192-token window so the history is fitted, and returns the
// request it sent and how many strings it sized.
func (m *memoryEnv) turn(t *testing.T, mem *agent.Memory, id store.ID, text string) (provider.Request, int64) {
	t.Helper()
	m.prov.Reply(providertest.Text("Noted."))
	before := m.counts.Load()
	a := m.agent(func(o *agent.Options) {
		o.Memory, o.ContextWindow = mem, 8192
		o.CountTokens = func(s string) int { m.counts.Add(1); return cerebellum.EstimateTokens(s) }
	})
	if _, err := a.Turn(context.Background(), id, text, nil); err != nil {
		t.Fatal(err)
	}
	reqs := m.prov.Requests()
	return reqs[len(reqs)-1], m.counts.Load() - before
}

// A turn after the first, with the app's Memory, sizes only what is new
// instead of the whole history (which on main every turn sized again).
func TestMemoryCountsOnlyWhatIsNew(t *testing.T) {
	m := newMemoryEnv(t, 2000)
	mem := agent.NewMemory(0)
	m.turn(t, mem, m.id, "first question")
	_, without := m.turn(t, nil, m.id, "second question")
	_, with := m.turn(t, mem, m.id, "third question")
	// The system prompt and the tools are sized once a turn (~30
	// strings here); without Memory, every message the fitting reaches.
	if without < 200 {
		t.Fatalf("without Memory a turn sized only %d strings: the history is too short to tell", without)
	}
	if with > 60 {
		t.Errorf("with Memory the next turn sized %d strings (without: %d), want only the new messages and the fixed part", with, without)
	}
}

// Whatever happens to a conversation between turns, a turn with Memory
// sends exactly the request a turn without it sends: the remembered
// fitting is checked against the messages and forgotten from the first
// change.
func TestMemoryRequestsAfterEveryChange(t *testing.T) {
	tests := []struct {
		name string
		// change alters the conversation between the two turns; it returns
		// the conversation the second turn runs in.
		change func(t *testing.T, m *memoryEnv) store.ID
	}{
		{"next turn", func(t *testing.T, m *memoryEnv) store.ID { return m.id }},
		{"edit: truncate at the last message, resend", func(t *testing.T, m *memoryEnv) store.ID {
			evs := events(t, m.db, m.id)
			last := evs[len(evs)-1].Seq
			for i := len(evs) - 1; i >= 0; i-- {
				if evs[i].Type == store.EventUserMessage {
					last = evs[i].Seq
					break
				}
			}
			if _, err := m.db.TruncateFrom(m.id, last); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"edit far back", func(t *testing.T, m *memoryEnv) store.ID {
			if _, err := m.db.TruncateFrom(m.id, 41); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"old tool output rewritten", func(t *testing.T, m *memoryEnv) store.ID {
			evs := events(t, m.db, m.id)
			for _, e := range evs[len(evs)-40:] {
				if e.Type == store.EventToolResult {
					e.Text = "shorter now"
					if err := m.db.UpdateEvent(m.id, e); err != nil {
						t.Fatal(err)
					}
				}
			}
			return m.id
		}},
		{"deleted, another conversation", func(t *testing.T, m *memoryEnv) store.ID {
			if err := m.db.DeleteConversation(m.id); err != nil {
				t.Fatal(err)
			}
			c, err := m.db.CreateConversation("test-model")
			if err != nil {
				t.Fatal(err)
			}
			seedHistory(t, m.db, c.ID, 120)
			return c.ID
		}},
		{"another conversation between", func(t *testing.T, m *memoryEnv) store.ID {
			c, err := m.db.CreateConversation("test-model")
			if err != nil {
				t.Fatal(err)
			}
			seedHistory(t, m.db, c.ID, 80)
			m.turn(t, m.mem(), c.ID, "elsewhere")
			return m.id
		}},
		{"resend: the last message and its answer kept as a version", func(t *testing.T, m *memoryEnv) store.ID {
			if _, err := m.db.KeepVersion(m.id, lastUserSeq(t, m.db, m.id)); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"version switch: another answer, then back to the first", func(t *testing.T, m *memoryEnv) store.ID {
			if _, err := m.db.KeepVersion(m.id, lastUserSeq(t, m.db, m.id)); err != nil {
				t.Fatal(err)
			}
			m.turn(t, m.mem(), m.id, "first question, put better")
			if _, err := m.db.SwitchVersion(m.id, lastUserSeq(t, m.db, m.id), 1); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"the last reply rewritten in place (a redaction)", func(t *testing.T, m *memoryEnv) store.ID {
			evs := events(t, m.db, m.id)
			i := len(evs) - 1
			for evs[i].Type != store.EventAssistantText {
				i--
			}
			e := evs[i]
			e.Text = "[redacted]"
			if err := m.db.UpdateEvent(m.id, e); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"an earlier message rewritten in place", func(t *testing.T, m *memoryEnv) store.ID {
			e, err := m.db.Event(m.id, lastUserSeq(t, m.db, m.id))
			if err != nil {
				t.Fatal(err)
			}
			e.Text = "first question, as it reads now"
			if err := m.db.UpdateEvent(m.id, e); err != nil {
				t.Fatal(err)
			}
			return m.id
		}},
		{"reopened", func(t *testing.T, m *memoryEnv) store.ID {
			path := m.db.Path()
			if err := m.db.Close(); err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(path, store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			m.db = db
			return m.id
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMemoryEnv(t, 400)
			m.memory = agent.NewMemory(0)
			m.turn(t, m.mem(), m.id, "first question")
			id := tc.change(t, m)
			got, _ := m.turn(t, m.mem(), id, "second question")
			// The same turn again from the same history, without Memory.
			if _, err := m.db.TruncateFrom(id, lastUserSeq(t, m.db, id)); err != nil {
				t.Fatal(err)
			}
			want, _ := m.turn(t, nil, id, "second question")
			if !reflect.DeepEqual(got.Messages, want.Messages) {
				t.Errorf("with Memory the request has %d messages, without %d; first difference at %d",
					len(got.Messages), len(want.Messages), firstDiff(got.Messages, want.Messages))
			}
		})
	}
}

// Two conversations' turns running at once with one Memory each send
// the request a turn without Memory sends: each turn continues its own
// conversation's events, never the other's.
func TestMemoryTwoConversationsAtOnce(t *testing.T) {
	m := newMemoryEnv(t, 400)
	mem := agent.NewMemory(0)
	other, err := m.db.CreateConversation("test-model")
	if err != nil {
		t.Fatal(err)
	}
	seedHistory(t, m.db, other.ID, 240)
	ids := []store.ID{m.id, other.ID}
	for _, id := range ids {
		m.turn(t, mem, id, "first question")
	}
	for range 2 {
		for range ids {
			m.prov.Reply(providertest.Text("Noted."))
		}
		var wg sync.WaitGroup
		errs := make([]error, len(ids))
		for i, id := range ids {
			wg.Go(func() {
				a := m.agent(func(o *agent.Options) { o.Memory, o.ContextWindow = mem, 8192 })
				_, errs[i] = a.Turn(context.Background(), id, fmt.Sprintf("next question in conversation %d", i), nil)
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	reqs := m.prov.Requests()
	for i, id := range ids {
		// The last request whose last message asks in conversation i.
		var got provider.Request
		ask := fmt.Sprintf("next question in conversation %d", i)
		for _, r := range reqs {
			if last := r.Messages[len(r.Messages)-1]; last.Role == provider.RoleUser && strings.Contains(last.Content, ask) {
				got = r
			}
		}
		if got.Messages == nil {
			t.Fatalf("no request asked %q", ask)
		}
		if _, err := m.db.TruncateFrom(id, lastUserSeq(t, m.db, id)); err != nil {
			t.Fatal(err)
		}
		want, _ := m.turn(t, nil, id, ask)
		if !reflect.DeepEqual(got.Messages, want.Messages) {
			t.Errorf("conversation %d: with Memory the request has %d messages, without %d; first difference at %d",
				i, len(got.Messages), len(want.Messages), firstDiff(got.Messages, want.Messages))
		}
	}
}

// mem is the env's Memory.
func (m *memoryEnv) mem() *agent.Memory { return m.memory }

func lastUserSeq(t *testing.T, db *store.DB, id store.ID) uint64 {
	t.Helper()
	evs := events(t, db, id)
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == store.EventUserMessage {
			return evs[i].Seq
		}
	}
	t.Fatal("no user message")
	return 0
}

func firstDiff(a, b []provider.Message) int {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return i
		}
	}
	return min(len(a), len(b))
}

// BenchmarkTurnLongHistory is one whole turn (the message stored, the
// request built and fitted into a 32,768-token window, the reply stored)
// in a conversation of 1,000 or 5,000 earlier events, with the app's
// Memory and the store's cache as App.Turn has them ("cached"), and with
// both off, as on main ("nocache").
func BenchmarkTurnLongHistory(b *testing.B) {
	for _, warm := range []bool{true, false} {
		for _, n := range []int{1000, 5000} {
			mode := "cached"
			if !warm {
				mode = "nocache"
			}
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) { benchTurns(b, n, warm) })
		}
	}
}

func benchTurns(b *testing.B, n int, warm bool) {
	prov := providertest.NewProvider(b, "fake")
	dir := b.TempDir()
	cached := 0
	if !warm {
		cached = -1
	}
	db, err := store.Open(filepath.Join(dir, "wrasse.db"), store.Options{NoSync: true, CachedConversations: cached})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	reg, err := cerebellum.Open(cerebellum.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	c, err := db.CreateConversation("m")
	if err != nil {
		b.Fatal(err)
	}
	seedHistory(b, db, c.ID, n)
	var mem *agent.Memory
	if warm {
		mem = agent.NewMemory(0)
	}
	turn := func(i int) {
		prov.Reply(providertest.Text("Noted."))
		a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Model: "m", ContextWindow: 32768, Memory: mem})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.Turn(context.Background(), c.ID, fmt.Sprintf("question %d", i), nil); err != nil {
			b.Fatal(err)
		}
	}
	turn(0)
	b.ReportAllocs()
	i := 1
	for b.Loop() {
		turn(i)
		i++
	}
}
