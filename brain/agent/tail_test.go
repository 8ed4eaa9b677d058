package agent_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// tailTurn runs a turn of text in id with mem (nil: none) in a window of
// window tokens and returns the request it sent.
func tailTurn(t *testing.T, e *env, mem *agent.Memory, id store.ID, window int, text string) provider.Request {
	t.Helper()
	e.prov.Reply(providertest.Text("Noted."))
	a := e.agent(func(o *agent.Options) { o.Memory, o.ContextWindow = mem, window })
	if _, err := a.Turn(context.Background(), id, text, nil); err != nil {
		t.Fatal(err)
	}
	reqs := e.prov.Requests()
	return reqs[len(reqs)-1]
}

// noSyncEnv is newEnv over a database written without fsync.
func noSyncEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, providertest.NewProvider(t, "fake"))
	db, err := store.Open(filepath.Join(t.TempDir(), "wrasse.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e.db = db
	return e
}

// Turns that hold only the tail of a long conversation (Memory) send the
// requests turns that read all of it send: two copies of a conversation,
// the same turns in each, one with Memory and one without; among them a
// turn with a window that takes the whole conversation, and an edit far
// before the tail.
func TestTailTurnsSendWholeHistoryRequests(t *testing.T) {
	e := noSyncEnv(t)
	var ids [2]store.ID
	for i := range ids {
		c, err := e.db.CreateConversation("test-model")
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = c.ID
		seedHistory(t, e.db, c.ID, 2000)
	}
	mem := agent.NewMemory(0)
	steps := []struct {
		window int
		change func(id store.ID)
	}{
		{8192, nil}, {8192, nil}, {8192, nil},
		{1 << 20, nil}, // everything fits: the tail is too short
		{8192, nil}, {8192, nil},
		{8192, func(id store.ID) { // an edit far before the tail
			e1, err := e.db.Event(id, 3)
			if err != nil {
				t.Fatal(err)
			}
			e1.Text = "shorter now"
			if err := e.db.UpdateEvent(id, e1); err != nil {
				t.Fatal(err)
			}
		}},
		{8192, nil}, {4096, nil}, {16384, nil},
	}
	cut := false
	for i, s := range steps {
		var reqs [2]provider.Request
		for j, id := range ids {
			if s.change != nil {
				s.change(id)
			}
			m := mem
			if j == 1 {
				m = nil
			}
			reqs[j] = tailTurn(t, e, m, id, s.window, "question of step "+string(rune('a'+i)))
		}
		if !reflect.DeepEqual(reqs[0].Messages, reqs[1].Messages) || reqs[0].EstimatedTokens != reqs[1].EstimatedTokens {
			t.Fatalf("step %d (window %d): the request from the tail differs from the whole history's at message %d",
				i, s.window, firstDiff(reqs[0].Messages, reqs[1].Messages))
		}
		if mem.TailFrom(ids[0]) > 0 {
			cut = true
		}
	}
	if !cut {
		t.Fatal("the conversation was never cut to a tail")
	}
}

// An "approve for this conversation" answer given before the tail a turn
// holds still approves the same call: it is not asked about again.
func TestTailKeepsGrantsBeforeIt(t *testing.T) {
	e := noSyncEnv(t)
	id := newConv(t, e.db)
	js := func(cmd string) string { b, _ := json.Marshal(map[string]string{"command": cmd}); return string(b) }
	mem := agent.NewMemory(0)
	a := func(window int) *agent.Agent {
		return e.agent(func(o *agent.Options) { o.GateEnv, o.Memory, o.ContextWindow = gateEnv(e.dir), mem, window })
	}
	add(e.prov, calls(tc("c1", "shell_exec", js("git status"))), text("done"))
	e.appr.answers = []gate.Approval{gate.ApproveConversation}
	if _, err := a(8192).Turn(t.Context(), id, "clean up", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 1 {
		t.Fatalf("asked %d times, want once", n)
	}
	seedHistory(t, e.db, id, 2000)
	add(e.prov, text("ok"))
	if _, err := a(8192).Turn(t.Context(), id, "anything new?", nil); err != nil {
		t.Fatal(err)
	}
	approval := uint64(0)
	for _, x := range events(t, e.db, id) {
		if x.Type == store.EventApproval {
			approval = x.Seq
		}
	}
	if from := mem.TailFrom(id); from <= approval {
		t.Fatalf("the tail begins at %d, not after the approval at %d: the test tells nothing", from, approval)
	}
	add(e.prov, calls(tc("c9", "shell_exec", js("git status"))), text("done again"))
	if _, err := a(8192).Turn(t.Context(), id, "clean up again", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 1 {
		t.Fatalf("the call approved for the conversation before the tail asked again (%d requests): %+v", n, e.appr.requests()[1])
	}
	if ran := e.rt.called(); len(ran) != 2 {
		t.Errorf("ran %q, want the command twice", ran)
	}
}

// After turns in a 5,000-event conversation, the agent's Memory and the
// store's cache hold only the tail a request can use: the heap retained
// grows by a small part of the history's decoded size (~10 MB held when
// they kept all of it).
func TestTailRetainedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a 5,000-event conversation")
	}
	e := noSyncEnv(t)
	id := newConv(t, e.db)
	seedHistory(t, e.db, id, 5000)
	mem := agent.NewMemory(0)
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := 0; i < 3; i++ {
		tailTurn(t, e, mem, id, 32768, "and now?")
	}
	grew := int64(heap()) - int64(before)
	runtime.KeepAlive(mem)
	t.Logf("retained heap after 3 turns in a 5,000-event conversation: %.1f MB", float64(grew)/(1<<20))
	if grew > 3<<20 {
		t.Errorf("retained heap grew by %.1f MB, want under 3 MB", float64(grew)/(1<<20))
	}
}
