package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// BenchmarkEnterToRequest is the models section's Enter row as a Go
// benchmark: one App.Turn in a 5,000-message conversation of a workspace of
// 1,000 capabilities, against the Ollama fake (each op is a whole turn: the
// request and the reply "Noted."). The first turn, which learns the
// window, runs before the timer.
func BenchmarkEnterToRequest(b *testing.B) {
	ws, err := writeWorkspace(filepath.Join(b.TempDir(), "ws"), captest.Generate(enterCaps, enterCaps, 1))
	if err != nil {
		b.Fatal(err)
	}
	o := providertest.StartOllama(providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 131072}))
	defer o.Close()
	if err := (workspace.Workspace{Root: ws}).SaveConfig(workspace.Config{Provider: "ollama", BaseURL: o.URL(), Model: "llama3.1:8b"}); err != nil {
		b.Fatal(err)
	}
	id, err := seedConversation(filepath.Join(ws, store.FileName), enterMessages)
	if err != nil {
		b.Fatal(err)
	}
	app, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer app.Close()
	ctx := context.Background()
	turn := func(i int) {
		o.Reply(providertest.Text("Noted."))
		if _, err := app.Turn(ctx, id, fmt.Sprintf("Question %d: anything new about the launch?", i), assistant.TurnOptions{}); err != nil {
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
