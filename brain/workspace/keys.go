package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Keys are config.json's keys, in the order they are documented.
var keys = []string{"provider", "model", "baseURL", "contextWindow", "maxSteps", "pinnedCapabilities",
	"autoResync", "folders", "indexBudget", "toolBudget", "imageInput"}

// Keys returns config.json's keys in documentation order.
func Keys() []string { return append([]string(nil), keys...) }

// Providers are the known model providers.
var providers = []string{"openai", "anthropic"}

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
		if value != "" && value != "openai" && value != "anthropic" {
			return fmt.Errorf("%w: provider must be openai (any OpenAI-compatible server) or anthropic, not %q", ErrBadValue, value)
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
	}
	return "", fmt.Errorf("%w: %q", ErrUnknownKey, key)
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
