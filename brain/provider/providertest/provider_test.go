package providertest_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// memRequest names a model: the in-memory Provider, like the real ones,
// has no default.
func memRequest() provider.Request {
	r := request()
	r.Model = "test-model"
	return r
}

func TestProvider(t *testing.T) {
	boom := errors.New("boom")
	p := providertest.NewProvider(t, "")
	p.Reply(providertest.Text("a", "b"), providertest.ToolCall("t", `{"x":1}`), providertest.ToolCall("u", "").WithID(""), providertest.Usage(5, 6))
	p.Reply(providertest.Text("so far"), providertest.Fail(boom))
	p.Reply(providertest.Status(401, ""))
	p.Reply(providertest.Status(429, "").WithHeader("Retry-After", "2"))
	p.Reply(providertest.Text("partial"), providertest.Cut())
	if p.Name() != "fake" || p.Pending() != 5 {
		t.Fatalf("name %q pending %d", p.Name(), p.Pending())
	}

	var got []provider.Event
	resp, err := p.Stream(t.Context(), memRequest(), func(ev provider.Event) error { got = append(got, ev); return nil })
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []provider.ToolCall{{ID: "call_1", Name: "t", Arguments: []byte(`{"x":1}`)}, {ID: "", Name: "u", Arguments: []byte(`{}`)}}
	if resp.Text != "ab" || resp.StopReason != "tool_use" || !reflect.DeepEqual(resp.ToolCalls, wantCalls) ||
		resp.Usage != (provider.Usage{InputTokens: 5, OutputTokens: 6}) || len(got) != 5 || got[4].Type != provider.EventUsage {
		t.Errorf("response %+v events %+v", resp, got)
	}

	resp, err = p.Stream(t.Context(), memRequest(), nil)
	if err != boom || resp.Text != "so far" {
		t.Errorf("fail: %q %v", resp.Text, err)
	}
	if _, err := p.Stream(t.Context(), memRequest(), nil); provider.KindOf(err) != provider.ErrAuth {
		t.Errorf("401: %v", err)
	}
	var pe *provider.Error
	if _, err := p.Stream(t.Context(), memRequest(), nil); !errors.As(err, &pe) || pe.Kind != provider.ErrRateLimit || pe.Status != http.StatusTooManyRequests || pe.RetryAfter.Seconds() != 2 {
		t.Errorf("429: %v", err)
	}
	if resp, err := p.Stream(t.Context(), memRequest(), nil); provider.KindOf(err) != provider.ErrBadStream || resp.Text != "partial" {
		t.Errorf("cut: %q %v", resp.Text, err)
	}
	reqs := p.Requests()
	if len(reqs) != 5 || reqs[0].System != "Be brief." || len(reqs[0].Messages) != 4 {
		t.Errorf("requests %+v", reqs)
	}
}

func TestProviderHoldAndRunOut(t *testing.T) {
	rec := &tb{TB: t}
	p := providertest.NewProvider(rec, "mem")
	step := make(chan struct{})
	p.Reply(providertest.Text("one"), providertest.Wait(step), providertest.Text(" two"))
	p.Reply(providertest.Text("held"), providertest.Hold())

	done := make(chan string)
	go func() {
		resp, _ := p.Stream(t.Context(), memRequest(), nil)
		done <- resp.Text
	}()
	<-p.Waiting()
	close(step)
	if got := <-done; got != "one two" {
		t.Errorf("stepped %q", got)
	}

	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-p.Waiting(); cancel() }()
	resp, err := p.Stream(ctx, memRequest(), nil)
	if provider.KindOf(err) != provider.ErrCanceled || !errors.Is(err, context.Canceled) || resp.Text != "held" {
		t.Errorf("hold: %q %v", resp.Text, err)
	}

	if _, err := p.Stream(t.Context(), memRequest(), nil); provider.KindOf(err) != provider.ErrBadRequest || !strings.Contains(err.Error(), "script ran out") {
		t.Errorf("ran out: %v", err)
	}
	if got := rec.reported(); len(got) != 1 {
		t.Errorf("reported %q", got)
	}
	if ms, _ := provider.ListModels(t.Context(), provider.WithRetry(p, provider.RetryOptions{})); !reflect.DeepEqual(ms, []provider.ModelInfo{{ID: providertest.DefaultModelID, DisplayName: providertest.DefaultModelName}}) {
		t.Errorf("models through WithRetry: %+v", ms)
	}
}

func TestServer(t *testing.T) {
	rec := &tb{TB: t}
	s := providertest.NewServer(rec, providertest.Raw{Status: 418, Header: map[string]string{"X-A": "b"}, Body: []byte("tea")})
	res, err := http.Post(s.URL()+"/x", "text/plain", strings.NewReader("hi"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 418 || res.Header.Get("X-A") != "b" || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("reply %d %v", res.StatusCode, res.Header)
	}
	res, err = http.Get(s.URL() + "/y")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Method != "POST" || reqs[0].Path != "/x" || string(reqs[0].Body) != "hi" || len(rec.reported()) != 1 {
		t.Errorf("requests %+v reported %q", reqs, rec.reported())
	}
}
