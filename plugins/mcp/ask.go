package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Asker puts to the person what a server asks of them. The window
// implements it with a question card in the chat (and a "Waiting for
// sign-in…" card), the CLI with terminal prompts or --yes.
type Asker interface {
	// Elicit asks q and returns the person's answer. An error answers
	// the server with an error; prefer Answer{Action: ActionCancel} for a
	// person who walked away.
	Elicit(ctx context.Context, q Question) (Answer, error)
	// SigningIn says that server's sign-in page is being opened in the
	// browser at url; the wait ends with ctx (Cancel cancels the call).
	SigningIn(server, url string)
}

// The actions of an Answer (the protocol's words).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Question is a server's request for input (elicitation/create).
type Question struct {
	// Server is the capability's name.
	Server string
	// Conversation is the id of the conversation whose tool call the
	// server asks during, and Tool that call's tool, when known ("": a
	// question outside a conversation, or during calls of several).
	Conversation, Tool string
	Message            string
	// URL is set for URL mode: the person is to open it (no fields).
	URL string
	// Fields are the form's fields, in the order of the schema as it
	// arrives (the SDK decodes it into a map, so by name).
	Fields []Field
}

// Field is one field of an elicitation form: the restricted JSON Schema
// of the spec (primitive types, enums, defaults).
type Field struct {
	Name        string
	Title       string
	Description string
	// Type is string, number, integer or boolean, or array for a
	// multiple choice (the spec's multi-select enum: an array of strings
	// from Enum).
	Type string
	// Enum lists the allowed values of a string field, or of an array
	// field's items (EnumTitles their labels, when given).
	Enum       []string
	EnumTitles []string
	// Format is a string field's format (email, uri, date, date-time).
	Format   string
	Default  any
	Required bool
	// Minimum and Maximum bound numbers; MinLength, MaxLength strings.
	Minimum, Maximum     *float64
	MinLength, MaxLength *int
	// MinItems and MaxItems bound how many choices an array field takes.
	MinItems, MaxItems *int
}

// Answer is the person's answer.
type Answer struct {
	Action  string
	Content map[string]any
}

// Defaults is the answer with every field left at the server's default:
// the fields that have one, and ok when every required field has one.
func (q Question) Defaults() (content map[string]any, ok bool) {
	content = map[string]any{}
	ok = true
	for _, f := range q.Fields {
		if f.Default != nil {
			content[f.Name] = f.Default
		} else if f.Required {
			ok = false
		}
	}
	return content, ok
}

// WithDefaults fills the fields the answer leaves out with their defaults
// (SEP-1034: a client applies defaults for fields the person did not set).
func (q Question) WithDefaults(a Answer) Answer {
	if a.Action != ActionAccept {
		return a
	}
	out := make(map[string]any, len(q.Fields))
	for _, f := range q.Fields {
		if f.Default != nil {
			out[f.Name] = f.Default
		}
	}
	for k, v := range a.Content {
		out[k] = v
	}
	return Answer{Action: a.Action, Content: out}
}

// questionOf reads an elicitation request.
func questionOf(server string, p *sdk.ElicitParams) (Question, error) {
	q := Question{Server: server, Message: p.Message}
	if p.Mode == "url" {
		q.URL = p.URL
		return q, nil
	}
	if p.RequestedSchema == nil {
		return q, nil
	}
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return q, fmt.Errorf("%w: requestedSchema: %w", ErrBadElicitation, err)
	}
	fields, err := parseFormSchema(raw)
	if err != nil {
		return q, err
	}
	q.Fields = fields
	return q, nil
}

// parseFormSchema reads an elicitation's requestedSchema: an object of
// primitive properties, in the order they come.
func parseFormSchema(raw []byte) ([]Field, error) {
	var s struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%w: requestedSchema: %w", ErrBadElicitation, err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, fmt.Errorf("%w: requestedSchema has type %q, not object", ErrBadElicitation, s.Type)
	}
	names, err := objectKeys(s.Properties)
	if err != nil {
		return nil, fmt.Errorf("%w: requestedSchema.properties: %w", ErrBadElicitation, err)
	}
	var props map[string]struct {
		Type        string   `json:"type"`
		Title       string   `json:"title"`
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
		EnumNames   []string `json:"enumNames"`
		OneOf       []struct {
			Const string `json:"const"`
			Title string `json:"title"`
		} `json:"oneOf"`
		Format    string   `json:"format"`
		Default   any      `json:"default"`
		Minimum   *float64 `json:"minimum"`
		Maximum   *float64 `json:"maximum"`
		MinLength *int     `json:"minLength"`
		MaxLength *int     `json:"maxLength"`
		MinItems  *int     `json:"minItems"`
		MaxItems  *int     `json:"maxItems"`
		Items     *struct {
			Type  string   `json:"type"`
			Enum  []string `json:"enum"`
			AnyOf []struct {
				Const string `json:"const"`
				Title string `json:"title"`
			} `json:"anyOf"`
		} `json:"items"`
	}
	if len(s.Properties) > 0 {
		if err := json.Unmarshal(s.Properties, &props); err != nil {
			return nil, fmt.Errorf("%w: requestedSchema.properties: %w", ErrBadElicitation, err)
		}
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	fields := make([]Field, 0, len(names))
	for _, n := range names {
		p := props[n]
		switch p.Type {
		case "string", "number", "integer", "boolean":
		case "array":
			// A multiple choice: items are strings from an enum.
			if p.Items == nil || (len(p.Items.Enum) == 0 && len(p.Items.AnyOf) == 0) {
				return nil, fmt.Errorf("%w: field %q is an array without a list of choices (a form takes arrays only as multiple choices)", ErrBadElicitation, n)
			}
		default:
			return nil, fmt.Errorf("%w: field %q has type %q (a form takes string, number, integer, boolean or a multiple choice)", ErrBadElicitation, n, p.Type)
		}
		f := Field{Name: n, Title: p.Title, Description: p.Description, Type: p.Type, Enum: p.Enum, EnumTitles: p.EnumNames,
			Format: p.Format, Default: p.Default, Required: required[n], Minimum: p.Minimum, Maximum: p.Maximum,
			MinLength: p.MinLength, MaxLength: p.MaxLength}
		if p.Type == "array" {
			f.Enum, f.EnumTitles, f.MinItems, f.MaxItems = p.Items.Enum, nil, p.MinItems, p.MaxItems
			for _, o := range p.Items.AnyOf {
				if len(p.Items.Enum) == 0 {
					f.Enum = append(f.Enum, o.Const)
				}
				f.EnumTitles = append(f.EnumTitles, o.Title)
			}
		}
		if len(f.Enum) == 0 && len(p.OneOf) > 0 {
			for _, o := range p.OneOf {
				f.Enum = append(f.Enum, o.Const)
				f.EnumTitles = append(f.EnumTitles, o.Title)
			}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// objectKeys lists a JSON object's keys in order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// elicitHandler answers a server's elicitation/create through the
// Asker; with none, it declines (no one to ask).
func (s *server) elicitHandler(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	q, err := questionOf(s.cfg.name, req.Params)
	if err != nil {
		s.log.Warn("an MCP server asked a question Wrasse cannot show", "error", err)
		return nil, err
	}
	q.Conversation, q.Tool = s.calls.asker()
	ask := s.l.opts.Asker
	if ask == nil {
		s.log.Info("an MCP server asked a question; no one to ask, so it is declined", "message", slog.StringValue(q.Message))
		return &sdk.ElicitResult{Action: ActionDecline}, nil
	}
	a, err := ask.Elicit(ctx, q)
	if err != nil {
		return nil, err
	}
	a = q.WithDefaults(a)
	switch a.Action {
	case ActionAccept, ActionDecline, ActionCancel:
	default:
		return nil, fmt.Errorf("%w: answer %q", ErrBadElicitation, a.Action)
	}
	res := &sdk.ElicitResult{Action: a.Action}
	if a.Action == ActionAccept && q.URL == "" {
		res.Content = a.Content
	}
	return res, nil
}
