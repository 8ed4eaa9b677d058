package plugins

import (
	"errors"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestToOutcome(t *testing.T) {
	cases := []struct {
		name string
		res  *sdk.Result
		err  error
		want outcome
	}{
		{"text", sdk.Text("hi"), nil, outcome{content: "hi"}},
		{"json", sdk.JSON(map[string]int{"n": 1}), nil, outcome{content: `{"n":1}`}},
		{"nil result", nil, nil, outcome{}},
		{"tool error", nil, sdk.Errorf("bad path %q", "x"), outcome{content: `bad path "x"`, isError: true}},
		{"plain error", nil, errors.New("boom"), outcome{content: "boom", isError: true}},
		{"empty error", nil, errors.New(""), outcome{content: "the tool failed without a message", isError: true}},
		{"json error", sdk.JSON(func() {}), nil, outcome{jsonErr: "json: unsupported type: func()"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := toOutcome(tc.res, tc.err); got != tc.want {
				t.Fatalf("got %+v; want %+v", got, tc.want)
			}
		})
	}
}
