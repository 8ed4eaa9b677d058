package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dayServer is a minimal OpenAI-compatible model for a long day: it
// answers by the conversation's last message, as a person's requests
// would go, and keeps nothing of the requests (a fake that recorded them
// would grow with the conversation and blur what is measured):
//
//   - "stream please": streamTokens words, one every streamInterval;
//   - "big N": a Markdown reply of N bytes, as fast as it can be sent, in
//     pieces of hugeChunk bytes;
//   - "tool …": a call of calc_eval, and once its result is back a short
//     answer;
//   - anything else: a short answer of about 400 bytes.
//
// Each finished response is reported on done with its kind, start and end.
type dayServer struct {
	url  string
	srv  *http.Server
	done chan dayResponse
	// asked receives the last message of each request as it arrives.
	asked chan string
	// big holds the Markdown of "big" replies, made once per size.
	mu  sync.Mutex
	big map[int]string
	// bodies are buffers for the requests' bodies (lastMessage).
	bodies sync.Pool
	// deferCheck: the whole body of each request is checked to be JSON
	// by verify, which the per-turn rows call between turns, instead of
	// before answering (see verify). unchecked holds the bodies since.
	deferCheck bool
	checkMu    sync.Mutex
	unchecked  []*bytes.Buffer
}

// dayResponse is one finished response.
type dayResponse struct {
	kind       string // "stream", "big", "tool", "answer"
	start, end time.Time
	bytes      int
}

// hugeChunk is the size of each streamed piece of a "big" reply.
const hugeChunk = 512

func newDayServer() (*dayServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &dayServer{url: "http://" + ln.Addr().String(), done: make(chan dayResponse, 1024), asked: make(chan string, 1024), big: map[int]string{},
		bodies: sync.Pool{New: func() any { return new(bytes.Buffer) }}}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, `{"object":"list","data":[{"id":"bench-model","object":"model"}]}`)
	})
	mux.HandleFunc("/v1/chat/completions", s.chat)
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *dayServer) Close() { _ = s.srv.Close() }

// lastMessage is the role and text of a request's last message. body is
// read into buf (kept by the caller from request to request), checked to
// be JSON as a whole, and only the last message is decoded (readLast).
func lastMessage(body io.Reader, buf *bytes.Buffer) (role, text string, err error) {
	if role, text, err = readLast(body, buf); err != nil {
		return "", "", err
	}
	if err := checkJSON(buf.Bytes()); err != nil {
		return "", "", err
	}
	return role, text, nil
}

// checkJSON reports a body that is not JSON.
func checkJSON(b []byte) error {
	if !json.Valid(b) {
		return fmt.Errorf("a request body of %d bytes is not JSON", len(b))
	}
	return nil
}

// readLast reads body into buf and decodes the role and text of its last
// message, found by lastElement without decoding the others: what the fake
// costs to answer does not grow with the history it is sent (it runs in
// the process whose turns the long-day bench measures). It does not check
// that the rest is JSON (lastMessage, verify).
func readLast(body io.Reader, buf *bytes.Buffer) (role, text string, err error) {
	buf.Reset()
	if _, err := buf.ReadFrom(body); err != nil {
		return "", "", err
	}
	last, err := lastElement(buf.Bytes())
	if err != nil {
		return "", "", err
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(last, &m); err != nil {
		return "", "", err
	}
	if err := json.Unmarshal(m.Content, &text); err != nil {
		// Content as parts: take the text ones.
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		for _, p := range parts {
			text += p.Text
		}
	}
	return m.Role, text, nil
}

// lastElement returns the last element of the "messages" array of the
// JSON object b, found by one pass over its bytes that follows strings
// and nesting only. On a body that is not JSON it may return anything or
// an error; checkJSON tells.
func lastElement(b []byte) ([]byte, error) {
	depth, last := 0, -1
	inMessages, expect := false, false // in the array; an element may start
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inMessages && depth == 2 && expect && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ']' {
			last, expect = i, false
		}
		switch c {
		case '"':
			j := stringEnd(b, i)
			if j < 0 {
				return nil, errors.New("a string that does not end")
			}
			if depth == 1 && !inMessages && string(b[i:j+1]) == `"messages"` {
				// A key at the top: its value is the array when a colon
				// and a bracket follow.
				k := j + 1
				for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r' || b[k] == ':') {
					k++
				}
				if k < len(b) && b[k] == '[' {
					inMessages, expect, depth, j = true, true, 2, k
				}
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if inMessages && depth == 1 {
				if last < 0 {
					return nil, errors.New("a request without messages")
				}
				return bytes.TrimSpace(b[last:i]), nil
			}
		case ',':
			if inMessages && depth == 2 {
				expect = true
			}
		}
	}
	return nil, errors.New("a request without a messages array")
}

// stringEnd is the index of the quote ending the string that starts at
// b[i], -1 if none does. It jumps from quote to quote (bytes.IndexByte)
// rather than reading each byte of the string: the history's strings are
// most of a request's body, and the fake reads them in the measured
// process (a byte at a time, ~30 µs for a full 32k window's 70 kB). A
// quote after an odd run of backslashes is escaped.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		k := q - 1
		for k > i && b[k] == '\\' {
			k--
		}
		if (q-1-k)%2 == 0 {
			return q
		}
		j = q + 1
	}
	return -1
}

// verify checks that the bodies of the requests since the last call were
// JSON. The per-turn rows call it between turns (deferCheck), outside the
// time and allocations they measure: checking a 32k-token window's body
// (~70 kB) is the fake's work, ~0.4 ms on the bench machine, which a real
// server does in its own process, and it ran in the measured one, before
// each answer.
func (s *dayServer) verify() error {
	s.checkMu.Lock()
	bodies := s.unchecked
	s.unchecked = nil
	s.checkMu.Unlock()
	var err error
	for _, b := range bodies {
		if err == nil {
			err = checkJSON(b.Bytes())
		}
		s.bodies.Put(b)
	}
	return err
}

func (s *dayServer) chat(w http.ResponseWriter, r *http.Request) {
	buf := s.bodies.Get().(*bytes.Buffer)
	var role, text string
	var err error
	if s.deferCheck {
		role, text, err = readLast(r.Body, buf)
		s.checkMu.Lock()
		s.unchecked = append(s.unchecked, buf)
		s.checkMu.Unlock()
	} else {
		defer s.bodies.Put(buf)
		role, text, err = lastMessage(r.Body, buf)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	select {
	case s.asked <- text:
	default:
	}
	w.Header().Set("Content-Type", "text/event-stream")
	out := bufio.NewWriterSize(w, 64<<10)
	fl, _ := w.(http.Flusher)
	flush := func() {
		_ = out.Flush()
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta map[string]any, finish string) {
		c := map[string]any{"index": 0, "delta": delta}
		if finish != "" {
			c["finish_reason"] = finish
		}
		b, _ := json.Marshal(map[string]any{"id": "bench", "object": "chat.completion.chunk", "model": "bench-model", "choices": []any{c}})
		fmt.Fprintf(out, "data: %s\n\n", b)
	}
	start := time.Now()
	resp := dayResponse{start: start}
	switch {
	case role == "user" && text == "stream please":
		resp.kind = "stream"
		tick := time.NewTicker(streamInterval)
		defer tick.Stop()
		for i := range streamTokens {
			word := "token "
			if i%12 == 11 {
				word = "token.\n\n"
			}
			chunk(map[string]any{"content": word}, "")
			flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
		chunk(map[string]any{}, "stop")
	case role == "user" && strings.HasPrefix(text, "big "):
		resp.kind = "big"
		n, _ := strconv.Atoi(strings.TrimPrefix(text, "big "))
		reply := s.bigReply(n)
		for i := 0; i < len(reply); i += hugeChunk {
			chunk(map[string]any{"content": reply[i:min(i+hugeChunk, len(reply))]}, "")
			if i%(64*hugeChunk) == 0 {
				flush()
				if r.Context().Err() != nil {
					return
				}
			}
		}
		resp.bytes = len(reply)
		chunk(map[string]any{}, "stop")
	case role == "user" && strings.HasPrefix(text, "tool"):
		resp.kind = "tool"
		call := map[string]any{"index": 0, "id": "call_" + strconv.FormatInt(start.UnixNano(), 36), "type": "function",
			"function": map[string]any{"name": "calc_eval", "arguments": `{"expression":"6*7"}`}}
		chunk(map[string]any{"tool_calls": []any{call}}, "")
		chunk(map[string]any{}, "tool_calls")
	default:
		resp.kind = "answer"
		for range 20 {
			chunk(map[string]any{"content": "An answer of a few words. "}, "")
		}
		chunk(map[string]any{}, "stop")
	}
	fmt.Fprint(out, "data: [DONE]\n\n")
	flush()
	resp.end = time.Now()
	select {
	case s.done <- resp:
	default: // nobody is counting
	}
}

// bigReply is a Markdown reply of n bytes: headings, paragraphs, lists
// and code blocks.
func (s *dayServer) bigReply(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.big[n]; ok {
		return b
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\nParagraph %d has **bold** words, `code` and a [link](https://example.com/%d). ", i, i, i)
		b.WriteString(strings.Repeat("It goes on for a while, as a long answer does, and wraps. ", 6) + "\n\n")
		fmt.Fprintf(&b, "- item %d.1\n- item %d.2\n\n", i, i)
		if i%5 == 0 {
			fmt.Fprintf(&b, "```go\nfunc f%d() {\n\tfmt.Println(%d)\n}\n```\n\n", i, i)
		}
	}
	out := b.String()[:n]
	s.big[n] = out
	return out
}

// wait returns the next finished response of kind, for up to limit.
func (s *dayServer) wait(ctx context.Context, kind string, limit time.Duration) (dayResponse, error) {
	deadline := time.After(limit)
	for {
		select {
		case r := <-s.done:
			if r.kind == kind {
				return r, nil
			}
		case <-ctx.Done():
			return dayResponse{}, ctx.Err()
		case <-deadline:
			return dayResponse{}, fmt.Errorf("no %q response was finished within %s", kind, limit)
		}
	}
}

// drain forgets the requests and responses reported so far.
func (s *dayServer) drain() {
	for {
		select {
		case <-s.done:
		case <-s.asked:
		default:
			return
		}
	}
}

// send types message into the window's composer and presses Enter until
// the server is asked it: the composer takes a message only once the turn
// before has ended in the window, which comes a moment after its last
// response.
func (s *dayServer) send(ctx context.Context, message string) error {
	if err := xdotool(ctx, "type", "--delay", "5", message); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if err := xdotool(ctx, "key", "Return"); err != nil {
			return err
		}
		wait := time.After(300 * time.Millisecond)
	waiting:
		for {
			select {
			case got := <-s.asked:
				if got == message {
					return nil
				}
			case <-wait:
				break waiting
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return fmt.Errorf("the window did not send %q within 30 s", message)
}
