package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// sectionModels measures what talking to real model servers costs a turn
// (issue 23): from pressing Enter to the request leaving, and the requests
// that learning the context window adds.
const sectionModels = "models"

// Targets of issue 23.
const (
	enterCaps     = 1000
	enterMessages = 5000
	enterTarget   = 10 * time.Millisecond
)

// modelsSection runs the measurements against fake servers that behave
// like the real ones (providertest.Ollama, and a vLLM-like OpenAI server).
func (r *runner) modelsSection(ctx context.Context) []Row {
	turns := 20
	if r.cfg.Short {
		turns = 5
	}
	rows := r.enterToRequest(ctx, turns)
	return append(rows, r.discoveryRequests(ctx, turns)...)
}

// enterToRequest times App.Turn, the window's Enter, to the moment the
// whole request has reached a local Ollama (providertest.Ollama, the
// model's window 131,072 tokens from /api/show), in a workspace of 1,000
// capabilities with a 5,000-message conversation. The first turn, which
// learns the window, is not counted.
func (r *runner) enterToRequest(ctx context.Context, turns int) []Row {
	measure := fmt.Sprintf("Enter to request sent, %s capabilities, %s-message conversation (Ollama)", FormatInt(enterCaps), FormatInt(enterMessages))
	fail := func(err error) []Row { return []Row{errorRow(sectionModels, measure, err)} }
	ws, err := writeWorkspace(filepath.Join(r.tmp, "models-enter"), captest.Generate(enterCaps, enterCaps, r.cfg.Seed))
	if err != nil {
		return fail(err)
	}
	o := providertest.StartOllama(providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 131072}))
	defer o.Close()
	if err := (workspace.Workspace{Root: ws}).SaveConfig(workspace.Config{Provider: "ollama", BaseURL: o.URL(), Model: "llama3.1:8b"}); err != nil {
		return fail(err)
	}
	id, err := seedConversation(filepath.Join(ws, store.FileName), enterMessages)
	if err != nil {
		return fail(err)
	}
	app, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		return fail(err)
	}
	defer app.Close()
	var waits []time.Duration
	for i := range turns + 1 {
		o.Reply(providertest.Text("Noted."))
		t0 := time.Now()
		if _, err := app.Turn(ctx, id, fmt.Sprintf("Question %d: anything new about the launch?", i), assistant.TurnOptions{}); err != nil {
			return fail(fmt.Errorf("turn %d: %w", i+1, err))
		}
		reqs := o.Requests()
		if i > 0 {
			waits = append(waits, reqs[len(reqs)-1].Received.Sub(t0))
		}
	}
	if err := o.Err(); err != nil {
		return fail(err)
	}
	p50 := Median(waits)
	last := o.Requests()[len(o.Requests())-1]
	return []Row{{Section: sectionModels, Measure: measure, Value: FormatDuration(p50), Number: float64(p50) / 1e6, Unit: "ms",
		Target: "≤ " + FormatDuration(enterTarget), Pass: verdict(p50 <= enterTarget),
		Note: fmt.Sprintf("p50 of %d turns after the first: App.Turn called until the whole /api/chat request has reached the server (its read time). "+
			"The request is fitted to the 131,072-token window /api/show gave, %s messages sent, %s bytes, num_ctx %s; the store, registry, "+
			"request building, fitting, encoding and HTTP are all in the figure. Max %s.",
			len(waits), FormatInt(len(last.Messages)), FormatInt(len(last.Body)), FormatInt(last.NumCtx), FormatDuration(slicesMax(waits)))}}
}

func slicesMax(ds []time.Duration) time.Duration {
	m := time.Duration(0)
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// seedConversation writes a conversation of n messages (requestEvents)
// into the database at path, without fsync, and returns its id.
func seedConversation(path string, n int) (store.ID, error) {
	db, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	c, err := db.CreateConversation("llama3.1:8b")
	if err != nil {
		return 0, err
	}
	for _, e := range requestEvents(n) {
		e.Seq = 0
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			return 0, err
		}
	}
	return c.ID, nil
}

// discoveryRequests counts the requests that learning the window adds,
// per turn after the first: Ollama (/api/show) and an OpenAI-compatible
// vLLM (/v1/models).
func (r *runner) discoveryRequests(ctx context.Context, turns int) []Row {
	var rows []Row
	count := func(measure string, setup func(ws string) (other func() int, reply func(), done func(), err error)) {
		fail := func(err error) { rows = append(rows, errorRow(sectionModels, measure, err)) }
		ws := filepath.Join(r.tmp, "models-discovery-"+fmt.Sprint(len(rows)))
		if err := os.MkdirAll(ws, 0o700); err != nil {
			fail(err)
			return
		}
		other, reply, done, err := setup(ws)
		if err != nil {
			fail(err)
			return
		}
		defer done()
		app, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
		if err != nil {
			fail(err)
			return
		}
		defer app.Close()
		var id store.ID
		var first int
		for i := range turns + 1 {
			reply()
			if id, err = app.Turn(ctx, id, "hello", assistant.TurnOptions{}); err != nil {
				fail(fmt.Errorf("turn %d: %w", i+1, err))
				return
			}
			if i == 0 {
				first = other()
			}
		}
		extra := float64(other()-first) / float64(turns)
		win, _ := app.KnownContextWindow("")
		rows = append(rows, Row{Section: sectionModels, Measure: measure, Value: fmt.Sprintf("%.0f", extra), Number: extra, Unit: "requests",
			Baseline: fmt.Sprintf("first turn %d", first), Target: "0", Pass: verdict(extra == 0),
			Note: fmt.Sprintf("requests to anything but the chat endpoint, per turn over %d turns after the first; the first learnt %s", turns, win)})
	}
	count("window discovery requests per turn after the first (Ollama /api/show)", func(ws string) (func() int, func(), func(), error) {
		o := providertest.StartOllama()
		err := (workspace.Workspace{Root: ws}).SaveConfig(workspace.Config{Provider: "ollama", BaseURL: o.URL(), Model: "llama3.1:8b"})
		return o.OtherRequests, func() { o.Reply(providertest.Text("Hi.")) }, o.Close, err
	})
	count("window discovery requests per turn after the first (vLLM /v1/models)", func(ws string) (func() int, func(), func(), error) {
		m, err := providertest.StartModel(providertest.OpenAI, providertest.WithServer(providertest.VLLM),
			providertest.WithModels(provider.ModelInfo{ID: "Qwen/Qwen3-8B", ContextWindow: 40960}))
		if err != nil {
			return nil, nil, func() {}, err
		}
		err = (workspace.Workspace{Root: ws}).SaveConfig(workspace.Config{Provider: "openai", BaseURL: m.BaseURL(), Model: "Qwen/Qwen3-8B"})
		return func() int { return len(m.ModelListRequests()) }, func() { m.Reply(providertest.Text("Hi.")) }, m.Close, err
	})
	return rows
}
