package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// AllModels is the Thinking key that applies to every model without its
// own entry.
const AllModels = "*"

// thinkingModes are the values a model's thinking takes.
var thinkingModes = []string{"auto", "on", "off", "low", "medium", "high"}

// Thinking is config key thinking: per model (by name as the provider
// knows it), whether it reasons before answering: auto (the server's
// choice), on, off, or low, medium, high for the effort. AllModels ("*")
// applies to the rest. In config.json it is an object, or one string for
// every model:
//
//	"thinking": {"qwen3:8b": "off", "claude-sonnet-4-5": "on"}
//	"thinking": "off"
//
// Its text form (wrasse config set thinking) is a list:
// "qwen3:8b=off, claude-sonnet-4-5=on", a bare value meaning every model.
type Thinking map[string]string

// For returns model's setting: its own, else AllModels', else "auto".
func (t Thinking) For(model string) string {
	if v, ok := t[model]; ok && v != "" {
		return v
	}
	if v, ok := t[AllModels]; ok && v != "" {
		return v
	}
	return "auto"
}

// With returns a copy of t with model's setting set ("" or "auto" removes
// it). Model "" is AllModels.
func (t Thinking) With(model, mode string) Thinking {
	if model == "" {
		model = AllModels
	}
	out := Thinking{}
	for k, v := range t {
		out[k] = v
	}
	mode = strings.ToLower(strings.TrimSpace(mode))
	if mode == "" || mode == "auto" {
		delete(out, model)
	} else {
		out[model] = mode
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// UnmarshalJSON takes an object of model names, or one string.
func (t *Thinking) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*t = nil
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = Thinking{}.With(AllModels, s)
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeFor[Thinking](), Field: "thinking"}
	}
	*t = Thinking(m)
	return nil
}

// MarshalJSON writes one string when only AllModels is set.
func (t Thinking) MarshalJSON() ([]byte, error) {
	if v, ok := t[AllModels]; ok && len(t) == 1 {
		return json.Marshal(v)
	}
	return json.Marshal(map[string]string(t))
}

// String is the text form: "model=mode, …", AllModels alone as its mode.
func (t Thinking) String() string {
	if v, ok := t[AllModels]; ok && len(t) == 1 {
		return v
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+t[k])
	}
	return strings.Join(parts, ",")
}

// ParseThinking reads the text form, checking every mode.
func ParseThinking(s string) (Thinking, error) {
	var out Thinking
	for _, item := range commalist.Split(s) {
		model, mode, ok := strings.Cut(item, "=")
		if !ok {
			model, mode = AllModels, item
		}
		model, mode = strings.TrimSpace(model), strings.ToLower(strings.TrimSpace(mode))
		if !utf8.ValidString(model) {
			return nil, fmt.Errorf("%w: thinking names a model that is not valid text: %q", ErrBadValue, model)
		}
		if !slices.Contains(thinkingModes, mode) {
			return nil, fmt.Errorf("%w: thinking for %s must be one of %s, not %q", ErrBadValue, nameOf(model), strings.Join(thinkingModes, ", "), mode)
		}
		out = out.With(model, mode)
	}
	return out, nil
}

func nameOf(model string) string {
	if model == AllModels {
		return "every model"
	}
	return model
}

// minStreamIdleTimeout is the shortest idle timeout accepted: less would
// end answers a busy server is still sending.
const minStreamIdleTimeout = 5 * time.Second

// parseTimeout reads a timeout: a Go duration ("90s", "2m") or whole
// seconds ("90"); "" is 0.
func parseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(s)
}
