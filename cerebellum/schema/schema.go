package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Sentinel errors.
var (
	// ErrBadSchema marks a schema that does not compile.
	ErrBadSchema = errors.New("invalid JSON Schema")
	// ErrInvalid marks a value that does not satisfy its schema.
	ErrInvalid = errors.New("does not match the schema")
)

// Schema is a compiled JSON Schema.
type Schema struct {
	s *jsonschema.Schema
}

// Compile compiles a JSON Schema document. Schemas without $schema are read
// as draft 2020-12; draft-07 schemas (common from MCP servers) say so.
func Compile(raw json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: not JSON: %v", ErrBadSchema, err)
	}
	c := jsonschema.NewCompiler()
	const loc = "wrasse:schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSchema, err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrBadSchema, strings.ReplaceAll(err.Error(), loc, "schema"))
	}
	return &Schema{s: s}, nil
}

// Validate checks a JSON value against the schema. The error names each
// failing field (as a JSON pointer such as /path or /items/0) and the rule.
func (s *Schema) Validate(value json.RawMessage) error {
	if len(bytes.TrimSpace(value)) == 0 {
		value = json.RawMessage("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return fmt.Errorf("%w: the value is not valid JSON: %v", ErrInvalid, err)
	}
	return s.ValidateValue(v)
}

// ValidateValue checks an already decoded value (from jsonschema.UnmarshalJSON
// or encoding/json with UseNumber).
func (s *Schema) ValidateValue(v any) error {
	err := s.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	msgs := leafMessages(ve.BasicOutput())
	if len(msgs) == 0 {
		msgs = []string{ve.Error()}
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(msgs, "; "))
}

func leafMessages(u *jsonschema.OutputUnit) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range u.Errors {
		if e.Error == nil {
			continue
		}
		field := e.InstanceLocation
		if field == "" {
			field = "(arguments)"
		}
		msg := fmt.Sprintf("%s: %s", field, e.Error.String())
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	sort.Strings(out)
	return out
}
