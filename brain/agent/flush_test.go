package agent_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// probeProvider streams pieces of text and, after each, records how much of
// the reply the store holds: what a crash at that moment would keep.
type probeProvider struct {
	db     *store.DB
	pieces []string
	sent   []int // bytes sent, after each piece
	stored []int // bytes committed, after each piece
}

func (p *probeProvider) Name() string { return "probe" }

func (p *probeProvider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	resp := &provider.Response{StopReason: "end"}
	sent := 0
	for _, s := range p.pieces {
		if err := onEvent(provider.Event{Type: provider.EventText, Text: s}); err != nil {
			return resp, err
		}
		sent += len(s)
		resp.Text += s
		convs, err := p.db.ListConversations()
		if err != nil || len(convs) != 1 {
			return resp, err
		}
		evs, err := p.db.LastEvents(convs[0].ID, 1)
		if err != nil {
			return resp, err
		}
		p.sent = append(p.sent, sent)
		p.stored = append(p.stored, len(evs[0].Text))
	}
	return resp, nil
}

// stepClock advances by step at every reading.
type stepClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// Streamed text is committed once the waiting text reaches 512 bytes and
// an eighth of the reply, or 250 ms (by the injected clock) after the last
// commit; whatever the policy, the finished reply is whole.
func TestStreamedTextCommits(t *testing.T) {
	const piece = 64
	tests := []struct {
		name       string
		pieces     int
		clockStep  time.Duration
		maxCommits int // commits while streaming, at most
		minCommits int
	}{
		// 64 KiB: 512-byte batches would be 128 commits; an eighth of the
		// reply keeps it near 8 + log(16)/log(9/8) ≈ 32.
		{"fast long reply", 1024, 0, 36, 28},
		// Below 4 KiB the 512-byte floor rules: one commit per 8 pieces.
		{"short reply", 40, 0, 5, 5},
		// A slow stream commits every piece once 250 ms pass between them.
		{"slow stream", 20, 300 * time.Millisecond, 20, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			var pieces []string
			var want strings.Builder
			for i := range tt.pieces {
				p := strings.Repeat(string(rune('a'+i%26)), piece)
				pieces = append(pieces, p)
				want.WriteString(p)
			}
			prov := &probeProvider{db: e.db, pieces: pieces}
			clock := &stepClock{t: time.Date(2025, 3, 4, 15, 0, 0, 0, time.UTC), step: tt.clockStep}
			id, err := e.agent(func(o *agent.Options) { o.Provider = prov; o.Clock = clock.now }).Turn(t.Context(), e.conv(), "write", nil)
			if err != nil {
				t.Fatal(err)
			}
			commits, last := 0, 0
			for i, n := range prov.stored {
				if n != last {
					commits++
					last = n
				}
				// What is not yet committed is at most one batch.
				if waiting := prov.sent[i] - n; waiting >= max(512, prov.sent[i]/8) && tt.clockStep == 0 {
					t.Fatalf("after piece %d: %d bytes sent, %d stored", i+1, prov.sent[i], n)
				}
			}
			if commits < tt.minCommits || commits > tt.maxCommits {
				t.Errorf("%d commits while streaming, want %d..%d", commits, tt.minCommits, tt.maxCommits)
			}
			ev := events(t, e.db, id)
			if reply := ev[1]; reply.Text != want.String() || reply.Status != store.StatusComplete {
				t.Errorf("reply: %d bytes, status %q; want %d bytes", len(reply.Text), reply.Status, want.Len())
			}
		})
	}
}

// BenchmarkStreamedReply1MB runs a turn whose reply is 1 MiB streamed in
// 64-byte deltas, stored durably (fsync on) as the agent batches it.
func BenchmarkStreamedReply1MB(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), store.FileName), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fstest.MapFS{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { reg.Close() })
	delta := strings.Repeat("0123456789abcdef", 4)
	pieces := make([]string, 1<<20/len(delta))
	for i := range pieces {
		pieces[i] = delta
	}
	prov := &replayProvider{pieces: pieces}
	a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Model: "m"})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(1 << 20)
	for b.Loop() {
		c, err := db.CreateConversation("m")
		if err != nil {
			b.Fatal(err)
		}
		id, err := a.Turn(b.Context(), c.ID, "write a lot", nil)
		if err != nil {
			b.Fatal(err)
		}
		if e, err := db.LastEvents(id, 2); err != nil || len(e[0].Text) != 1<<20 {
			b.Fatalf("reply not stored whole: %v", err)
		}
	}
}

// replayProvider streams the same pieces on every request.
type replayProvider struct{ pieces []string }

func (p *replayProvider) Name() string { return "replay" }

func (p *replayProvider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	resp := &provider.Response{StopReason: "end", Usage: provider.Usage{InputTokens: 1, OutputTokens: 1}}
	for _, s := range p.pieces {
		if err := onEvent(provider.Event{Type: provider.EventText, Text: s}); err != nil {
			return resp, err
		}
	}
	return resp, nil
}
