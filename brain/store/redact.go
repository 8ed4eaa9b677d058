package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// MinRedactLen is the shortest secret value that is redacted: shorter values
// would mangle ordinary text, and real keys and tokens are far longer.
const MinRedactLen = 4

// Redactor replaces secret values with "[redacted:NAME]". It is immutable
// and safe for concurrent use; the nil *Redactor redacts nothing.
type Redactor struct {
	rep    *strings.Replacer
	names  []string
	values []string // every matched form, for partialSuffix
}

// NewRedactor builds a redactor for secrets (name → value). Longer values
// win over values they contain; equal values go to the first name in sorted
// order. Each value is also matched in its JSON-escaped form, so a secret
// inside JSON text (a tool result, say) is caught too.
func NewRedactor(secrets map[string]string) *Redactor {
	entries := make([]redaction, 0, len(secrets))
	for name, v := range secrets {
		entries = append(entries, redaction{name, v})
	}
	return newRedactor(entries)
}

// redaction is one named value to redact.
type redaction struct{ name, value string }

// newRedactor is NewRedactor for a list, in which a name may appear with
// several values (a stored key and another from the environment).
func newRedactor(entries []redaction) *Redactor {
	type pair struct{ name, value string }
	var pairs []pair
	for _, e := range entries {
		if len(e.value) < MinRedactLen {
			continue
		}
		pairs = append(pairs, pair{e.name, e.value})
		if esc := jsonEscape(e.value); esc != e.value {
			pairs = append(pairs, pair{e.name, esc})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if len(a.value) != len(b.value) {
			return len(b.value) - len(a.value)
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	pairs = slices.Compact(pairs)
	args := make([]string, 0, 2*len(pairs))
	var names, values []string
	for _, p := range pairs {
		args = append(args, p.value, "[redacted:"+p.name+"]")
		names = append(names, p.name)
		values = append(values, p.value)
	}
	slices.Sort(names)
	return &Redactor{rep: strings.NewReplacer(args...), names: slices.Compact(names), values: values}
}

// Names lists the names of the secrets it redacts, sorted.
func (r *Redactor) Names() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.names)
}

// String redacts s.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	return r.rep.Replace(s)
}

// Hold redacts s, a stretch of streamed text, and splits off an ending
// that may be the start of a secret whose rest is still to come: show can
// be stored or displayed now, held goes in front of the next piece (or
// through String when the stream ends). The nil *Redactor holds nothing.
func (r *Redactor) Hold(s string) (show, held string) {
	out := r.String(s)
	n := len(out) - r.partialSuffix(out)
	return out[:n], out[n:]
}

// partialSuffix is the length of the longest suffix of s that is a
// proper prefix of a secret: text that may be the start of a secret whose
// rest has not streamed in yet. Streamed text is stored piece by piece and
// never rewritten, so even a one-byte start is held back: text on disk then
// never ends inside a secret, and a secret cannot straddle two pieces.
func (r *Redactor) partialSuffix(s string) int {
	if r == nil {
		return 0
	}
	best := 0
	for _, v := range r.values {
		for k := min(len(v)-1, len(s)); k > best; k-- {
			// The last byte rules out most lengths before comparing.
			if s[len(s)-1] == v[k-1] && strings.HasSuffix(s, v[:k]) {
				best = k
				break
			}
		}
	}
	return best
}

// JSON redacts a JSON document: every string (and object key) is redacted,
// and a number containing a secret becomes the placeholder string. Valid
// JSON stays valid and keeps its formatting when nothing matched. Text that
// is not valid JSON (models write that too) is redacted as plain text.
func (r *Redactor) JSON(raw json.RawMessage) json.RawMessage {
	if r == nil || len(raw) == 0 {
		return raw
	}
	if !json.Valid(raw) {
		return json.RawMessage(r.String(string(raw)))
	}
	out, changed, err := r.walkJSON(raw)
	if err != nil || !changed {
		return raw
	}
	return out
}

// Event redacts the parts of e that carry free text.
func (r *Redactor) Event(e Event) Event {
	if r == nil {
		return e
	}
	e.Text = r.String(e.Text)
	e.Arguments = r.JSON(e.Arguments)
	if e.Decision != nil {
		d := *e.Decision
		d.Reason = r.String(d.Reason)
		e.Decision = &d
	}
	return e
}

// walkJSON re-emits a valid JSON document token by token, redacting strings
// and keys in place so member order and structure are kept.
func (r *Redactor) walkJSON(raw []byte) ([]byte, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type frame struct {
		object bool
		n      int // tokens written in this container (keys and values)
	}
	var (
		buf     bytes.Buffer
		stack   []frame
		changed bool
	)
	sep := func() {
		if len(stack) == 0 {
			return
		}
		f := &stack[len(stack)-1]
		switch {
		case f.object && f.n%2 == 1:
			buf.WriteByte(':')
		case f.n > 0:
			buf.WriteByte(',')
		}
		f.n++
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				sep()
				stack = append(stack, frame{object: t == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			buf.WriteByte(byte(t))
		case string:
			sep()
			s := r.String(t)
			changed = changed || s != t
			writeJSONString(&buf, s)
		case json.Number:
			sep()
			if s := r.String(string(t)); s != string(t) {
				changed = true
				writeJSONString(&buf, s)
			} else {
				buf.WriteString(string(t))
			}
		case bool:
			sep()
			if t {
				buf.WriteString("true")
			} else {
				buf.WriteString("false")
			}
		case nil:
			sep()
			buf.WriteString("null")
		}
	}
	return buf.Bytes(), changed, nil
}

func writeJSONString(buf *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// jsonEscape is v as it appears between the quotes of a JSON string.
func jsonEscape(v string) string {
	var b bytes.Buffer
	writeJSONString(&b, v)
	s := b.String()
	return s[1 : len(s)-1]
}
