package codemode

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/plugins/internal/jsonline"
)

// An inner call is two messages, the call and its reply; both are
// written and read without reflection in the shapes below, plain JSON
// lines that json.Unmarshal reads the same (a test and a fuzz target
// hold the fast reader to it). Anything else, and any line not exactly
// of these shapes, goes through encoding/json.
//
//	{"op":"call","id":7,"tool":"name","args":{...}}
//	{"op":"reply","id":7,"text":"...","error":{"msg":"..."}}

const (
	callPrefix  = `{"op":"call","id":`
	replyPrefix = `{"op":"reply","id":`
)

// encodeMsg appends m as one JSON line (without the newline) to dst.
func encodeMsg(dst []byte, m *message) ([]byte, error) {
	switch {
	case m.Op == opCall && m.onlyCall() && jsonline.PlainString(m.Tool) && (len(m.Args) == 0 || json.Valid(m.Args) && compactEnds(m.Args)):
		dst = append(dst, callPrefix...)
		dst = strconv.AppendUint(dst, m.ID, 10)
		dst = append(dst, `,"tool":"`...)
		dst = append(dst, m.Tool...)
		dst = append(dst, '"')
		if len(m.Args) > 0 {
			dst = append(dst, `,"args":`...)
			dst = append(dst, m.Args...)
		}
		return append(dst, '}'), nil
	case m.Op == opReply && m.onlyReply() && (m.Err == nil || m.Err.Kind == ""):
		dst = append(dst, replyPrefix...)
		dst = strconv.AppendUint(dst, m.ID, 10)
		dst = append(dst, `,"text":`...)
		dst = appendJSONString(dst, m.Text)
		if m.Err != nil {
			dst = append(dst, `,"error":{"msg":`...)
			dst = appendJSONString(dst, m.Err.Msg)
			dst = append(dst, '}')
		}
		return append(dst, '}'), nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

func (m *message) onlyCall() bool {
	return m.Checked == "" && m.Run == "" && m.Timeout == 0 && m.MaxOutput == 0 && m.MaxCalls == 0 &&
		m.Text == "" && m.Err == nil && !m.Truncated && m.Calls == 0
}

func (m *message) onlyReply() bool {
	return m.Checked == "" && m.Run == "" && m.Timeout == 0 && m.MaxOutput == 0 && m.MaxCalls == 0 &&
		m.Tool == "" && len(m.Args) == 0 && !m.Truncated && m.Calls == 0
}

// compactEnds reports whether raw JSON starts and ends with no space, as
// json.Unmarshal would hand a json.RawMessage over.
func compactEnds(b []byte) bool {
	return !isSpace(b[0]) && !isSpace(b[len(b)-1])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// decodeMsg reads one line into m (which must be zero).
func decodeMsg(line []byte, m *message) error {
	if decodeCall(line, m) || decodeReply(line, m) {
		return nil
	}
	*m = message{}
	return json.Unmarshal(line, m)
}

func decodeCall(line []byte, m *message) bool {
	rest, ok := bytes.CutPrefix(line, []byte(callPrefix))
	if !ok {
		return false
	}
	id, rest, ok := jsonline.CutUint(rest)
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"tool":"`)); !ok {
		return false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || !jsonline.PlainString(string(rest[:end])) {
		return false
	}
	tool, rest := string(rest[:end]), rest[end+1:]
	var args []byte
	if a, ok := bytes.CutPrefix(rest, []byte(`,"args":`)); ok {
		if len(a) < 2 || a[len(a)-1] != '}' {
			return false
		}
		a = a[:len(a)-1]
		// null is no arguments to json.Unmarshal.
		if !compactEnds(a) || !json.Valid(a) || string(a) == "null" {
			return false
		}
		args = a
	} else if string(rest) != "}" {
		return false
	}
	m.Op, m.ID, m.Tool = opCall, id, tool
	if len(args) > 0 {
		m.Args = json.RawMessage(bytes.Clone(args))
	}
	return true
}

func decodeReply(line []byte, m *message) bool {
	rest, ok := bytes.CutPrefix(line, []byte(replyPrefix))
	if !ok {
		return false
	}
	id, rest, ok := jsonline.CutUint(rest)
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"text":`)); !ok {
		return false
	}
	text, rest, ok := cutString(rest)
	if !ok {
		return false
	}
	var werr *wireError
	if r, ok := bytes.CutPrefix(rest, []byte(`,"error":{"msg":`)); ok {
		msg, r, ok := cutString(r)
		if !ok {
			return false
		}
		if rest, ok = bytes.CutPrefix(r, []byte(`}`)); !ok {
			return false
		}
		werr = &wireError{Msg: msg}
	}
	if string(rest) != "}" {
		return false
	}
	m.Op, m.ID, m.Text, m.Err = opReply, id, text, werr
	return true
}

// cutString reads a JSON string at the start of b: without escapes as
// it is, with them through encoding/json.
func cutString(b []byte) (string, []byte, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", nil, false
	}
	escaped := false
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			in := b[1:i]
			if !escaped && utf8.Valid(in) {
				return string(in), b[i+1:], true
			}
			var s string
			if json.Unmarshal(b[:i+1], &s) != nil {
				return "", nil, false
			}
			return s, b[i+1:], true
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			return "", nil, false
		}
	}
	return "", nil, false
}

// appendJSONString appends s as a JSON string that json.Unmarshal reads
// back as s; invalid UTF-8 is written as it is (read back, as
// encoding/json writes it, as U+FFFD).
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
