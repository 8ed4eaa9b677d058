package workspace

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestConfigSet(t *testing.T) {
	tests := []struct {
		key, value string
		wantErr    error
		check      func(Config) bool
	}{
		{"provider", "anthropic", nil, func(c Config) bool { return c.Provider == "anthropic" }},
		{"provider", "gemini", ErrBadValue, nil},
		{"provider", "ollama", nil, func(c Config) bool { return c.Provider == "ollama" }},
		{"thinkingBudget", "512", ErrBadValue, nil},
		{"thinkingBudget", "8000", nil, func(c Config) bool { return c.ThinkingBudget == 8000 }},
		{"baseURL", "http://localhost:8080/v1", nil, func(c Config) bool { return c.BaseURL == "http://localhost:8080/v1" }},
		{"baseURL", "localhost:8080", ErrBadValue, nil},
		{"baseURL", "ftp://x/v1", ErrBadValue, nil},
		{"baseURL", "", nil, func(c Config) bool { return c.BaseURL == "" }},
		{"contextWindow", "200000", nil, func(c Config) bool { return c.ContextWindow == 200000 }},
		{"contextWindow", "-1", ErrBadValue, nil},
		{"contextWindow", "lots", ErrBadValue, nil},
		{"folders", " ~/a, /b ,,", nil, func(c Config) bool { return strings.Join(c.Folders, "|") == "~/a|/b" }},
		{"autoResync", "true", nil, func(c Config) bool { return c.AutoResync }},
		{"autoResync", "sometimes", ErrBadValue, nil},
		{"modle", "x", ErrUnknownKey, nil},
		{"apiKey", "sk-123", ErrUnknownKey, nil},
	}
	for _, tt := range tests {
		var c Config
		err := c.Set(tt.key, tt.value)
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("Set(%q, %q) = %v, want %v", tt.key, tt.value, err, tt.wantErr)
			continue
		}
		if tt.check != nil && !tt.check(c) {
			t.Errorf("Set(%q, %q): config %+v", tt.key, tt.value, c)
		}
	}
	var c Config
	if err := c.Set("modle", "x"); err == nil || !strings.Contains(err.Error(), "did you mean model?") {
		t.Errorf("a misspelt key should name the closest: %v", err)
	}
}

func TestConfigGetRoundTrips(t *testing.T) {
	c := Config{Provider: "anthropic", Model: "m", BaseURL: "https://x/v1", ContextWindow: 9, MaxSteps: 3,
		PinnedCapabilities: []string{"a", "b"}, AutoResync: true, Folders: []string{"/f"}, IndexBudget: 900, ToolBudget: 5, ImageInput: "off",
		Thinking: Thinking{"qwen3:8b": "off", AllModels: "on"}, ThinkingBudget: 2048, StreamIdleTimeout: "90s"}
	var d Config
	for _, k := range Keys() {
		v, err := c.Get(k)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Set(k, v); err != nil {
			t.Fatalf("Set(%s, %q): %v", k, v, err)
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	a, _ := c.Get("pinnedCapabilities")
	b, _ := d.Get("pinnedCapabilities")
	if a != b || c.Provider != d.Provider || c.BaseURL != d.BaseURL || c.ContextWindow != d.ContextWindow || !d.AutoResync {
		t.Fatalf("round trip lost something: %+v vs %+v", c, d)
	}
}

func TestCheckConfig(t *testing.T) {
	data := []byte("{\n  \"provider\": \"openai\",\n  \"modle\": \"llama3.1\",\n  \"folders\": [\"/a\"],\n  \"baseURL\": \"localhost\"\n}\n")
	got := CheckConfig(data, "config.json")
	if len(got) != 2 {
		t.Fatalf("problems = %v, want 2", got)
	}
	if got[0].Line != 3 || got[0].Column != 3 || !strings.Contains(got[0].Message, `did you mean "model"`) {
		t.Errorf("first problem = %v", got[0])
	}
	if got[1].Line != 5 || !strings.Contains(got[1].Message, "baseURL must be an http or https URL") {
		t.Errorf("second problem = %v", got[1])
	}
	for _, clean := range []string{`{"provider":"openai","baseURL":"https://api.openai.com/v1"}`, `{"provider":"ollama"}`, `{}`, `{"provider":"anthropic"}`} {
		if p := CheckConfig([]byte(clean), "c"); len(p) != 0 {
			t.Errorf("%s has problems: %v", clean, p)
		}
	}
}

// A config that reaches Ollama through provider openai keeps working and
// is told, at the provider key, what it loses and what to switch to.
func TestCheckConfigOffersOllama(t *testing.T) {
	for _, data := range []string{
		"{\n  \"provider\": \"openai\"\n}",
		"{\n  \"provider\": \"openai\",\n  \"baseURL\": \"http://gpu-box:11434/v1\"\n}",
	} {
		got := CheckConfig([]byte(data), "config.json")
		if len(got) != 1 || got[0].Line != 2 || got[0].Column != 3 || !strings.Contains(got[0].Message, `provider "ollama" uses Ollama's own API`) ||
			!strings.Contains(got[0].Message, "4,096 tokens") {
			t.Errorf("%s: %v", data, got)
		}
	}
}

func TestThinkingKey(t *testing.T) {
	tests := []struct {
		value   string
		wantErr bool
		text    string
		json    string
		for8b   string
	}{
		{"off", false, "off", `"off"`, "off"},
		{"qwen3:8b=off, claude-sonnet-4-5=HIGH", false, "claude-sonnet-4-5=high,qwen3:8b=off", `{"claude-sonnet-4-5":"high","qwen3:8b":"off"}`, "off"},
		{"*=on,qwen3:8b=auto", false, "on", `"on"`, "on"},
		{"", false, "", `null`, "auto"},
		{"qwen3:8b=maybe", true, "", "", ""},
		{"sometimes", true, "", "", ""},
	}
	for _, tt := range tests {
		var c Config
		err := c.Set("thinking", tt.value)
		if (err != nil) != tt.wantErr {
			t.Errorf("Set(thinking, %q) = %v", tt.value, err)
			continue
		}
		if tt.wantErr {
			if !errors.Is(err, ErrBadValue) {
				t.Errorf("%q: %v is not ErrBadValue", tt.value, err)
			}
			continue
		}
		got, _ := c.Get("thinking")
		b, _ := json.Marshal(c.Thinking)
		if got != tt.text || string(b) != tt.json || c.Thinking.For("qwen3:8b") != tt.for8b {
			t.Errorf("%q: text %q json %s for qwen3:8b %q", tt.value, got, b, c.Thinking.For("qwen3:8b"))
		}
		var back Config
		if err := json.Unmarshal([]byte(`{"thinking":`+string(b)+`}`), &back); err != nil || back.Thinking.String() != got {
			t.Errorf("%q: JSON round trip %v %q", tt.value, err, back.Thinking.String())
		}
	}
	if _, err := ParseConfig([]byte(`{"thinking": 3}`), "config.json"); !errors.Is(err, ErrBadConfig) {
		t.Errorf("a number for thinking: %v", err)
	}
}

func TestStreamIdleTimeout(t *testing.T) {
	for value, want := range map[string]time.Duration{"90s": 90 * time.Second, "2m": 2 * time.Minute, "120": 2 * time.Minute, "": DefaultStreamIdleTimeout} {
		var c Config
		if err := c.Set("streamIdleTimeout", value); err != nil || c.IdleTimeout() != want {
			t.Errorf("%q: %v %v", value, err, c.IdleTimeout())
		}
	}
	for _, bad := range []string{"1s", "soon", "-5m"} {
		var c Config
		if err := c.Set("streamIdleTimeout", bad); !errors.Is(err, ErrBadValue) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}

// With no configuration Wrasse talks to a local Ollama over its own API;
// provider openai alone still means Ollama's OpenAI-compatible endpoint,
// as before. The window is left to be learnt.
func TestWithDefaultsProviders(t *testing.T) {
	for prov, base := range map[string]string{"": "http://localhost:11434", "ollama": "http://localhost:11434", "openai": "http://localhost:11434/v1", "anthropic": ""} {
		d := Config{Provider: prov}.WithDefaults()
		if d.BaseURL != base || d.ContextWindow != 0 || d.Provider == "" {
			t.Errorf("%q: %+v", prov, d)
		}
	}
	// A config.json from before names only the server: one on Ollama's
	// port is Ollama, any other is OpenAI-compatible, as it always was.
	for base, prov := range map[string]string{"http://localhost:11434/v1": "ollama", "http://gpu-box:11434": "ollama",
		"http://localhost:1234/v1": "openai", "https://openrouter.ai/api/v1": "openai"} {
		if got := (Config{BaseURL: base}).WithDefaults().Provider; got != prov {
			t.Errorf("%s: provider %q, want %q", base, got, prov)
		}
	}
}

// FuzzThinking: whatever is typed or written, the setting parses or is
// refused with ErrBadValue, and what parses reads back the same.
func FuzzThinking(f *testing.F) {
	for _, s := range []string{"off", "qwen3:8b=off, *=high", "=on", "a=b=c", ",,", "*=auto"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := ParseThinking(s)
		if err != nil {
			if !errors.Is(err, ErrBadValue) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		back, err := ParseThinking(th.String())
		if err != nil || back.String() != th.String() {
			t.Errorf("%q → %q → %q, %v", s, th.String(), back.String(), err)
		}
		b, _ := json.Marshal(th)
		var j Thinking
		if err := json.Unmarshal(b, &j); err != nil || j.String() != th.String() {
			t.Errorf("%q: JSON %s → %q, %v", s, b, j.String(), err)
		}
	})
}
