package skillmd

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// SettingType is the type of a capability setting's value.
type SettingType string

// The setting types. Every value travels as text (plugins read
// env.Settings[key]); the type says which text is valid.
const (
	// SettingString is any text.
	SettingString SettingType = "string"
	// SettingBool is true or false.
	SettingBool SettingType = "bool"
	// SettingInt is a whole number.
	SettingInt SettingType = "int"
	// SettingDuration is a Go duration such as 90s or 5m (0s for none).
	SettingDuration SettingType = "duration"
	// SettingList is comma-separated items (commalist), e.g. "a.com,b.org".
	SettingList SettingType = "list"
)

// SettingTypes lists the types in the order messages name them.
var SettingTypes = []SettingType{SettingString, SettingBool, SettingInt, SettingDuration, SettingList}

// MaxSettingKeyLength bounds a setting key.
const MaxSettingKeyLength = 64

var settingKeyRe = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_]*$`)

// Setting is one setting a capability declares in SKILL.md:
//
//	settings:
//	  timeout: {type: duration, default: 2m, description: How long a command may run.}
//	  mode: {type: string, default: fast, enum: [fast, thorough]}
//
// The user's value is stored per capability by the registry and handed to
// the plugin in env.Settings, as text in the form Check returns.
type Setting struct {
	Key  string      `json:"key"`
	Type SettingType `json:"type"`
	// Default is the value, in canonical text form, used when the user set none.
	Default     string `json:"default"`
	Description string `json:"description,omitempty"`
	// Enum, when set, lists the only values allowed (for a list, the only
	// items allowed), in canonical form.
	Enum []string `json:"enum,omitempty"`
}

// ValidSettingKey reports whether s can name a setting: a letter, then
// letters, digits and _, at most MaxSettingKeyLength.
func ValidSettingKey(s string) bool {
	return len(s) <= MaxSettingKeyLength && settingKeyRe.MatchString(s)
}

// Check validates a value against the setting's type and enum and returns
// it in canonical form: bool as true/false, int in decimal, duration as Go
// prints it (2m0s), list items trimmed and joined by commas, string as
// given. The error says what is allowed.
func (s Setting) Check(value string) (string, error) {
	v, err := s.Type.canonical(value)
	if err != nil {
		return "", err
	}
	if len(s.Enum) == 0 {
		return v, nil
	}
	if s.Type == SettingList {
		for _, item := range commalist.Split(v) {
			if !slices.Contains(s.Enum, item) {
				return "", fmt.Errorf("%q is not allowed; each item must be one of %s", item, strings.Join(s.Enum, ", "))
			}
		}
		return v, nil
	}
	if !slices.Contains(s.Enum, v) {
		return "", fmt.Errorf("%q is not allowed; use one of %s", value, strings.Join(s.Enum, ", "))
	}
	return v, nil
}

// canonical validates value as text of type t.
func (t SettingType) canonical(value string) (string, error) {
	v := strings.TrimSpace(value)
	switch t {
	case SettingString:
		return value, nil
	case SettingBool:
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			return "", fmt.Errorf("%q is not a boolean; use true or false", value)
		}
		return strconv.FormatBool(b), nil
	case SettingInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("%q is not a whole number; write digits, e.g. 30", value)
		}
		return strconv.FormatInt(n, 10), nil
	case SettingDuration:
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return "", fmt.Errorf("%q is not a duration; write e.g. 90s, 5m or 1h30m", value)
		}
		return d.String(), nil
	case SettingList:
		return commalist.Join(commalist.Split(v)), nil
	}
	return "", fmt.Errorf("unknown setting type %q; use one of %s", t, typeNames())
}

func typeNames() string {
	names := make([]string, len(SettingTypes))
	for i, t := range SettingTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

var settingKeys = map[string]bool{"type": true, "default": true, "description": true, "enum": true}

// settings parses the settings: mapping, reporting each problem at its
// node. The result is sorted by key.
func (p *parse) settings(v *yaml.Node) []Setting {
	if v.Kind != yaml.MappingNode {
		p.errorf(v, "settings", "must be a mapping of setting keys to {type, default, description}, not %s", describe(v))
		return nil
	}
	var out []Setting
	for _, kv := range p.pairs(v, "settings") {
		field := "settings." + kv.key
		if !ValidSettingKey(kv.key) {
			p.errorf(kv.kNode, field, "%q is not a valid setting key: start with a letter, then letters, digits or _ (at most %d)", kv.key, MaxSettingKeyLength)
			continue
		}
		if s, ok := p.setting(kv.key, kv.val, field); ok {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

func (p *parse) setting(key string, v *yaml.Node, field string) (Setting, bool) {
	s := Setting{Key: key}
	if v.Kind != yaml.MappingNode {
		p.errorf(v, field, "must be a mapping such as {type: string, default: \"\", description: ...}, not %s", describe(v))
		return s, false
	}
	fields := map[string]*yaml.Node{}
	for _, kv := range p.pairs(v, field) {
		if !settingKeys[kv.key] {
			p.warnf(kv.kNode, join(field, kv.key), "unknown key is ignored (known: type, default, description, enum)")
			continue
		}
		fields[kv.key] = kv.val
	}
	ok := true
	t, has := fields["type"]
	switch {
	case !has || isNull(t):
		p.errorf(v, field+".type", "required: add `type:` (one of %s)", typeNames())
		return s, false
	case t.Kind != yaml.ScalarNode || !slices.Contains(SettingTypes, SettingType(t.Value)):
		p.errorf(t, field+".type", "%s is not a setting type; use one of %s", describe(t), typeNames())
		return s, false
	}
	s.Type = SettingType(t.Value)
	if d, has := fields["description"]; has && !isNull(d) {
		if text, good := p.str(d, field+".description"); good {
			s.Description = strings.TrimSpace(text)
		}
	}
	if e, has := fields["enum"]; has && !isNull(e) {
		if s.Type == SettingBool || s.Type == SettingDuration {
			p.errorf(e, field+".enum", "enum applies to string, int and list settings, not %s", s.Type)
			ok = false
		} else if e.Kind != yaml.SequenceNode {
			p.errorf(e, field+".enum", "must be a list of the allowed values, not %s", describe(e))
			ok = false
		} else {
			item := s.Type
			if item == SettingList {
				item = SettingString
			}
			for i, n := range e.Content {
				n = deref(n)
				ef := fmt.Sprintf("%s.enum[%d]", field, i)
				if n.Kind != yaml.ScalarNode || isNull(n) {
					p.errorf(n, ef, "must be a single value, not %s", describe(n))
					ok = false
					continue
				}
				c, err := item.canonical(n.Value)
				if err == nil && s.Type == SettingList && strings.Contains(c, ",") {
					err = fmt.Errorf("an item of a list cannot contain a comma")
				}
				if err != nil {
					p.errorf(n, ef, "%v", err)
					ok = false
					continue
				}
				if slices.Contains(s.Enum, c) {
					p.warnf(n, ef, "%q is listed twice", c)
					continue
				}
				s.Enum = append(s.Enum, c)
			}
			if len(s.Enum) == 0 && ok {
				p.errorf(e, field+".enum", "is empty: list the allowed values or remove enum")
				ok = false
			}
		}
	}
	d, has := fields["default"]
	text, good := p.defaultText(d, has, s.Type, field+".default")
	if !good {
		return s, false
	}
	if !has && len(s.Enum) > 0 && s.Type != SettingList {
		// An enum's zero value is rarely allowed: the first choice is the default.
		text = s.Enum[0]
	}
	if ok {
		c, err := s.Check(text)
		if err != nil {
			at := d
			if !has {
				at = v
			}
			p.errorf(at, field+".default", "the default %v", err)
			return s, false
		}
		s.Default = c
	}
	return s, ok
}

// defaultText renders a default as the text Check takes: a list may be a
// YAML sequence or a comma-separated string, a duration a number of
// seconds. No default means the type's zero value.
func (p *parse) defaultText(d *yaml.Node, has bool, t SettingType, field string) (string, bool) {
	if !has || isNull(d) {
		switch t {
		case SettingBool:
			return "false", true
		case SettingInt:
			return "0", true
		case SettingDuration:
			return "0s", true
		}
		return "", true
	}
	switch {
	case t == SettingList && d.Kind == yaml.SequenceNode:
		items := p.strList(d, field)
		for _, it := range items {
			if strings.Contains(it, ",") {
				p.errorf(d, field, "an item of a list cannot contain a comma: %q", it)
				return "", false
			}
		}
		return commalist.Join(items), true
	case d.Kind != yaml.ScalarNode:
		p.errorf(d, field, "must be a single value, not %s", describe(d))
		return "", false
	case t == SettingDuration && (d.Tag == "!!int" || d.Tag == "!!float"):
		f, err := strconv.ParseFloat(d.Value, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || f > math.MaxInt64/float64(time.Second) {
			p.errorf(d, field, "must be a duration like 90s or a number of seconds, not %s", describe(d))
			return "", false
		}
		return time.Duration(f * float64(time.Second)).String(), true
	case t == SettingString && d.Tag != "!!str" && d.Tag != "" && d.Tag != "!":
		p.errorf(d, field, "must be text for a string setting, not %s; quote it", describe(d))
		return "", false
	}
	return d.Value, true
}
