package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Keys are config.json's keys, in the order they are documented.
var keys = []string{"provider", "model", "baseURL", "contextWindow", "maxSteps", "pinnedCapabilities",
	"autoResync", "folders", "indexBudget", "toolBudget", "imageInput", "thinking", "thinkingBudget", "streamIdleTimeout"}

// Keys returns config.json's keys in documentation order.
func Keys() []string { return append([]string(nil), keys...) }

// Providers returns the known model providers: ollama (Ollama's own
// API), openai (any OpenAI-compatible server) and anthropic.
func Providers() []string { return []string{"ollama", "openai", "anthropic"} }

// Set sets one key from its text form; an empty value resets it to its
// default. Lists are comma-separated. It validates the value: a provider
// must be known, a base URL must be an http(s) URL, numbers whole and not
// negative.
func (c *Config) Set(key, value string) error {
	value = strings.TrimSpace(value)
	num := func() (int, error) {
		if value == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%w: %s must be a whole number of 0 or more, not %q", ErrBadValue, key, value)
		}
		return n, nil
	}
	var err error
	switch key {
	case "provider":
		if value != "" && !slices.Contains(Providers(), value) {
			return fmt.Errorf("%w: provider must be ollama (Ollama's own API), openai (any OpenAI-compatible server) or anthropic, not %q", ErrBadValue, value)
		}
		c.Provider = value
	case "model":
		c.Model = value
	case "baseURL":
		if err := CheckBaseURL(value); err != nil {
			return err
		}
		c.BaseURL = value
	case "contextWindow":
		c.ContextWindow, err = num()
	case "maxSteps":
		c.MaxSteps, err = num()
	case "indexBudget":
		c.IndexBudget, err = num()
	case "toolBudget":
		c.ToolBudget, err = num()
	case "pinnedCapabilities":
		c.PinnedCapabilities = commalist.Split(value)
	case "folders":
		c.Folders = commalist.Split(value)
	case "thinking":
		t, perr := ParseThinking(value)
		if perr != nil {
			return perr
		}
		c.Thinking = t
	case "thinkingBudget":
		c.ThinkingBudget, err = num()
		if err == nil && c.ThinkingBudget != 0 && c.ThinkingBudget < 1024 {
			return fmt.Errorf("%w: thinkingBudget must be at least 1024 tokens (Anthropic's least), not %d", ErrBadValue, c.ThinkingBudget)
		}
	case "streamIdleTimeout":
		d, perr := parseTimeout(value)
		if perr != nil || (d != 0 && d < minStreamIdleTimeout) {
			return fmt.Errorf("%w: streamIdleTimeout must be a duration of 5s or more, such as 90s or 2m, not %q", ErrBadValue, value)
		}
		c.StreamIdleTimeout = value
	case "imageInput":
		switch strings.ToLower(value) {
		case "", "auto":
			c.ImageInput = ""
		case "on", "off":
			c.ImageInput = strings.ToLower(value)
		default:
			return fmt.Errorf("%w: imageInput must be auto, on or off, not %q", ErrBadValue, value)
		}
	case "autoResync":
		if value == "" {
			c.AutoResync = false
			return nil
		}
		b, perr := strconv.ParseBool(value)
		if perr != nil {
			return fmt.Errorf("%w: autoResync must be true or false, not %q", ErrBadValue, value)
		}
		c.AutoResync = b
	case "apiKey", "api_key", "key":
		return hint.With(fmt.Errorf("%w: API keys are not kept in config.json but in the workspace's secrets", ErrUnknownKey),
			hint.Hint{Action: "Save the key as a secret", Command: []string{"secrets", "set", "openai_api_key"}, Page: hint.PageModel, Target: "apiKey"})
	default:
		msg := fmt.Sprintf("%q is not a config key (keys: %s)", key, strings.Join(keys, ", "))
		if near := hint.Closest(key, keys, 1); len(near) == 1 {
			msg = fmt.Sprintf("%q is not a config key; did you mean %s? (keys: %s)", key, near[0], strings.Join(keys, ", "))
		}
		return fmt.Errorf("%w: %s", ErrUnknownKey, msg)
	}
	return err
}

// Get returns one key's value in the text form Set takes.
func (c Config) Get(key string) (string, error) {
	itoa := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	switch key {
	case "provider":
		return c.Provider, nil
	case "model":
		return c.Model, nil
	case "baseURL":
		return c.BaseURL, nil
	case "contextWindow":
		return itoa(c.ContextWindow), nil
	case "maxSteps":
		return itoa(c.MaxSteps), nil
	case "indexBudget":
		return itoa(c.IndexBudget), nil
	case "toolBudget":
		return itoa(c.ToolBudget), nil
	case "pinnedCapabilities":
		return strings.Join(c.PinnedCapabilities, ","), nil
	case "folders":
		return strings.Join(c.Folders, ","), nil
	case "autoResync":
		return strconv.FormatBool(c.AutoResync), nil
	case "imageInput":
		return c.ImageInput, nil
	case "thinking":
		return c.Thinking.String(), nil
	case "thinkingBudget":
		return itoa(c.ThinkingBudget), nil
	case "streamIdleTimeout":
		return c.StreamIdleTimeout, nil
	}
	return "", fmt.Errorf("%w: %q", ErrUnknownKey, key)
}

// OllamaThroughOpenAI says why provider openai is the wrong way to reach
// the Ollama server c points at (port 11434, the default URL included),
// or "" when it is not one: Ollama's OpenAI-compatible endpoint ignores
// num_ctx and cuts longer prompts to its default context from the start.
func (c Config) OllamaThroughOpenAI() string {
	eff := c.WithDefaults()
	if eff.Provider != "openai" {
		return ""
	}
	u, err := url.Parse(eff.BaseURL)
	if err != nil || u.Port() != "11434" {
		return ""
	}
	return `provider "openai" reaches Ollama through its OpenAI-compatible endpoint, which ignores num_ctx and cuts every ` +
		`prompt longer than Ollama's default context (4,096 tokens) from the start, instructions and tools first; ` +
		`provider "ollama" uses Ollama's own API, with the whole context of the model`
}

// CheckBaseURL accepts "" (the provider's default) or an absolute http or
// https URL with a host.
func CheckBaseURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: baseURL must be an http or https URL such as http://localhost:11434/v1, not %q", ErrBadValue, s)
	}
	return nil
}

// Validate checks every value of c as Set would.
func (c Config) Validate() error {
	for _, k := range keys {
		v, _ := c.Get(k)
		probe := c
		if err := probe.Set(k, v); err != nil {
			return err
		}
	}
	return nil
}

// Problem is something wrong in config.json that does not stop it loading.
type Problem struct {
	File         string
	Line, Column int
	Message      string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

// CheckConfig reports keys of config.json that Wrasse does not know (with
// the closest known one) and values Set would refuse, each with its line
// and column. Syntax errors are ParseConfig's to report.
func CheckConfig(data []byte, name string) []Problem {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	names := make([]string, 0, len(top))
	for k := range top {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []Problem
	for _, k := range names {
		off := keyOffset(data, k)
		line, col := position(data, int64(off))
		known := false
		for _, kk := range keys {
			if kk == k {
				known = true
			}
		}
		if !known {
			msg := fmt.Sprintf("unknown key %q is ignored", k)
			if near := hint.Closest(k, keys, 1); len(near) == 1 {
				msg = fmt.Sprintf("unknown key %q is ignored; did you mean %q?", k, near[0])
			}
			out = append(out, Problem{name, line, col, msg})
		}
	}
	if c, err := ParseConfig(data, name); err == nil {
		for _, k := range keys {
			v, _ := c.Get(k)
			probe := c
			if err := probe.Set(k, v); err != nil {
				line, col := position(data, int64(keyOffset(data, k)))
				out = append(out, Problem{name, line, col, strings.TrimPrefix(err.Error(), ErrBadValue.Error()+": ")})
			}
		}
		if msg := c.OllamaThroughOpenAI(); msg != "" {
			line, col := position(data, int64(keyOffset(data, "provider")))
			out = append(out, Problem{name, line, col, msg})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// keyOffset finds the byte offset of key as a top-level object key in
// data (its opening quote), or 0.
func keyOffset(data []byte, key string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth := 0
	expectKey := false
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return 0
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				if depth == 1 {
					expectKey = true
				}
			case '}', ']':
				depth--
				if depth == 1 {
					expectKey = true // a nested value ended
				}
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if expectKey {
			if k, _ := tok.(string); k == key {
				// start is before any separator; the key's quote follows.
				if i := bytes.IndexByte(data[start:], '"'); i >= 0 {
					return int(start) + i
				}
				return int(start)
			}
		}
		expectKey = !expectKey
	}
}
