package streamsuite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

const testKey = "sk-test-5e1f0c9a7b3d2468aceg"

// sdkServer is a provider built on a vendor SDK as the cases drive it:
// talking to the server at url with testKey, logging to log.
type sdkServer struct {
	name     string
	testdata string
	new      func(url, model string, log *slog.Logger) (provider.Provider, error)
	// keyHeader is where the server finds the key, as sent.
	keyHeader, keyValue string
	// authError is a 401 body of this provider's API that echoes key.
	authError func(key string) string
}

var sdkServers = []sdkServer{
	{
		name: "anthropic", testdata: "../anthropic/testdata",
		new: func(url, model string, log *slog.Logger) (provider.Provider, error) {
			return anthropic.New(anthropic.Config{BaseURL: url, APIKey: testKey, Model: model, Logger: log})
		},
		keyHeader: "X-Api-Key", keyValue: testKey,
		authError: func(key string) string {
			return `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: ` + key + `"}}`
		},
	},
	{
		name: "openai", testdata: "../openai/testdata",
		new: func(url, model string, log *slog.Logger) (provider.Provider, error) {
			return openai.New(openai.Config{BaseURL: url + "/v1", APIKey: testKey, Model: model, Logger: log})
		},
		keyHeader: "Authorization", keyValue: "Bearer " + testKey,
		authError: func(key string) string {
			return `{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error","code":"invalid_api_key"}}`
		},
	},
}

// each runs f as a subtest for every SDK provider.
func each(t *testing.T, f func(t *testing.T, s sdkServer)) {
	for _, s := range sdkServers {
		t.Run(s.name, func(t *testing.T) { f(t, s) })
	}
}

func (s sdkServer) provider(t *testing.T, url string, log *slog.Logger) provider.Provider {
	t.Helper()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p, err := s.new(url, "a-model", log)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func (s sdkServer) fixture(t *testing.T, name string) []byte {
	return providertest.File(t, s.testdata+"/"+name)
}

func userRequest() provider.Request {
	return provider.Request{System: "You are Wrasse.", Messages: []provider.Message{{Role: provider.RoleUser, Content: "Capital of France?"}}}
}

func asError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

// The key never appears in an error or a log record, even when the
// server echoes it back in full.
func TestAPIKeyNeverLeaks(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t, providertest.Raw{Status: 401, Body: []byte(s.authError(testKey))})
		var logs bytes.Buffer
		p := s.provider(t, srv.URL(), slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		_, err := p.Stream(t.Context(), userRequest(), nil)
		if provider.KindOf(err) != provider.ErrAuth {
			t.Fatalf("kind = %q, want auth (%v)", provider.KindOf(err), err)
		}
		if got := srv.Requests()[0].Header.Get(s.keyHeader); got != s.keyValue {
			t.Fatalf("server did not get the key: %q", got)
		}
		// The SDK's own error text quotes the whole body: it must be wrapped.
		var logged bytes.Buffer
		slog.New(slog.NewJSONHandler(&logged, nil)).Error("x", "err", err)
		for name, text := range map[string]string{
			"Error()":       err.Error(),
			"%+v":           fmt.Sprintf("%+v", err),
			"unwrapped":     errors.Unwrap(err).Error(),
			"logs":          logs.String(),
			"slog of error": logged.String(),
			"Message":       asError(t, err).Message,
		} {
			if strings.Contains(text, testKey) {
				t.Errorf("%s contains the API key: %s", name, text)
			}
		}
		if !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("error %q should quote the server with the key redacted", err)
		}
		if !strings.Contains(logs.String(), "model error") {
			t.Errorf("expected a debug record of the failure, got %q", logs.String())
		}
	})
}

// Nothing listens at the base URL: the message says where no model
// answered and where to change it, and waiting will not help.
func TestConnectionRefused(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		base := providertest.ClosedURL(t)
		resp, err := s.provider(t, base, nil).Stream(t.Context(), userRequest(), nil)
		pe := asError(t, err)
		if pe.Kind != provider.ErrUnavailable || pe.Detail != provider.DetailRefused || !pe.Local || pe.Retryable() {
			t.Fatalf("kind = %q detail %q local %v retryable %v, want unavailable, refused, local, not retried (%v)", pe.Kind, pe.Detail, pe.Local, pe.Retryable(), err)
		}
		for _, want := range []string{"no model answered at " + base, "connection refused", "check that the server there is running", "model settings"} {
			if !strings.Contains(pe.Message, want) {
				t.Errorf("message %q lacks %q", pe.Message, want)
			}
		}
		if strings.Contains(strings.ToLower(pe.Message), "ollama") {
			t.Errorf("message %q suggests Ollama for a server that is not it", pe.Message)
		}
		if resp == nil {
			t.Error("nil response")
		}
	})
}

// Cancelling mid-stream keeps what was shown and says canceled.
func TestCancelMidStream(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t, providertest.Raw{Body: s.fixture(t, "first_piece.sse"), Block: true})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		resp, err := s.provider(t, srv.URL(), nil).Stream(ctx, userRequest(), func(ev provider.Event) error {
			if ev.Type == provider.EventText {
				cancel()
			}
			return nil
		})
		if pe := asError(t, err); pe.Kind != provider.ErrCanceled || !errors.Is(err, context.Canceled) {
			t.Errorf("kind = %q, want canceled wrapping context.Canceled (%v)", pe.Kind, err)
		}
		if resp.Text != "Thinking" {
			t.Errorf("partial text = %q, want Thinking", resp.Text)
		}
	})
}

// Cancelling before the server answers ends the request with nothing.
func TestCancelBeforeResponse(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t, providertest.Raw{Hold: true})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go func() {
			<-srv.Waiting()
			cancel()
		}()
		resp, err := s.provider(t, srv.URL(), nil).Stream(ctx, userRequest(), nil)
		if provider.KindOf(err) != provider.ErrCanceled {
			t.Errorf("kind = %q, want canceled (%v)", provider.KindOf(err), err)
		}
		if resp == nil || resp.Text != "" {
			t.Errorf("resp = %+v, want empty", resp)
		}
	})
}

// A context past its deadline is a timeout wrapping DeadlineExceeded.
func TestDeadline(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t)
		ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
		defer cancel()
		_, err := s.provider(t, srv.URL(), nil).Stream(ctx, userRequest(), nil)
		if provider.KindOf(err) != provider.ErrTimeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("kind = %q, want timeout (%v)", provider.KindOf(err), err)
		}
	})
}

// The callback's own error comes back as it is, with what was shown.
func TestCallbackErrorReturnedAsIs(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t, providertest.Raw{Body: s.fixture(t, "text.sse")})
		stop := errors.New("ui closed")
		var shown string
		resp, err := s.provider(t, srv.URL(), nil).Stream(t.Context(), userRequest(), func(ev provider.Event) error {
			if ev.Type == provider.EventText {
				shown += ev.Text
				return stop
			}
			return nil
		})
		if err != stop {
			t.Fatalf("err = %v, want the callback's own error", err)
		}
		if shown == "" || resp.Text != shown {
			t.Errorf("partial = %q, want what was shown, %q", resp.Text, shown)
		}
	})
}

// A tool whose schema is not an object is refused before anything is
// sent, naming the tool.
func TestBadToolSchema(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		srv := providertest.NewServer(t)
		req := userRequest()
		req.Tools = []provider.Tool{{Name: "broken", Parameters: json.RawMessage(`["not", "an", "object"]`)}}
		_, err := s.provider(t, srv.URL(), nil).Stream(t.Context(), req, nil)
		if provider.KindOf(err) != provider.ErrBadRequest || !strings.Contains(err.Error(), `tool "broken"`) {
			t.Errorf("err = %v, want bad_request naming the tool", err)
		}
		if len(srv.Requests()) != 0 {
			t.Error("a request was sent")
		}
	})
}

// With no model chosen the request is refused, pointing at the settings.
func TestNoModel(t *testing.T) {
	each(t, func(t *testing.T, s sdkServer) {
		p, err := s.new("http://127.0.0.1:1", "", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Stream(t.Context(), userRequest(), nil)
		if provider.KindOf(err) != provider.ErrBadRequest || !strings.Contains(err.Error(), "model settings") {
			t.Errorf("err = %v, want bad_request pointing at the model settings", err)
		}
	})
}
