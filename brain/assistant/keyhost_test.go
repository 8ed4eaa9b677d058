package assistant

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

const testKey = "sk-test-0123456789abcdef"

// The provider key goes only to the host it was bound to when it was set.
// Moving baseURL to another host (here a second real server on another
// port, as `wrasse config set baseURL` does) leaves the key behind: the
// next turn fails before anything is sent, says what to do, and the new
// host sees no request at all; once the person confirms, the key goes
// there.
func TestKeyStaysWithItsHost(t *testing.T) {
	a := openTest(t)
	home := providertest.NewModel(t, providertest.OpenAI, providertest.WithAPIKey(testKey))
	useModel(t, a, home, "m")
	if err := a.SetAPIKey("openai", testKey); err != nil {
		t.Fatal(err)
	}
	home.Reply(providertest.Text("hello"))
	id, err := a.Turn(context.Background(), 0, "hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := home.Requests()[0].Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Fatalf("the bound host got Authorization %q", got)
	}

	other := providertest.NewModel(t, providertest.OpenAI)
	other.Reply(providertest.Text("thanks for the key"))
	if _, err := a.SetConfig("baseURL", other.BaseURL()); err != nil {
		t.Fatal(err)
	}
	m, moved := a.KeyMoveFor(a.Config())
	if !moved || m.From != KeyHost(home.BaseURL()) || m.To != KeyHost(other.BaseURL()) || m.Secret != SecretOpenAI {
		t.Fatalf("KeyMoveFor = %+v, %v", m, moved)
	}
	if !strings.Contains(m.Question(), "Send your OpenAI key to "+m.To+"?") {
		t.Errorf("question: %s", m.Question())
	}
	_, err = a.Turn(context.Background(), id, "and now?", TurnOptions{})
	if !errors.Is(err, agent.ErrNoProvider) || !errors.Is(a.ModelProblem(), ErrKeyHost) {
		t.Fatalf("turn error %v, model problem %v; want ErrNoProvider from ErrKeyHost", err, a.ModelProblem())
	}
	for _, want := range []string{m.From, m.To, "nothing was sent"} {
		if !strings.Contains(a.ModelProblem().Error(), want) {
			t.Errorf("the problem does not say %q: %v", want, a.ModelProblem())
		}
	}
	h, ok := hint.Of(err)
	if !ok || h.Page != hint.PageModel || h.Target != "baseURL" || h.CommandLine() != "wrasse config set baseURL "+other.BaseURL()+" --send-key" ||
		!strings.Contains(h.Action, "Confirm sending your OpenAI key to "+m.To) {
		t.Fatalf("hint = %+v (%v)", h, ok)
	}
	if reqs := other.Requests(); len(reqs) != 0 {
		t.Fatalf("the new host received %d requests (Authorization %q)", len(reqs), reqs[0].Header.Get("Authorization"))
	}
	// Probing the model list with the stored key is refused the same way.
	if _, err := a.ProviderFor(a.Config(), ""); !errors.Is(err, ErrKeyHost) {
		t.Errorf("ProviderFor with the stored key: %v", err)
	}
	// A one-turn override to another host is refused too.
	_, err = a.Turn(context.Background(), id, "override", TurnOptions{Override: Override{BaseURL: other.BaseURL()}})
	if !errors.Is(err, agent.ErrNoProvider) || len(other.Requests()) != 0 {
		t.Fatalf("override: %v, %d requests", err, len(other.Requests()))
	}

	// The person confirms: the key goes to the new host from now on.
	host, err := a.SendKeyTo("openai")
	if err != nil || host != m.To {
		t.Fatalf("SendKeyTo = %q, %v", host, err)
	}
	if _, moved := a.KeyMoveFor(a.Config()); moved {
		t.Error("still a move after confirming")
	}
	if _, err := a.Turn(context.Background(), id, "now?", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := other.Requests()[0].Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Fatalf("after confirming, the new host got Authorization %q", got)
	}
	// Moving back needs confirming again: the key has one host.
	if _, err := a.SetConfig("baseURL", home.BaseURL()); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(a.ModelProblem(), ErrKeyHost) {
		t.Errorf("back to the first host without confirming: %v", a.ModelProblem())
	}
}

// A key set while another host is configured is bound to that host; a key
// of the provider not configured is bound to its default host.
func TestKeyBoundWhenSet(t *testing.T) {
	a := openTest(t)
	if _, err := a.SetConfig("baseURL", "https://api.openai.com/v1"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetAPIKey("openai", testKey); err != nil {
		t.Fatal(err)
	}
	if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{SecretOpenAI: "https://api.openai.com", SecretAnthropic: "https://api.anthropic.com"} {
		if p, err := a.SecretPlaces(name); err != nil || p.Host != want {
			t.Errorf("%s bound to %q (%v), want %s", name, p.Host, err, want)
		}
	}
	// Switching to Anthropic uses its key at its default host.
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL = "anthropic", ""
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := a.ModelProblem(); err != nil {
		t.Errorf("anthropic at its default host: %v", err)
	}
	// Setting the key again binds it to the host configured then.
	if _, err := a.SetConfig("baseURL", "https://proxy.example.com"); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(a.ModelProblem(), ErrKeyHost) {
		t.Fatalf("anthropic at a proxy: %v", a.ModelProblem())
	}
	if err := a.SetAPIKey("anthropic", "sk-ant-another-0123456789"); err != nil {
		t.Fatal(err)
	}
	if err := a.ModelProblem(); err != nil {
		t.Errorf("a key set for the proxy: %v", err)
	}
}

// A key from the environment is bound at start to the host configured
// then, and is not carried to another.
func TestEnvKeyBoundAtOpen(t *testing.T) {
	ws := t.TempDir()
	home := providertest.NewModel(t, providertest.OpenAI)
	other := providertest.NewModel(t, providertest.OpenAI)
	open := func() *App {
		a, err := Open(Options{Workspace: ws, Retries: -1, Getenv: func(k string) string {
			if k == EnvOpenAI {
				return testKey
			}
			return ""
		}, Clock: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := open()
	useModel(t, a, home, "m")
	a.Close()
	// Bound at the first open, before baseURL pointed to home: to the
	// default host. Set it as the person would on their terminal.
	a = open()
	defer a.Close()
	if p, _ := a.SecretPlaces(EnvOpenAI); p.Host != "http://localhost:11434" {
		t.Fatalf("the environment's key bound to %q", p.Host)
	}
	if !errors.Is(a.ModelProblem(), ErrKeyHost) {
		t.Fatalf("env key at another host: %v", a.ModelProblem())
	}
	if _, err := a.SendKeyTo("openai"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetConfig("baseURL", other.BaseURL()); err != nil {
		t.Fatal(err)
	}
	other.Reply(providertest.Text("x"))
	if _, err := a.Turn(context.Background(), 0, "hi", TurnOptions{}); !errors.Is(err, agent.ErrNoProvider) || len(other.Requests()) != 0 {
		t.Fatalf("env key carried to another host: %v, %d requests", err, len(other.Requests()))
	}
}

func TestKeyHost(t *testing.T) {
	for in, want := range map[string]string{
		"https://API.OpenAI.com/v1":      "https://api.openai.com",
		"https://api.openai.com:443/":    "https://api.openai.com",
		"http://api.openai.com/v1":       "http://api.openai.com",
		"http://api.openai.com:443/v1":   "http://api.openai.com:443",
		"http://localhost:11434/v1":      "http://localhost:11434",
		"http://127.0.0.1:80":            "http://127.0.0.1",
		"https://[::1]:8443/v1":          "https://[::1]:8443",
		"http://[::1]/v1":                "http://[::1]",
		"HTTPS://api.openai.com":         "https://api.openai.com",
		"https://\u0430pi.openai.com/v1": "https://xn--pi-6kc.openai.com",
		"https://xn--pi-6kc.openai.com":  "https://xn--pi-6kc.openai.com",
		"https://b\u00fccher.example":    "https://xn--bcher-kva.example",
		"ftp://h.example":                "",
		"not a url":                      "",
	} {
		if got := KeyHost(in); got != want {
			t.Errorf("KeyHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// The question says what the person needs to decide from it alone: that
// the key would cross the network unencrypted (not to this computer's own
// server), and that an internationalised name is shown as DNS sees it.
func TestKeyMoveQuestion(t *testing.T) {
	for _, tc := range []struct {
		to   string
		want []string
		not  []string
	}{
		{"http://api.openai.com", []string{"Send your OpenAI key to http://api.openai.com?", "unencrypted"}, []string{"internationalised"}},
		{"http://localhost:11434", nil, []string{"unencrypted"}},
		{"http://127.0.0.1:8080", nil, []string{"unencrypted"}},
		{"http://[::1]:8080", nil, []string{"unencrypted"}},
		{"https://xn--pi-6kc.openai.com", []string{"https://xn--pi-6kc.openai.com", "internationalised"}, []string{"unencrypted"}},
		{"https://proxy.example", nil, []string{"unencrypted", "internationalised"}},
	} {
		q := KeyMove{Provider: "openai", Secret: SecretOpenAI, From: "https://api.openai.com", To: tc.to}.Question()
		for _, w := range tc.want {
			if !strings.Contains(q, w) {
				t.Errorf("%s: the question does not say %q: %s", tc.to, w, q)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(q, w) {
				t.Errorf("%s: the question says %q: %s", tc.to, w, q)
			}
		}
	}
}

// A key bound before keys were bound to origins (host[:port] alone) gets
// the origin it has been going to at the next Open: the configured one
// when it has that host, else https, or http for this computer's own
// servers; the turn still goes out without a question.
func TestLegacyKeyHostGetsItsOrigin(t *testing.T) {
	ws := t.TempDir()
	home := providertest.NewModel(t, providertest.OpenAI)
	open := func() *App {
		a, err := Open(Options{Workspace: ws, Retries: -1, Clock: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := open()
	useModel(t, a, home, "m")
	if err := a.SetAPIKey("openai", testKey); err != nil {
		t.Fatal(err)
	}
	if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
		t.Fatal(err)
	}
	// As an older Wrasse wrote them.
	hostPort := hostOf(KeyHost(home.BaseURL()))
	if err := a.db.BindSecretHost(SecretOpenAI, hostPort); err != nil {
		t.Fatal(err)
	}
	if err := a.db.BindSecretHost(SecretAnthropic, "api.anthropic.com"); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a = open()
	defer a.Close()
	for name, want := range map[string]string{SecretOpenAI: "http://" + hostPort, SecretAnthropic: "https://api.anthropic.com"} {
		if p, _ := a.SecretPlaces(name); p.Host != want {
			t.Errorf("%s bound to %q, want %s", name, p.Host, want)
		}
	}
	if err := a.ModelProblem(); err != nil {
		t.Errorf("after the upgrade: %v", err)
	}
	for hp, want := range map[string]string{"localhost:11434": "http://localhost:11434", "[::1]:8080": "http://[::1]:8080", "proxy.example:8443": "https://proxy.example:8443"} {
		if got := legacyOrigin(hp, "https://api.openai.com"); got != want {
			t.Errorf("legacyOrigin(%q) = %q, want %q", hp, got, want)
		}
	}
}

// Ollama's own API sends no key, so pointing it at another host moves
// none: no question about the OpenAI key (which main asked, though
// nothing would be sent), and the turn is not held back.
func TestOllamaMovesNoKey(t *testing.T) {
	a := openTest(t)
	if err := a.SetAPIKey("openai", testKey); err != nil {
		t.Fatal(err)
	}
	cfg := a.Config()
	cfg.Provider, cfg.BaseURL = "ollama", "http://gpu-box.example:11434"
	if m, moved := a.KeyMoveFor(cfg); moved {
		t.Fatalf("a key move for Ollama: %s", m.Question())
	}
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL = cfg.Provider, cfg.BaseURL
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := a.ModelProblem(); errors.Is(err, ErrKeyHost) {
		t.Errorf("Ollama held back for a key it does not send: %v", err)
	}
}
