package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

func ollamaWorkspace(t *testing.T, o *providertest.Ollama, model string) string {
	t.Helper()
	ws := t.TempDir()
	for _, kv := range [][2]string{{"provider", "ollama"}, {"baseURL", o.URL()}, {"model", model}} {
		if code, _, errOut := cli(t, ws, "config", "set", kv[0], kv[1]); code != 0 {
			t.Fatalf("config set %s: %s", kv[0], errOut)
		}
	}
	return ws
}

// wrasse models lists the server's models with what each can do and its
// window, the configured one marked, and the window the next turn gets.
func TestModelsList(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(
		providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 131072},
		providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960},
		providertest.OllamaModel{Name: "nomic-embed-text:latest", Capabilities: []string{"embedding"}, ContextLength: 2048}))
	ws := ollamaWorkspace(t, o, "llama3.1:8b")
	code, out, errOut := cli(t, ws, "models")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"* llama3.1:8b              tools            131,072  4.9 GB",
		"  nomic-embed-text:latest  embedding only   2,048    4.9 GB",
		"  qwen3:8b                 tools, thinking  40,960   4.9 GB",
		"context window 131,072 tokens (Ollama /api/show).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = cli(t, ws, "models", "list", "--json")
	var doc struct {
		Model         string
		ContextWindow struct{ Tokens int }
		Models        []struct {
			ID        string
			Abilities []string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.ContextWindow.Tokens != 131072 || len(doc.Models) != 3 || doc.Models[2].Abilities[1] != "thinking" {
		t.Errorf("json: %d %s", code, out)
	}
}

// A configured model that is not downloaded is pointed out with the pull.
func TestModelsListMissingModel(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "qwen3:8b"}))
	ws := ollamaWorkspace(t, o, "llama3.1")
	code, _, errOut := cli(t, ws, "models")
	if code != 0 || !strings.Contains(errOut, "llama3.1 is not downloaded yet\n  → wrasse models pull llama3.1") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// wrasse models pull shows progress lines when not on a terminal, and a
// name the library lacks fails with what to do.
func TestModelsPull(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithPullable(providertest.OllamaModel{Name: "qwen3:8b"}, 5_200_000_000))
	ws := ollamaWorkspace(t, o, "qwen3:8b")
	code, out, errOut := cli(t, ws, "models", "pull", "qwen3:8b")
	want := "pulling manifest\n" +
		"pulling bbbbbbbbbbbb: 0% (0 B of 5.2 GB)\n" +
		"pulling bbbbbbbbbbbb: 50% (2.6 GB of 5.2 GB)\n" +
		"pulling bbbbbbbbbbbb: 100% (5.2 GB of 5.2 GB)\n" +
		"verifying sha256 digest\nwriting manifest\nsuccess\n"
	if code != 0 || out != "Pulled qwen3:8b.\n" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
	code, _, errOut = cli(t, ws, "models", "pull", "no-such-model")
	if code != exitFail || !strings.Contains(errOut, "Ollama's library has no model no-such-model") || !strings.Contains(errOut, "→ Check the model's name") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// With no server, the failure says to start it, not to set a key.
func TestModelsNoServer(t *testing.T) {
	ws := t.TempDir()
	for _, kv := range [][2]string{{"provider", "ollama"}, {"baseURL", providertest.ClosedURL(t)}} {
		if code, _, errOut := cli(t, ws, "config", "set", kv[0], kv[1]); code != 0 {
			t.Fatal(errOut)
		}
	}
	code, _, errOut := cli(t, ws, "models")
	if code != exitFail || !strings.Contains(errOut, "connection refused") || !strings.Contains(errOut, "→ wrasse config set baseURL URL") || strings.Contains(errOut, "secrets") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// On a terminal the bar is one line redrawn, with speed and time left.
func TestPullProgressBar(t *testing.T) {
	var b strings.Builder
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	p := newPullProgress(&b, true, func() time.Time { return now })
	p.step(ollama.Progress{Status: "pulling manifest"})
	p.step(ollama.Progress{Status: "pulling 6a0746a1ec1a", Total: 4_000_000_000})
	now = now.Add(10 * time.Second)
	p.step(ollama.Progress{Status: "pulling 6a0746a1ec1a", Total: 4_000_000_000, Completed: 1_000_000_000})
	p.end()
	want := "pulling manifest\n" +
		"\r\033[Kpulling 6a0746a1ec1a   0% ▕                        ▏ 0 B/4.0 GB" +
		"\r\033[Kpulling 6a0746a1ec1a  25% ▕██████                  ▏ 1.0 GB/4.0 GB  100 MB/s  30s left\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
