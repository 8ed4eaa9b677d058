package main

import (
	"context"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Each flag that lets a provider key leave its host is refused on a
// command forwarded to the running Wrasse, with what to do instead, and
// nothing is changed: config set --send-key (the base URL stays), chat
// --send-key (no request), secrets assign --provider-key (no assignment).
// Without --send-key a forwarded config set is saved as before.
func TestForwardedKeyFlagsSayWhatToDo(t *testing.T) {
	const key = "sk-forwarded-0123456789abcdef"
	ws := t.TempDir()
	app := holdWorkspace(t, ws, serveHandler)
	home := providertest.NewModel(t, providertest.OpenAI)
	other := providertest.NewModel(t, providertest.OpenAI)
	if _, err := app.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "openai", home.BaseURL(), "m"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := app.SetAPIKey("openai", key); err != nil {
		t.Fatal(err)
	}
	if _, err := app.AddMCP(context.Background(), assistant.MCPServer{Name: "remote", MCPServer: skillmd.MCPServer{URL: "https://h.example/mcp"}}, false); err != nil {
		t.Fatal(err)
	}
	const refused = "is not taken from a command forwarded to the running Wrasse"
	to := assistant.KeyHost(other.BaseURL())

	code, out, errOut := cli(t, ws, "config", "set", "baseURL", other.BaseURL(), "--send-key")
	if code != 1 || !strings.Contains(errOut, "--send-key "+refused) || !strings.Contains(errOut, "Nothing was changed") ||
		!strings.Contains(errOut, "→ Confirm sending your OpenAI key to "+to+" on the window's Model page, or run this in your own terminal while no other Wrasse (a window or `wrasse caps watch`) holds this workspace") {
		t.Errorf("config set --send-key: %d\n%s%s", code, out, errOut)
	}
	if got := app.Config().BaseURL; got != home.BaseURL() {
		t.Errorf("the refused command saved baseURL %s", got)
	}

	code, out, errOut = chatCLI(t, ws, "", nil, "chat", "--base-url", other.BaseURL(), "--send-key", "hi")
	if code != 1 || !strings.Contains(errOut, "--send-key "+refused) || len(other.Requests()) != 0 ||
		!strings.Contains(errOut, "in your own terminal while no other Wrasse (a window or `wrasse caps watch`) holds this workspace") {
		t.Errorf("chat --send-key: %d, %d requests\n%s%s", code, len(other.Requests()), out, errOut)
	}

	code, out, errOut = cli(t, ws, "secrets", "assign", assistant.SecretOpenAI, "remote", "--provider-key")
	if code != 1 || !strings.Contains(errOut, "--provider-key "+refused) ||
		!strings.Contains(errOut, "→ Assign openai_api_key on remote's page in the window") ||
		!strings.Contains(errOut, "in your own terminal while no other Wrasse (a window or `wrasse caps watch`) holds this workspace") ||
		strings.Contains(errOut, "no Wrasse window is open") {
		t.Errorf("secrets assign --provider-key: %d\n%s%s", code, out, errOut)
	}
	if p, _ := app.SecretPlaces(assistant.SecretOpenAI); p.Allows("remote") {
		t.Error("the refused command assigned the key")
	}

	// The same move without the flag is saved; the key stays behind.
	if code, out, errOut := cli(t, ws, "config", "set", "baseURL", other.BaseURL()); code != 0 || !strings.Contains(out, "Saved baseURL") {
		t.Fatalf("config set without --send-key: %d\n%s%s", code, out, errOut)
	}
	if p, _ := app.SecretPlaces(assistant.SecretOpenAI); p.Host != assistant.KeyHost(home.BaseURL()) {
		t.Errorf("the key moved to %s", p.Host)
	}
}
