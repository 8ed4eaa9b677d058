package assistant

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// Each failure kind gets its own hint, and only a refused key points at
// the key (issue 24).
func TestModelHintPerKind(t *testing.T) {
	cfg := workspace.Config{Provider: "openai", BaseURL: "http://box:8080/v1", Model: "m"}
	for _, c := range []struct {
		name    string
		pe      provider.Error
		action  string
		command string
	}{
		{"refused", provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailRefused}, "running", "config set baseURL"},
		{"refused here", provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailRefused, Local: true}, "Start the model server", "config set baseURL"},
		{"host not found", provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailHostNotFound}, "host name", "config set baseURL"},
		{"web page", provider.Error{Kind: provider.ErrBadStream, Detail: provider.DetailNotAPI}, "web page", "config set baseURL"},
		{"server error", provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailServer}, "problem of its own", ""},
		{"stalled a minute", provider.Error{Kind: provider.ErrTimeout, Detail: provider.DetailStalled, Waited: time.Minute}, "longer", "config set streamIdleTimeout 2m"},
		{"no start in 5 min", provider.Error{Kind: provider.ErrTimeout, Detail: provider.DetailNoStart, Waited: 5 * time.Minute}, "longer", "config set streamIdleTimeout 10m"},
		{"key refused", provider.Error{Kind: provider.ErrAuth, Status: 401}, "API key", "secrets set openai_api_key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pe := c.pe
			h := modelHint(&pe, cfg)
			cmd := strings.Join(h.Command, " ")
			if !strings.Contains(h.Action, c.action) || !strings.HasPrefix(cmd, c.command) {
				t.Errorf("hint %q (%q), want an action with %q and the command %q", h.Action, cmd, c.action, c.command)
			}
			if pe.Kind != provider.ErrAuth && (strings.Contains(strings.ToLower(h.Action), "key") || strings.Contains(cmd, "secrets")) {
				t.Errorf("a %s failure points at the API key: %q (%q)", c.name, h.Action, cmd)
			}
		})
	}
}

// A provider that cannot be built says why in a sentence of its own,
// then what to check, without the API key.
func TestSetupTextForBadURL(t *testing.T) {
	a := &App{}
	got := a.setupTextFor(workspace.Config{Provider: "openai", BaseURL: "htp:/x"}, errors.New(`openai provider: base URL "htp:/x" must be an http(s) URL`))
	want := `Openai provider: base URL "htp:/x" must be an http(s) URL. Check the provider, base URL and model in the model settings.`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
