package bench

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime/pprof"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// coreRun is the core without the app around it: the agent, the store
// with its syncs off and the OpenAI provider against the day server, so
// that what a turn costs late in a conversation against early shows
// without the disk's waits (BenchmarkLongDayTurns keeps them, as the app
// does, and its figures move with the disk's load).
type coreRun struct {
	db  *store.DB
	reg *cerebellum.Registry
	p   *openai.Provider
	mem *agent.Memory
}

func newCoreRun(b *testing.B, url string) *coreRun {
	b.Helper()
	db, err := store.Open(filepath.Join(b.TempDir(), "wrasse.db"), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	reg, err := cerebellum.Open(cerebellum.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { reg.Close() })
	p, err := openai.New(openai.Config{BaseURL: url + "/v1", Model: "bench-model", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	return &coreRun{db: db, reg: reg, p: p, mem: agent.NewMemory(0)}
}

// turn runs turn n of conversation id (0: a new one): every fourth a
// tool call (the registry has no such tool, so its result is an error)
// and an answer, the others a question and a short answer.
func (c *coreRun) turn(b *testing.B, id store.ID, n int) store.ID {
	if id == 0 {
		conv, err := c.db.CreateConversation("bench-model")
		if err != nil {
			b.Fatal(err)
		}
		id = conv.ID
	}
	a, err := agent.New(agent.Options{Registry: c.reg, Store: c.db, Provider: c.p, Model: "bench-model", ContextWindow: 32768,
		Memory: c.mem, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	text := fmt.Sprintf("Question %d: what should I do next?", n)
	if n%4 == 0 {
		text = fmt.Sprintf("tool %d", n)
	}
	if _, err := a.Turn(context.Background(), id, text, nil); err != nil {
		b.Fatalf("turn %d: %v", n, err)
	}
	return id
}

// timed is turn, labelled for CPU profiles of the benchmark (go tool pprof
// -tagfocus turn=timed): the untimed turns that bring a conversation to
// its point are left out.
func (c *coreRun) timed(b *testing.B, id store.ID, n int) store.ID {
	pprof.Do(context.Background(), pprof.Labels("turn", "timed"), func(context.Context) { id = c.turn(b, id, n) })
	return id
}

// BenchmarkCoreTurn is one more turn (a question and a short answer) at
// turn 10 of a new conversation and at turn 300 of a long one, through
// the agent, the store (syncs off) and the OpenAI provider against a
// local fake model; the long-day target is turn300/turn10 ≤ 1.3 in
// ns/op. Both time plain questions only.
func BenchmarkCoreTurn(b *testing.B) {
	for _, at := range []int{10, 300} {
		b.Run(fmt.Sprintf("turn=%d", at), func(b *testing.B) {
			srv, err := newDayServer()
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			// The bodies are checked to be JSON outside the time, as in
			// BenchmarkLongDayTurns: that is the fake's work.
			srv.deferCheck = true
			defer func() {
				if err := srv.verify(); err != nil {
					b.Error(err)
				}
			}()
			c := newCoreRun(b, srv.url)
			if at == 10 {
				// Each op is turn 10 of its own conversation: the nine
				// before it are not timed.
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					if err := srv.verify(); err != nil {
						b.Fatal(err)
					}
					var id store.ID
					for i := 1; i < at; i++ {
						id = c.turn(b, id, i)
					}
					b.StartTimer()
					c.timed(b, id, at)
				}
				return
			}
			var id store.ID
			for i := 1; i < at; i++ {
				id = c.turn(b, id, i)
			}
			b.ReportAllocs()
			n := at
			for b.Loop() {
				// Questions only, as at turn 10; the tool turns go
				// untimed in between.
				if n%4 == 0 {
					b.StopTimer()
					if err := srv.verify(); err != nil {
						b.Fatal(err)
					}
					id = c.turn(b, id, n)
					n++
					b.StartTimer()
				}
				id = c.timed(b, id, n)
				n++
			}
		})
	}
}
