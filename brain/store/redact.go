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
//
// Besides each value as written (and JSON-escaped, for a secret inside
// JSON text), it finds the simple encodings a command would print to get
// a value past exact matching: reversed, hex (also with byte pairs
// swapped, as od -x prints it), URL-encoded, base64 and base32
// (encodedForms), in any case, broken by white space or by one separator
// between bytes (a comma, a colon), and laid out as od, xxd and hexdump
// print them, offset and text columns included (matcher). A value shorter
// than minEncodedLen is found only as written, spaces and line breaks
// aside. All forms of all secrets are found in one pass, so the cost per
// byte stays flat as secrets are added.
//
// It does not undo compression (gzip | base64), nor join a value split
// across two tool results or two commands' output: redaction is the
// last line of defence, and secrets are kept out of sandboxes in the
// first place.
type Redactor struct {
	m     *matcher
	names []string // sorted, unique
	// placeholders[tag] is "[redacted:NAME]" of the tag's name.
	placeholders []string
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
	entries = slices.DeleteFunc(slices.Clone(entries), func(e redaction) bool { return len(e.value) < MinRedactLen })
	if len(entries) == 0 {
		return nil
	}
	// By name, so an equal value or form goes to the first name.
	slices.SortFunc(entries, func(a, b redaction) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	r := &Redactor{}
	var pats []pattern
	for _, e := range entries {
		if len(r.names) == 0 || r.names[len(r.names)-1] != e.name {
			r.names = append(r.names, e.name)
			r.placeholders = append(r.placeholders, "[redacted:"+e.name+"]")
		}
		tag := int32(len(r.names) - 1)
		exact := len(e.value) < minEncodedLen
		pats = append(pats, pattern{e.value, tag, exact}, pattern{jsonEscape(e.value), tag, exact})
		for _, f := range encodedForms(e.value) {
			pats = append(pats, pattern{f, tag, false})
		}
	}
	r.m = newMatcher(pats)
	return r
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
	spans, _ := r.m.find(s, true)
	return r.replace(s, spans)
}

// replace writes s with each span replaced by its placeholder.
func (r *Redactor) replace(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(r.placeholders[sp.tag])
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// Hold redacts s, a stretch of streamed text, and splits off an ending
// that may be the start of a secret whose rest is still to come: show can
// be stored or displayed now, held goes in front of the next piece (or
// through String when the stream ends). The nil *Redactor holds nothing.
//
// Streamed text is stored piece by piece and never rewritten, so even a
// one-byte start is held back: text on disk then never ends inside a
// secret (or one of its encodings), and one cannot straddle two pieces.
func (r *Redactor) Hold(s string) (show, held string) {
	if r == nil || s == "" {
		return s, ""
	}
	spans, partial := r.m.find(s, false)
	if n := len(spans); n > 0 && partial < spans[n-1].end {
		partial = spans[n-1].end
	}
	return r.replace(s[:partial], spans), s[partial:]
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
