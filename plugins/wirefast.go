package plugins

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/plugins/internal/jsonline"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// The two messages of every call, the call and its result, are written
// and read without reflection in the shape below; anything else, and any
// line that is not exactly that shape, goes through encoding/json. Both
// sides read what the other writes either way: the fast shapes are plain
// JSON lines that json.Unmarshal reads the same (the tests check).
//
//	{"op":"call","id":7,"tool":"name","args":{...}}
//	{"op":"result","id":7,"result":{"content":"text","isError":true,"truncated":true},"logs":3}

// encodeMsg appends m as one JSON line (without the newline) to dst.
func encodeMsg(dst []byte, m *wireMsg) ([]byte, error) {
	switch {
	case m.Op == opCall && m.Load == nil && m.Name == "" && m.Value == "" && m.Call == 0 && m.Result == nil && m.Err == nil &&
		!m.Restart && m.Logs == 0 && jsonline.PlainString(m.Tool):
		dst = append(dst, `{"op":"call","id":`...)
		dst = strconv.AppendUint(dst, m.ID, 10)
		dst = append(dst, `,"tool":"`...)
		dst = append(dst, m.Tool...)
		dst = append(dst, '"')
		if len(m.Args) > 0 {
			dst = append(dst, `,"args":`...)
			var b bytes.Buffer
			if err := json.Compact(&b, m.Args); err != nil {
				return nil, err
			}
			dst = append(dst, b.Bytes()...)
		}
		return append(dst, '}'), nil
	case m.Op == opResult && m.Result != nil && len(m.Result.Images) == 0 && m.Load == nil && m.Tool == "" && len(m.Args) == 0 &&
		m.Name == "" && m.Value == "" && m.Call == 0 && m.Err == nil && !m.Restart:
		dst = append(dst, `{"op":"result","id":`...)
		dst = strconv.AppendUint(dst, m.ID, 10)
		dst = append(dst, `,"result":{"content":`...)
		dst = appendJSONString(dst, m.Result.Content)
		if m.Result.IsError {
			dst = append(dst, `,"isError":true`...)
		}
		if m.Result.Truncated {
			dst = append(dst, `,"truncated":true`...)
		}
		dst = append(dst, '}')
		if m.Logs > 0 {
			dst = append(dst, `,"logs":`...)
			dst = strconv.AppendUint(dst, m.Logs, 10)
		}
		return append(dst, '}'), nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// decodeMsg reads one line into m (which must be zero).
func decodeMsg(line []byte, m *wireMsg) error {
	if decodeCall(line, m) || decodeResult(line, m) {
		return nil
	}
	*m = wireMsg{}
	return json.Unmarshal(line, m)
}

func decodeCall(line []byte, m *wireMsg) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"op":"call","id":`))
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
		if len(a) < 2 || a[len(a)-1] != '}' || !json.Valid(a[:len(a)-1]) {
			return false
		}
		args = a[:len(a)-1]
	} else if string(rest) != "}" {
		return false
	}
	m.Op, m.ID, m.Tool = opCall, id, tool
	if len(args) > 0 {
		m.Args = json.RawMessage(bytes.Clone(args))
	}
	return true
}

func decodeResult(line []byte, m *wireMsg) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"op":"result","id":`))
	if !ok {
		return false
	}
	id, rest, ok := jsonline.CutUint(rest)
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"result":{"content":"`)); !ok {
		return false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || !jsonline.PlainString(string(rest[:end])) && !plainUTF8(rest[:end]) {
		return false
	}
	res := &cerebellum.Result{Content: string(rest[:end])}
	rest = rest[end+1:]
	if r, ok := bytes.CutPrefix(rest, []byte(`,"isError":true`)); ok {
		res.IsError, rest = true, r
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"truncated":true`)); ok {
		res.Truncated, rest = true, r
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`}`)); !ok {
		return false
	}
	var logs uint64
	if r, ok := bytes.CutPrefix(rest, []byte(`,"logs":`)); ok {
		if logs, rest, ok = jsonline.CutUint(r); !ok {
			return false
		}
	}
	if string(rest) != "}" {
		return false
	}
	m.Op, m.ID, m.Result, m.Logs = opResult, id, res, logs
	return true
}

// plainUTF8 reports whether b, the inside of a JSON string, needs no
// decoding: valid UTF-8 without a quote, backslash or control character.
func plainUTF8(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendJSONString appends s as a JSON string that json.Unmarshal reads
// back as s (invalid UTF-8 is written as encoding/json writes it).
func appendJSONString(dst []byte, s string) []byte {
	if jsonline.PlainString(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	b, _ := json.Marshal(s) // a string always encodes
	return append(dst, b...)
}
