package openai_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// Each request of a conversation sends its history as it is now, though
// the provider reuses the JSON of messages an earlier request sent: a
// message that changed (a trimmed result, an edited reply), or that
// differs only by its call ID or error flag, is sent as it is, never as
// the one encoded before.
func TestHistoryEncodingIsReusedOnlyForTheSameMessage(t *testing.T) {
	call := func(id string) provider.ToolCall {
		return provider.ToolCall{ID: id, Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	}
	user := provider.Message{Role: provider.RoleUser, Content: "Weather?"}
	asked := provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{call("c1")}}
	result := provider.Message{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "get_weather", Content: "18°C"}
	done := provider.Message{Role: provider.RoleAssistant, Content: "18°C in Paris."}
	again := provider.Message{Role: provider.RoleUser, Content: "Again?"}
	const (
		wUser   = `{"role":"user","content":"Weather?"}`
		wAsked  = `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`
		wResult = `{"role":"tool","tool_call_id":"c1","content":"18°C"}`
		wDone   = `{"role":"assistant","content":"18°C in Paris."}`
		wAgain  = `{"role":"user","content":"Again?"}`
	)
	with := func(m provider.Message, f func(*provider.Message)) provider.Message { f(&m); return m }
	steps := []struct {
		name string
		msgs []provider.Message
		want []string
	}{
		{"the first request", []provider.Message{user, asked, result}, []string{wUser, wAsked, wResult}},
		{"the history grown", []provider.Message{user, asked, result, done, again}, []string{wUser, wAsked, wResult, wDone, wAgain}},
		{"a result trimmed", []provider.Message{user, asked, with(result, func(m *provider.Message) { m.Content = "[trimmed]" }), done, again},
			[]string{wUser, wAsked, `{"role":"tool","tool_call_id":"c1","content":"[trimmed]"}`, wDone, wAgain}},
		{"another call ID, the same arguments", []provider.Message{user, with(asked, func(m *provider.Message) { m.ToolCalls = []provider.ToolCall{call("c2")} }),
			with(result, func(m *provider.Message) { m.ToolCallID = "c2" })},
			[]string{wUser, `{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`,
				`{"role":"tool","tool_call_id":"c2","content":"18°C"}`}},
		{"the same result failed", []provider.Message{user, asked, with(result, func(m *provider.Message) { m.IsError = true })},
			[]string{wUser, wAsked, `{"role":"tool","tool_call_id":"c1","content":"Error: 18°C"}`}},
		{"an empty reply is not sent, before or after", []provider.Message{user, {Role: provider.RoleAssistant}, again, {Role: provider.RoleAssistant}, again},
			[]string{wUser, wAgain, wAgain}},
		{"back to the first", []provider.Message{user, asked, result}, []string{wUser, wAsked, wResult}},
	}
	var answers []providertest.Raw
	for range steps {
		answers = append(answers, providertest.Raw{Body: fixture(t, "text.sse")})
	}
	srv := providertest.NewServer(t, answers...)
	p := newProvider(t, srv.URL(), nil)
	for _, st := range steps {
		if _, err := p.Stream(t.Context(), provider.Request{System: "You are Wrasse.", Messages: st.msgs}, nil); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != len(steps) {
		t.Fatalf("%d requests, want %d", len(reqs), len(steps))
	}
	for i, st := range steps {
		var body struct {
			Messages []any `json:"messages"`
			Stream   bool  `json:"stream"`
			Model    string
		}
		if err := json.Unmarshal(reqs[i].Body, &body); err != nil {
			t.Fatalf("%s: the body is not JSON: %v\n%s", st.name, err, reqs[i].Body)
		}
		var want []any
		for _, w := range append([]string{`{"role":"system","content":"You are Wrasse."}`}, st.want...) {
			var v any
			if err := json.Unmarshal([]byte(w), &v); err != nil {
				t.Fatal(err)
			}
			want = append(want, v)
		}
		if !reflect.DeepEqual(body.Messages, want) {
			t.Errorf("%s: messages sent\n%s\nwant %v", st.name, reqs[i].Body, want)
		}
		if !body.Stream {
			t.Errorf("%s: the request does not ask for a stream:\n%s", st.name, reqs[i].Body)
		}
		// Written once, by p.body: the SDK's "stream" (which copies the
		// whole body to add it) went to a stand-in body, not this one.
		if n := bytes.Count(reqs[i].Body, []byte(`"stream":`)); n != 1 {
			t.Errorf("%s: the body has %d \"stream\" members, want 1:\n%s", st.name, n, reqs[i].Body)
		}
	}
}
