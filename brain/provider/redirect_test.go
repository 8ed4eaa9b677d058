package provider_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// A provider's key goes only to its base URL's origin: when the server
// there answers with a redirect to another host, or to the same host at
// another port, neither a turn nor the model list follows it, so the
// other server receives nothing (with a 307 it would get the key and the
// conversation); the failure says so and is not retried (realProvider
// fails the test on a retry). openai-go refuses other origins itself, as
// what reads like a network fault; every provider's client refuses them
// first (SameOriginRedirects). On main the Anthropic provider sent the key
// to the other server, and Ollama's the conversation.
func TestProviderRefusesRedirectToAnotherOrigin(t *testing.T) {
	for _, f := range []providertest.Format{providertest.OpenAI, providertest.Anthropic, "ollama"} {
		for _, other := range []string{"localhost", "127.0.0.1"} {
			t.Run(string(f)+" to "+other, func(t *testing.T) {
				var got atomic.Int32
				thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					got.Add(1)
					http.Error(w, "thanks", http.StatusInternalServerError)
				}))
				defer thief.Close()
				_, port, _ := net.SplitHostPort(strings.TrimPrefix(thief.URL, "http://"))
				to := "http://" + net.JoinHostPort(other, port)
				home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, to+r.URL.Path, http.StatusTemporaryRedirect)
				}))
				defer home.Close()
				base := home.URL
				if f == providertest.OpenAI {
					base += "/v1"
				}
				var p provider.Provider
				if f == "ollama" {
					// Ollama's own API sends no key, but a 307 would carry
					// the conversation (ollama.com's signed requests too).
					o, err := ollama.New(ollama.Config{BaseURL: base, Model: "m"})
					if err != nil {
						t.Fatal(err)
					}
					p = o
				} else {
					p = realProvider(t, f, base)
				}
				_, err := p.Stream(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}},
					func(provider.Event) error { return nil })
				var pe *provider.Error
				if !errors.As(err, &pe) || pe.Retryable() {
					t.Fatalf("Stream = %v, want a provider error not retried", err)
				}
				if !errors.Is(err, provider.ErrCrossOriginRedirect) || !strings.Contains(pe.Message, "answered with a redirect to "+to) {
					t.Errorf("Stream = %v (message %q), want ErrCrossOriginRedirect naming %s", err, pe.Message, to)
				}
				if _, err := provider.ListModels(context.Background(), p); err == nil {
					t.Error("the model list followed the redirect")
				}
				if n := got.Load(); n != 0 {
					t.Fatalf("the server at %s received %d requests", to, n)
				}
			})
		}
	}
}

// Within the origin a redirect is followed, as before; the client given
// is not changed.
func TestSameOriginRedirectsFollowsWithin(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new", http.StatusTemporaryRedirect)
		case "/away":
			http.Redirect(w, r, "https://elsewhere.example/x", http.StatusFound)
		default:
			_, _ = w.Write([]byte("here"))
		}
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL + "/v1")
	given := &http.Client{}
	c := provider.SameOriginRedirects(given, base)
	if given.CheckRedirect != nil {
		t.Error("the client given was changed")
	}
	res, err := c.Get(srv.URL + "/old")
	if err != nil || res.Request.URL.Path != "/new" {
		t.Fatalf("within the origin: %v", err)
	}
	res.Body.Close()
	_, err = c.Get(srv.URL + "/away")
	if !errors.Is(err, provider.ErrCrossOriginRedirect) || !strings.Contains(err.Error(), "go only to "+provider.OriginOf(base)) {
		t.Fatalf("to another origin: %v", err)
	}
}
