package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// realProvider returns a real provider of format f at base, wrapped in WithRetry as
// the app holds it.
func realProvider(t *testing.T, f providertest.Format, base string) provider.Provider {
	t.Helper()
	var p provider.Provider
	var err error
	if f == providertest.OpenAI {
		p, err = openai.New(openai.Config{BaseURL: base, APIKey: "sk-probe-key", Model: "default-model"})
	} else {
		p, err = anthropic.New(anthropic.Config{BaseURL: base, APIKey: "sk-probe-key", Model: "default-model"})
	}
	if err != nil {
		t.Fatal(err)
	}
	return provider.WithRetry(p, provider.RetryOptions{Sleep: func(context.Context, time.Duration) error {
		t.Error("Probe retried")
		return nil
	}})
}

func TestProbeOK(t *testing.T) {
	for _, f := range []providertest.Format{providertest.OpenAI, providertest.Anthropic} {
		t.Run(string(f), func(t *testing.T) {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Text("Ready", ".\n", " "+strings.Repeat("word ", 30)))
			res, err := provider.Probe(t.Context(), realProvider(t, f, m.BaseURL()), "test-model")
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK || res.Kind != "" || res.Err != nil || res.Model != "test-model" {
				t.Errorf("result %+v", res)
			}
			if !strings.HasPrefix(res.Reply, "Ready. word word") || !strings.HasSuffix(res.Reply, "…") || strings.Contains(res.Reply, "\n") {
				t.Errorf("reply %q: want the first words on one line", res.Reply)
			}
			if res.Latency <= 0 || res.Total < res.Latency {
				t.Errorf("latency %s total %s", res.Latency, res.Total)
			}
			if !strings.HasPrefix(res.Summary, "Connected: the model test-model answered in ") {
				t.Errorf("summary %q", res.Summary)
			}
			reqs := m.Requests()
			if len(reqs) != 1 || reqs[0].Model != "test-model" || reqs[0].MaxTokens != provider.ProbeMaxTokens ||
				len(reqs[0].Messages) != 1 || reqs[0].Messages[0].Content != provider.ProbePrompt || len(reqs[0].Tools) != 0 {
				t.Errorf("probe request %+v", reqs)
			}
		})
	}
}

// A model that answers without text (a reasoning model out of budget) is
// still connected.
func TestProbeNoText(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.MaxTokens())
	res, err := provider.Probe(t.Context(), realProvider(t, providertest.OpenAI, m.BaseURL()), "")
	if err != nil || !res.OK || res.Reply != "" || !strings.Contains(res.Summary, "without text") || !strings.Contains(res.Summary, "the default model") {
		t.Errorf("result %+v, %v", res, err)
	}
	if got := m.Requests()[0].Model; got != "default-model" {
		t.Errorf("model sent %q, want the provider's default", got)
	}
}

func TestProbeFailures(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, f providertest.Format) string // returns the base URL
		kind    provider.ErrorKind
		target  string
		summary string
		action  string
	}{
		{"key refused", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f, providertest.WithAPIKey("the-right-key"))
			return m.BaseURL()
		}, provider.ErrAuth, provider.FieldAPIKey, "refused the API key", "API key"},
		{"unreachable", func(t *testing.T, f providertest.Format) string {
			base := providertest.ClosedURL(t)
			if f == providertest.OpenAI {
				base += "/v1"
			}
			return base
		}, provider.ErrUnavailable, provider.FieldBaseURL, "No server answered", "server is running"},
		{"model not found", func(t *testing.T, f providertest.Format) string {
			return providertest.NewModel(t, f, providertest.WithKnownModelsOnly()).BaseURL()
		}, provider.ErrNotFound, provider.FieldModel, "does not know the model no-such-model", "Pick a model"},
		{"rate limited", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Status(429, "").WithHeader("Retry-After", "30"))
			return m.BaseURL()
		}, provider.ErrRateLimit, "", "limiting", "Wait 30 s"},
		{"overloaded", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Status(529, ""))
			return m.BaseURL()
		}, provider.ErrOverloaded, "", "overloaded", "again"},
		{"server error", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Status(500, ""))
			return m.BaseURL()
		}, provider.ErrUnavailable, "", "had an error", "again"},
		{"a web page", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Status(404, "<!DOCTYPE html><html><title>Home</title></html>"))
			return m.BaseURL()
		}, provider.ErrBadStream, provider.FieldBaseURL, "A web page answered", "Correct the base URL"},
		{"not a model server", func(t *testing.T, f providertest.Format) string {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Cut())
			return m.BaseURL()
		}, provider.ErrBadStream, provider.FieldBaseURL, "not as a model server", "provider type"},
	}
	for _, f := range []providertest.Format{providertest.OpenAI, providertest.Anthropic} {
		for _, tt := range tests {
			t.Run(string(f)+"/"+tt.name, func(t *testing.T) {
				res, err := provider.Probe(t.Context(), realProvider(t, f, tt.setup(t, f)), "no-such-model")
				if err != nil {
					t.Fatal(err)
				}
				if res.OK || res.Kind != tt.kind || res.Err == nil || res.Err.Kind != tt.kind {
					t.Fatalf("result %+v", res)
				}
				if res.Hint.Target != tt.target || res.Hint.Page != hint.PageModel || !strings.Contains(res.Hint.Action, tt.action) {
					t.Errorf("hint %+v", res.Hint)
				}
				if !strings.Contains(res.Summary, tt.summary) {
					t.Errorf("summary %q lacks %q", res.Summary, tt.summary)
				}
			})
		}
	}
}

func TestProbeDeadlineAndCancel(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	p := realProvider(t, providertest.Anthropic, m.BaseURL())
	ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer cancel()
	res, err := provider.Probe(ctx, p, "m")
	if err != nil || res.Kind != provider.ErrTimeout || !strings.Contains(res.Summary, "did not answer in time") {
		t.Errorf("deadline: %+v, %v", res, err)
	}

	m.Reply(providertest.Hold())
	ctx, cancel = context.WithCancel(t.Context())
	go func() { <-m.Waiting(); cancel() }()
	if _, err := provider.Probe(ctx, p, "m"); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v, want context.Canceled", err)
	}

	if _, err := provider.Probe(t.Context(), nil, "m"); !errors.Is(err, provider.ErrNoProvider) {
		t.Errorf("nil provider: %v", err)
	}
}
