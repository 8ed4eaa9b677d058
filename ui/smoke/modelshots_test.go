//go:build smoke && screenshots

package smoke

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// localModels are the models the fake Ollama of the pictures has.
var localModels = []pt.OllamaModel{
	{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960, Size: 5_225_000_000, Family: "qwen3"},
	{Name: "llama3.1:8b", Capabilities: []string{"completion", "tools"}, ContextLength: 131072},
	{Name: "llava:7b", Capabilities: []string{"completion", "vision"}, ContextLength: 32768, Size: 4_733_000_000},
	{Name: "nomic-embed-text", Capabilities: []string{"embedding"}, Size: 274_000_000},
}

// TestScreenshotsModels takes the pictures of models in the real window
// (`make screenshots`), against the fake Ollama: the first run finding a
// server, downloading a model and, with nothing answering, the setup
// page; the chat waiting for a model to load, a thinking block, the
// header's model picker, the Model page, and a model without tools
// whose reply stopped at the length limit. The first-run pictures need
// Ollama's and LM Studio's usual ports free (the fake listens on 11434);
// they are skipped when something else holds them.
func TestScreenshotsModels(t *testing.T) {
	out := shotsDir(t)
	ctx, bin := begin(t, 4*time.Minute)
	env := privateEnv(t)

	if free(t, "127.0.0.1:1234") {
		firstRunShots(t, ctx, bin, env, out)
	}
	chatShots(t, ctx, bin, env, out)
}

// free reports whether nothing listens on addr.
func free(t *testing.T, addr string) bool {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Logf("%s is taken: the first-run pictures are skipped", addr)
		return false
	}
	l.Close()
	return true
}

// start runs the window on a workspace; the returned func closes it.
func start(t *testing.T, ctx context.Context, bin string, env []string, ws string) func() {
	t.Helper()
	return launch(t, ctx, bin, env, ws).stop
}

func firstRunShots(t *testing.T, ctx context.Context, bin string, env []string, out string) {
	// Nothing answers: the setup page.
	if !free(t, "127.0.0.1:11434") {
		return
	}
	stop := start(t, ctx, bin, env, t.TempDir())
	time.Sleep(3 * time.Second) // the search gives up on both addresses
	shot(t, ctx, filepath.Join(out, "first-run-setup.png"))
	stop()

	// Ollama answers with models that use tools.
	l, err := net.Listen("tcp", "127.0.0.1:11434")
	if err != nil {
		t.Fatal(err)
	}
	o := pt.NewOllama(t, pt.WithOllamaListener(l), pt.WithOllamaModels(localModels...))
	stop = start(t, ctx, bin, env, t.TempDir())
	time.Sleep(2 * time.Second)
	shot(t, ctx, filepath.Join(out, "first-run.png"))
	stop()
	o.Close()

	// Ollama answers with none that does: a download under way.
	l, err = net.Listen("tcp", "127.0.0.1:11434")
	if err != nil {
		t.Fatal(err)
	}
	o = pt.NewOllama(t, pt.WithOllamaListener(l),
		pt.WithOllamaModels(pt.OllamaModel{Name: "llama2:7b", Capabilities: []string{"completion"}, ContextLength: 4096, Size: 3_826_000_000}),
		pt.WithPullable(localModels[0], 5_225_000_000), pt.WithPullPace(600*time.Millisecond, 100))
	stop = start(t, ctx, bin, env, t.TempDir())
	time.Sleep(2 * time.Second)
	click(t, ctx, "395", "419") // Download qwen3:8b
	time.Sleep(5 * time.Second)
	shot(t, ctx, filepath.Join(out, "first-run-download.png"))
	stop()
	o.Close()
}

func chatShots(t *testing.T, ctx context.Context, bin string, env []string, out string) {
	o := pt.NewOllama(t, pt.WithOllamaModels(localModels...))
	loaded := make(chan struct{})
	o.Reply(pt.Wait(loaded), pt.Thinking("The user wants to know what is in their projects folder. ",
		"I should list it rather than guess, then say what I find.\n", "The files tool lists a folder; one call is enough."),
		pt.Text("I'll look at your projects folder first."))
	ws := t.TempDir()
	writeConfig(t, ws, map[string]any{"provider": "ollama", "baseURL": o.URL(), "model": "qwen3:8b", "folders": []string{t.TempDir()}})
	stop := start(t, ctx, bin, env, ws)
	send(t, ctx, "What is in my projects folder?")
	time.Sleep(3500 * time.Millisecond) // Ollama says it loads the model
	shot(t, ctx, filepath.Join(out, "waiting.png"))
	close(loaded)
	waitFor(t, ctx, "the reply", func() bool { return o.Pending() == 0 })
	time.Sleep(1500 * time.Millisecond)
	click(t, ctx, "355", "176") // Thinking
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "thinking.png"))
	// The Model page first: after the picker's menu a click on Settings
	// was not always taken under Xvfb.
	click(t, ctx, "68", "693") // Settings
	time.Sleep(1500 * time.Millisecond)
	shot(t, ctx, filepath.Join(out, "model-page.png"))
	click(t, ctx, "68", "693") // Back to chat
	time.Sleep(1500 * time.Millisecond)
	click(t, ctx, "955", "53") // the model picker
	time.Sleep(1500 * time.Millisecond)
	shot(t, ctx, filepath.Join(out, "model-picker.png"))
	xdo(t, ctx, "key", "Escape")
	stop()

	plainShots(t, ctx, bin, env, out)
}

// plainShots takes a model without tools answering (the note under its
// reply) at the length limit (the note and Continue).
func plainShots(t *testing.T, ctx context.Context, bin string, env []string, out string) {
	o := pt.NewOllama(t, pt.WithOllamaModels(localModels...))
	o.Reply(pt.Text("Here is a short story about a wrasse that cleans the teeth of larger fish on a reef. "+
		"Every morning the little fish opens its station by the coral"), pt.MaxTokens())
	ws := t.TempDir()
	writeConfig(t, ws, map[string]any{"provider": "ollama", "baseURL": o.URL(), "model": "llava:7b", "folders": []string{t.TempDir()}})
	stop := start(t, ctx, bin, env, ws)
	defer stop()
	send(t, ctx, "Tell me a story about a wrasse.")
	waitFor(t, ctx, "the reply", func() bool { return o.Pending() == 0 })
	time.Sleep(1500 * time.Millisecond)
	shot(t, ctx, filepath.Join(out, "no-tools-continue.png"))
}
