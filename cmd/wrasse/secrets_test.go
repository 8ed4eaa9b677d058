package main

import (
	"strings"
	"testing"
)

// `config set baseURL` to another host without a terminal leaves the key
// with its host: the next chat fails before sending anything and says
// how to confirm; --send-key confirms.
func TestConfigSetBaseURLKeepsTheKey(t *testing.T) {
	const key = "sk-stored-secret-value-42"
	ws := t.TempDir()
	home := newModel(t, text("home answered."))
	if code, _, errOut := chatCLI(t, ws, "", nil, "config", "set", "baseURL", home.BaseURL()); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := chatCLI(t, ws, key, nil, "secrets", "set", "openai_api_key"); code != 0 {
		t.Fatal(errOut)
	}
	other := newModel(t, text("other answered."))
	code, out, errOut := chatCLI(t, ws, "", nil, "config", "set", "baseURL", other.BaseURL())
	if code != 0 || !strings.Contains(out, "Saved baseURL") || !strings.Contains(errOut, "nothing was sent") ||
		!strings.Contains(errOut, "→ wrasse config set baseURL "+other.BaseURL()+" --send-key") {
		t.Fatalf("set without confirming: %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = chatCLI(t, ws, "", nil, "chat", "hi")
	if code != 1 || !strings.Contains(strings.ToLower(errOut), "the api key is not sent to this host") || len(other.Requests()) != 0 {
		t.Fatalf("chat after the move: %d, %d requests\n%s", code, len(other.Requests()), errOut)
	}
	code, out, errOut = chatCLI(t, ws, "", nil, "config", "set", "baseURL", other.BaseURL(), "--send-key")
	if code != 0 || !strings.Contains(out, "is now sent to http://127.0.0.1:") {
		t.Fatalf("--send-key: %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := chatCLI(t, ws, "", nil, "chat", "hi"); code != 0 || out != "other answered.\n" {
		t.Fatalf("chat after confirming: %d %q\n%s", code, out, errOut)
	}
	if got := auth(other.Requests()[0]); got != "Bearer "+key {
		t.Errorf("Authorization %q", got)
	}
	if _, out, _ := chatCLI(t, ws, "", nil, "secrets", "list"); !strings.Contains(out, "openai_api_key  (sent only to http://127.0.0.1:") {
		t.Errorf("list: %s", out)
	}
}

func TestSecretsAssign(t *testing.T) {
	ws := workspaceWith(t)
	mustCLI(t, ws, "mcp", "add", "remote", "--url", "https://h.example/mcp", "--header", "X-Key=${secret:openai_api_key}", "--header", "X-Token=${secret:gh_token}")
	if out := mustCLI(t, ws, "secrets", "list"); strings.Contains(out, "gh_token") {
		t.Errorf("listed a secret not stored: %s", out)
	}
	out := mustCLI(t, ws, "mcp", "add", "other", "--url", "https://h.example/mcp", "--header", "X-Key=${secret:openai_api_key}")
	if !strings.Contains(out, "note: openai_api_key is a provider's API key and was not given to other; only if other must have it: wrasse secrets assign openai_api_key other --provider-key") {
		t.Errorf("mcp add with the provider key:\n%s", out)
	}
	code, _, errOut := cli(t, ws, "secrets", "assign", "openai_api_key", "other")
	if code != 1 || !strings.Contains(errOut, "openai_api_key is your OpenAI API key") || !strings.Contains(errOut, "→ wrasse secrets assign openai_api_key other --provider-key") {
		t.Fatalf("assign the provider key: %d\n%s", code, errOut)
	}
	code, out, errOut = cli(t, ws, "secrets", "assign", "openai_api_key", "other", "--provider-key")
	if code != 0 || !strings.Contains(out, "other may now use the secret openai_api_key") || !strings.Contains(errOut, "warning: other now receives a provider API key") {
		t.Fatalf("assign with --provider-key: %d\n%s%s", code, out, errOut)
	}
	out = mustCLI(t, ws, "secrets", "assign", "gh_token", "other")
	if !strings.Contains(out, "It is not stored yet: wrasse secrets set gh_token") {
		t.Errorf("assign a secret not stored: %s", out)
	}
	if out := mustCLI(t, ws, "secrets", "unassign", "gh_token", "other"); !strings.Contains(out, "other may no longer use the secret gh_token") {
		t.Errorf("unassign: %s", out)
	}
	if code, _, errOut := cli(t, ws, "secrets", "assign", "gh_token", "nosuch"); code != 1 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("assign to nothing: %d %s", code, errOut)
	}
}
