package workspace

import (
	"errors"
	"strings"
	"testing"
)

func TestConfigSet(t *testing.T) {
	tests := []struct {
		key, value string
		wantErr    error
		check      func(Config) bool
	}{
		{"provider", "anthropic", nil, func(c Config) bool { return c.Provider == "anthropic" }},
		{"provider", "gemini", ErrBadValue, nil},
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
		PinnedCapabilities: []string{"a", "b"}, AutoResync: true, Folders: []string{"/f"}, IndexBudget: 900, ToolBudget: 5, ImageInput: "off"}
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
	if p := CheckConfig([]byte(`{"provider":"openai"}`), "c"); len(p) != 0 {
		t.Errorf("a clean config has problems: %v", p)
	}
}
