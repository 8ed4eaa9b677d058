package streamsuite_test

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// sdkProviders are the providers built on a vendor SDK, each answering
// with body as a 200 event stream, and the folder of its recorded streams.
var sdkProviders = []struct {
	name     string
	testdata string
	new      func(body []byte) (provider.Provider, error)
}{
	{"anthropic", "../anthropic/testdata", func(body []byte) (provider.Provider, error) {
		return anthropic.New(anthropic.Config{BaseURL: "http://fuzz.invalid", APIKey: "k", Model: "m",
			HTTPClient: &http.Client{Transport: providertest.Transport{ContentType: "text/event-stream", Body: body}}})
	}},
	{"openai", "../openai/testdata", func(body []byte) (provider.Provider, error) {
		return openai.New(openai.Config{BaseURL: "http://fuzz.invalid/v1", Model: "m",
			HTTPClient: &http.Client{Transport: providertest.Transport{ContentType: "text/event-stream", Body: body}}})
	}},
}

// FuzzStream feeds arbitrary bytes as a 200 event stream through each
// provider's real SDK decoder. Whatever arrives, Stream must not panic,
// must return a response, must fail only with a *provider.Error, and the
// response must hold exactly what was reported to onEvent.
func FuzzStream(f *testing.F) {
	for _, sp := range sdkProviders {
		files, _ := filepath.Glob(filepath.Join(sp.testdata, "*.sse"))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(sp.name, b)
		}
	}
	f.Fuzz(func(t *testing.T, name string, body []byte) {
		for _, sp := range sdkProviders {
			if sp.name != name {
				continue
			}
			p, err := sp.new(body)
			if err != nil {
				t.Fatal(err)
			}
			checkStream(t, p)
		}
	})
}

func checkStream(t *testing.T, p provider.Provider) {
	t.Helper()
	var text bytes.Buffer
	var calls []provider.ToolCall
	var last provider.Event
	resp, err := p.Stream(t.Context(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}},
		func(ev provider.Event) error {
			last = ev
			switch ev.Type {
			case provider.EventText:
				if ev.Text == "" {
					t.Error("empty text event")
				}
				text.WriteString(ev.Text)
			case provider.EventToolCall:
				if len(ev.ToolCall.Arguments) == 0 || ev.ToolCall.ID == "" {
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
	if err == nil && (resp.StopReason == "" || last.Type != provider.EventUsage) {
		t.Errorf("success without stop reason or final usage: %+v", resp)
	}
	if resp.Text != text.String() || !reflect.DeepEqual(resp.ToolCalls, calls) {
		t.Errorf("response differs from events: %q vs %q", resp.Text, text.String())
	}
}
