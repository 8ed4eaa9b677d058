package anthropic_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// More models than one page (the API's default limit is 20): every page is
// read, and the result is sorted by ID with display names.
func TestListModels(t *testing.T) {
	var models, want []provider.ModelInfo
	for i := 25; i >= 1; i-- {
		mi := provider.ModelInfo{ID: fmt.Sprintf("claude-%02d", i), DisplayName: fmt.Sprintf("Claude %d", i)}
		models = append(models, mi)
		want = append([]provider.ModelInfo{mi}, want...)
	}
	m := providertest.NewModel(t, providertest.Anthropic, providertest.WithAPIKey(testKey), providertest.WithModels(models...))
	got, err := provider.ListModels(t.Context(), provider.WithRetry(newProvider(t, m.URL(), nil), provider.RetryOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("models %+v\nwant %+v", got, want)
	}
	reqs := m.ModelListRequests()
	if len(reqs) != 2 || reqs[0].Header.Get("X-Api-Key") != testKey {
		t.Errorf("%d list requests, want 2 pages", len(reqs))
	}
}

func TestListModelsErrors(t *testing.T) {
	tests := []struct {
		status int
		kind   provider.ErrorKind
		says   string
	}{
		{401, provider.ErrAuth, "refused the API key"},
		{403, provider.ErrAuth, "refused the API key"},
		{404, provider.ErrNotFound, "does not list its models"},
		{429, provider.ErrRateLimit, "limiting"},
		{529, provider.ErrOverloaded, "overloaded"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			m := providertest.NewModel(t, providertest.Anthropic)
			m.FailModels(tt.status, "")
			_, err := newProvider(t, m.URL(), nil).ListModels(t.Context())
			pe := asError(t, err)
			if pe.Kind != tt.kind || pe.Status != tt.status || !strings.Contains(pe.Message, tt.says) || strings.Contains(err.Error(), testKey) {
				t.Errorf("err = %v", err)
			}
		})
	}
	base := providertest.ClosedURL(t)
	if _, err := newProvider(t, base, nil).ListModels(t.Context()); provider.KindOf(err) != provider.ErrUnavailable {
		t.Errorf("unreachable: %v", err)
	}
}
