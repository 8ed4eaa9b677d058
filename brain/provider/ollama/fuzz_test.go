package ollama_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
)

// chatTransport answers /api/show with a tool-capable, thinking model and
// /api/chat with body, in memory.
type chatTransport struct{ body []byte }

const showBody = `{"capabilities":["completion","tools","thinking","vision"],"details":{"family":"qwen3"},` +
	`"model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`

func (c chatTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	body, ct := c.body, "application/x-ndjson"
	if strings.HasSuffix(r.URL.Path, "/api/show") {
		body, ct = []byte(showBody), "application/json"
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// FuzzStream feeds arbitrary bytes as /api/chat's NDJSON through the
// official client. Whatever arrives, Stream must not panic, must fail only
// with a *provider.Error, and the response must hold exactly what was
// reported.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		`{"message":{"role":"assistant","content":"Hel"},"done":false}` + "\n" + `{"message":{"role":"assistant","content":"lo"},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":2}` + "\n",
		`{"message":{"role":"assistant","thinking":"hmm"},"done":false}` + "\n" + `{"message":{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]},"done":true,"done_reason":"stop"}` + "\n",
		`{"error":"model runner has unexpectedly stopped"}` + "\n",
		`{"message":{"role":"assistant","content":"x"},"done":true,"done_reason":"length"}`,
		"<html>no</html>\n", "", "{}\n", `{"done":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := ollama.New(ollama.Config{BaseURL: "http://fuzz.invalid:11434", Model: "qwen3:8b",
			HTTPClient: &http.Client{Transport: chatTransport{body: body}}})
		if err != nil {
			t.Fatal(err)
		}
		var text, thinking bytes.Buffer
		var calls []provider.ToolCall
		resp, err := p.Stream(t.Context(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}},
			func(ev provider.Event) error {
				switch ev.Type {
				case provider.EventText:
					text.WriteString(ev.Text)
				case provider.EventThinking:
					thinking.WriteString(ev.Text)
				case provider.EventToolCall:
					if ev.ToolCall.ID == "" || len(ev.ToolCall.Arguments) == 0 {
						t.Errorf("incomplete call %+v", ev.ToolCall)
					}
					calls = append(calls, *ev.ToolCall)
				}
				return nil
			})
		if resp == nil {
			t.Fatal("nil response")
		}
		var pe *provider.Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
		}
		if err == nil && resp.StopReason == "" {
			t.Errorf("success without a stop reason: %+v", resp)
		}
		var th strings.Builder
		for _, b := range resp.Thinking {
			th.WriteString(b.Text)
		}
		if resp.Text != text.String() || th.String() != thinking.String() || !reflect.DeepEqual(resp.ToolCalls, calls) {
			t.Errorf("response differs from events: %q vs %q", resp.Text, text.String())
		}
	})
}
