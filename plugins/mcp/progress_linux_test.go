package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// wireLog records the messages the client writes to a server: what went
// over the wire, to check what Wrasse told it.
type wireLog struct {
	mu   sync.Mutex
	sent []jsonrpc.Message
}

func (w *wireLog) add(m jsonrpc.Message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent = append(w.sent, m)
}

// notifications are the methods of the notifications sent.
func (w *wireLog) notifications() []*jsonrpc.Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*jsonrpc.Request
	for _, m := range w.sent {
		if r, ok := m.(*jsonrpc.Request); ok && !r.IsCall() {
			out = append(out, r)
		}
	}
	return out
}

// callID is the id of the tools/call request sent.
func (w *wireLog) callID() (jsonrpc.ID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.sent {
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() && r.Method == "tools/call" {
			return r.ID, true
		}
	}
	return jsonrpc.ID{}, false
}

type recordingTransport struct {
	inner sdk.Transport
	log   *wireLog
}

func (t recordingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return recordingConn{Connection: c, log: t.log}, nil
}

type recordingConn struct {
	sdk.Connection
	log *wireLog
}

func (c recordingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.log.add(m)
	return c.Connection.Write(ctx, m)
}

// everythingRegistry opens a registry over the published reference
// server (server-everything, started with node, its messages recorded in
// log) with a loader made with opts.
func everythingRegistry(t *testing.T, opts Options, log *wireLog) *cerebellum.Registry {
	t.Helper()
	if testing.Short() {
		t.Skip("starts node servers")
	}
	dir := npmServers(t)
	node := needNode(t)
	ws := t.TempDir()
	writeCap(t, ws, "everything", "---\nname: everything\ndescription: The MCP reference server's test tools.\nmcp:\n  command: node\n---\n")
	opts.Dial = func(context.Context, string) (sdk.Transport, error) {
		cmd := exec.Command(node, serverPath(dir, "server-everything"))
		ownGroup(cmd)
		return recordingTransport{inner: &sdk.CommandTransport{Command: cmd, TerminateDuration: 500 * time.Millisecond}, log: log}, nil
	}
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: NewLoader(opts)},
		Settings: &cerebellum.MemorySettings{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	approveAll(t, reg)
	// Started, it lists its tools.
	if err := reg.Start(t.Context(), "everything"); err != nil {
		t.Fatalf("start everything: %v", err)
	}
	return reg
}

// TestProgressOfALongCall runs the reference server's long-running
// operation in a conversation: each of its steps reaches Options.Progress
// as a report of that conversation's call, with the total.
func TestProgressOfALongCall(t *testing.T) {
	var mu sync.Mutex
	var got []Progress
	reg := everythingRegistry(t, Options{Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
	}}, &wireLog{})
	sess := reg.NewSession("conv-7", nil)
	res, err := reg.Call(t.Context(), sess, "everything__trigger-long-running-operation", json.RawMessage(`{"duration":0.3,"steps":3}`))
	if err != nil || res.IsError {
		t.Fatalf("call = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []Progress{
		{Server: "everything", Tool: "trigger-long-running-operation", Conversation: "conv-7", Progress: 1, Total: 3},
		{Server: "everything", Tool: "trigger-long-running-operation", Conversation: "conv-7", Progress: 2, Total: 3},
		{Server: "everything", Tool: "trigger-long-running-operation", Conversation: "conv-7", Progress: 3, Total: 3},
	}
	// The SDK handles a notification apart from the response that follows
	// it, so the last step's report, sent just before the result, may be
	// handled after the call ended, and is then dropped as stale (a card
	// already done shows no progress). The steps before it are not.
	if len(got) < 2 || !slices.Equal(got, want[:len(got)]) {
		t.Fatalf("progress = %+v\nwant %+v (the last one may be missing)", got, want)
	}
	if f, ok := got[1].Fraction(); !ok || f < 0.66 || f > 0.67 {
		t.Errorf("Fraction of %+v = %v, %v; want 2/3", got[1], f, ok)
	}
}

// TestStoppingACallTellsTheServer cancels a running call of the reference
// server (Stop in the window, Esc, Ctrl+C): the server is sent
// notifications/cancelled naming the request, and the call ends at once.
func TestStoppingACallTellsTheServer(t *testing.T) {
	log := &wireLog{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// The first progress report says the call is under way on the server.
	reg := everythingRegistry(t, Options{Progress: func(Progress) { cancel() }}, log)
	_, err := reg.Call(ctx, nil, "everything__trigger-long-running-operation", json.RawMessage(`{"duration":30,"steps":300}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	id, ok := log.callID()
	if !ok {
		t.Fatal("no tools/call was sent")
	}
	waitFor(t, "notifications/cancelled", func() bool {
		for _, n := range log.notifications() {
			if n.Method != "notifications/cancelled" {
				continue
			}
			var p sdk.CancelledParams
			if err := json.Unmarshal(n.Params, &p); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(p.RequestID) == fmt.Sprint(id.Raw()) {
				return true
			}
			t.Fatalf("cancelled %v (%T), want the call %v (%T)", p.RequestID, p.RequestID, id.Raw(), id.Raw())
		}
		return false
	})
}
