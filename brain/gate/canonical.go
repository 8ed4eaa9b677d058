package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// CanonicalJSON re-encodes a JSON document with object keys sorted
// recursively (byte order), no insignificant whitespace and no HTML
// escaping. Numbers keep their literal spelling. Duplicate keys keep the
// last value, as encoding/json decodes them. Empty input is "{}", the
// registry's reading of a call without arguments.
func CanonicalJSON(raw json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("{}"), nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, err
	}
	return encodeCanonical(v)
}

// decodeJSON decodes one JSON document, numbers as json.Number; what
// follows the value may only be white space, as json.Valid requires.
func decodeJSON(raw json.RawMessage) (any, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%w: not a single JSON value", ErrInvalidJSON)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	return v, nil
}

// encodeCanonical writes a decoded document in the canonical form.
func encodeCanonical(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Maps encode with sorted keys; json.Number keeps the literal.
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Line is the text patterns are matched against: the tool name, a space
// and the canonical arguments (or the arguments as written when they are
// not JSON).
func Line(tool string, args json.RawMessage) string {
	c, err := CanonicalJSON(args)
	if err != nil {
		return tool + " " + string(args)
	}
	return tool + " " + string(c)
}
