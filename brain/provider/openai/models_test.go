package openai_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

func TestListModels(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithAPIKey(testKey),
		providertest.WithModels(provider.ModelInfo{ID: "qwen3:8b"}, provider.ModelInfo{ID: "gpt-4.1"}, provider.ModelInfo{ID: "llama3.2"}, provider.ModelInfo{ID: "gpt-4.1"}))
	p := newProvider(t, m.URL(), nil)
	// Through WithRetry, as the app holds it.
	got, err := provider.ListModels(t.Context(), provider.WithRetry(p, provider.RetryOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.ModelInfo{{ID: "gpt-4.1", DisplayName: "gpt-4.1"}, {ID: "llama3.2", DisplayName: "llama3.2"}, {ID: "qwen3:8b", DisplayName: "qwen3:8b"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("models %+v, want %+v", got, want)
	}
	reqs := m.ModelListRequests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("list requests %+v", reqs)
	}
}

func TestListModelsErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		kind   provider.ErrorKind
		says   string
	}{
		{"key refused", 401, provider.ErrAuth, "refused the API key"},
		{"no list", 404, provider.ErrNotFound, "does not list its models"},
		{"server error", 500, provider.ErrUnavailable, "server error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.OpenAI)
			m.FailModels(tt.status, "")
			got, err := newProvider(t, m.URL(), nil).ListModels(t.Context())
			pe := asError(t, err)
			if pe.Kind != tt.kind || pe.Status != tt.status || !strings.Contains(pe.Message, tt.says) || got != nil {
				t.Errorf("err = %v (%+v), models %v", err, pe, got)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error shows the key: %v", err)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		base := providertest.ClosedURL(t)
		_, err := newProvider(t, base, nil).ListModels(t.Context())
		if pe := asError(t, err); pe.Kind != provider.ErrUnavailable || !strings.Contains(pe.Message, "no model answered at "+base) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		srv := providertest.NewServer(t, providertest.Raw{ContentType: "text/html", Body: []byte("<html>hello</html>")})
		_, err := newProvider(t, srv.URL(), nil).ListModels(t.Context())
		if pe := asError(t, err); pe.Kind != provider.ErrBadStream || !strings.Contains(pe.Message, "could not be read") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		m := providertest.NewModel(t, providertest.OpenAI)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := newProvider(t, m.URL(), nil).ListModels(ctx); provider.KindOf(err) != provider.ErrCanceled {
			t.Errorf("err = %v", err)
		}
	})
}
