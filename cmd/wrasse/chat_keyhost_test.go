package main

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A chat to a host the provider's key is not kept for starts with why
// nothing answers (the key is kept for another host and waits for the
// person's word), not with "No model is set up", which is not so: a
// model is set up. Through the running Wrasse (a chat forwarded to it)
// and with the workspace free, one turn (--base-url) and for good (config
// set baseURL).
func TestChatToAnotherKeyHostSaysWhyFirst(t *testing.T) {
	const key = "sk-keyhost-0123456789abcdef"
	cases := []struct {
		name      string
		forwarded bool
		forGood   bool
	}{
		{"forwarded, one turn", true, false},
		{"forwarded, config set", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			app := holdWorkspace(t, ws, serveHandler)
			home := providertest.NewModel(t, providertest.OpenAI)
			other := providertest.NewModel(t, providertest.OpenAI)
			if _, err := app.UpdateConfig(func(cfg *workspace.Config) error {
				cfg.Provider, cfg.BaseURL, cfg.Model = "openai", home.BaseURL(), "m"
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if err := app.SetAPIKey("openai", key); err != nil {
				t.Fatal(err)
			}
			args := []string{"chat", "--base-url", other.BaseURL(), "hi"}
			if c.forGood {
				if code, out, errOut := cli(t, ws, "config", "set", "baseURL", other.BaseURL()); code != 0 {
					t.Fatalf("config set: %d\n%s%s", code, out, errOut)
				}
				args = []string{"chat", "hi"}
			}
			code, out, errOut := chatCLI(t, ws, "", nil, args...)
			to := assistant.KeyHost(other.BaseURL())
			first, _, _ := strings.Cut(errOut, "\n")
			if code != 1 || strings.Contains(errOut, "No model is set up") ||
				!strings.Contains(first, "wrasse: The API key is not sent to this host") || !strings.Contains(first, "is kept for "+assistant.KeyHost(home.BaseURL())) ||
				!strings.Contains(errOut, "Confirm sending your OpenAI key to "+to) || len(other.Requests()) != 0 {
				t.Errorf("chat: %d, %d requests\n%s%s", code, len(other.Requests()), out, errOut)
			}
		})
	}
}
