package anthropic_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// A stream that stops after some text, and a server that never sends its
// headers, both end at the idle timeout (fake clock) with what was shown
// kept and a note that says which wait ran out.
func TestStallAndNoStart(t *testing.T) {
	tests := []struct {
		name   string
		parts  []providertest.Part
		detail provider.ErrorDetail
		msg    string
	}{
		{"stalled", []providertest.Part{providertest.Text("Par"), providertest.Hold()}, provider.DetailStalled,
			"the model stopped sending for 60 s; try again."},
		{"no headers", []providertest.Part{providertest.Hold()}, provider.DetailNoStart,
			"claude-sonnet-4-5 did not start answering within 60 s; try again (a slow server may need a longer streamIdleTimeout)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.Anthropic)
			m.Reply(tt.parts...)
			clock := providertest.NewClock(time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC))
			// A remote server: the wait for a start is the idle timeout.
			p := newProvider(t, "https://llm.example", func(c *anthropic.Config) {
				c.Clock = clock
				c.HTTPClient = providertest.RemoteLooking(m.URL())
			})
			text := make(chan struct{}, 1)
			done := make(chan struct{})
			var resp *provider.Response
			var err error
			go func() {
				defer close(done)
				resp, err = p.Stream(context.Background(), userRequest(), func(ev provider.Event) error {
					if ev.Type == provider.EventText {
						text <- struct{}{}
					}
					return nil
				})
			}()
			<-m.Waiting()
			if tt.detail == provider.DetailStalled {
				<-text
			}
			clock.Advance(provider.DefaultIdleTimeout)
			<-done
			pe := asError(t, err)
			if pe.Kind != provider.ErrTimeout || pe.Detail != tt.detail || pe.Message != tt.msg {
				t.Errorf("got %q %q %q", pe.Kind, pe.Detail, pe.Message)
			}
			if tt.detail == provider.DetailStalled && resp.Text != "Par" {
				t.Errorf("kept %q", resp.Text)
			}
		})
	}
}

// A web page answering with 200 says the base URL is wrong, instead of
// "the stream ended before message_stop".
func TestWebPageAtBaseURL(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><html><body>Welcome to nginx!</body></html>"))
	}))
	t.Cleanup(page.Close)
	_, err := newProvider(t, page.URL, nil).Stream(t.Context(), userRequest(), nil)
	pe := asError(t, err)
	if pe.Detail != provider.DetailNotAPI || !strings.Contains(pe.Message, "answered with a web page") || strings.Contains(pe.Message, "what arrived is kept") {
		t.Errorf("got %+v", pe)
	}
}
