package plugins

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestCapResult(t *testing.T) {
	cases := []struct {
		name      string
		content   string
		max       int
		truncated bool
		prefix    string
	}{
		{name: "fits", content: "hello", max: 10, prefix: "hello"},
		{name: "exactly the cap", content: strings.Repeat("a", 200), max: 200, prefix: strings.Repeat("a", 200)},
		{name: "cut with note", content: strings.Repeat("a", 1000), max: 300, truncated: true, prefix: "aaaa"},
		{name: "cut at a rune boundary", content: strings.Repeat("é", 1000), max: 301, truncated: true, prefix: "éé"},
		{name: "cap smaller than the note", content: strings.Repeat("a", 1000), max: 20, truncated: true},
		{name: "no cap", content: strings.Repeat("a", 1000), max: 0, prefix: "aaaa"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := capResult(cerebellum.Result{Content: tc.content}, tc.max)
			if r.Truncated != tc.truncated {
				t.Fatalf("Truncated = %v; want %v", r.Truncated, tc.truncated)
			}
			if !strings.HasPrefix(r.Content, tc.prefix) {
				t.Errorf("content %q lacks prefix %q", r.Content, tc.prefix)
			}
			if tc.max > 0 && len(r.Content) > tc.max {
				t.Errorf("len %d > cap %d", len(r.Content), tc.max)
			}
			if !utf8.ValidString(r.Content) {
				t.Error("content is not valid UTF-8")
			}
			if tc.truncated && tc.max > 200 {
				kept := strings.Index(r.Content, "\n\n[result cut")
				want := "bytes were cut"
				if kept < 0 || !strings.Contains(r.Content, want) {
					t.Fatalf("no note in %q", r.Content)
				}
				if !strings.Contains(r.Content, "of "+strconv.Itoa(len(tc.content))+" bytes") {
					t.Errorf("note does not give the full size: %q", r.Content[kept:])
				}
			}
		})
	}
}

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
