package wire

import (
	"errors"
	"testing"
)

func TestNewEndpoint(t *testing.T) {
	errConfig := errors.New("config")
	for _, c := range []struct {
		base, name        string
		wantBase, shown   string
		wantName, wantErr string
	}{
		{base: "", wantBase: "https://api.example.com/v1", shown: "https://api.example.com/v1", wantName: "def"},
		{base: " http://u:secret@gpu:8000/v1/ ", name: "mine", wantBase: "http://u:secret@gpu:8000/v1", shown: "http://u:xxxxx@gpu:8000/v1", wantName: "mine"},
		{base: "ftp://x", wantErr: `config: base URL "ftp://x" must be an http(s) URL such as https://api.example.com/v1`},
		{base: "localhost:8080", wantErr: `config: base URL "localhost:8080" must be an http(s) URL such as https://api.example.com/v1`},
	} {
		e, err := NewEndpoint(EndpointConfig{Name: c.name, DefaultName: "def", BaseURL: c.base,
			DefaultBaseURL: "https://api.example.com/v1", ErrConfig: errConfig})
		if c.wantErr != "" {
			if !errors.Is(err, errConfig) || err.Error() != c.wantErr {
				t.Errorf("%q: err %v, want %s", c.base, err, c.wantErr)
			}
			continue
		}
		if err != nil || e.Base != c.wantBase || e.Shown != c.shown || e.Name != c.wantName || e.Client == nil || e.Clock == nil || e.Log == nil {
			t.Errorf("%q: %+v, %v", c.base, e, err)
		}
	}
}
