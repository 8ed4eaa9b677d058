package search_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

func TestExact(t *testing.T) {
	ix := search.Build([]search.Doc{
		{ID: "web-search", Name: "web-search", Description: "Search the web.", ToolNames: []string{"web_fetch"}},
		{ID: "fetcher", Name: "fetcher", Description: "Fetch things.", ToolNames: []string{"web_fetch_all"}},
	})
	tests := []struct {
		query, want, tool string
	}{
		{"web search", "web-search", ""},
		{"WEB_FETCH", "web-search", "web_fetch"},
		{"web fetch all", "fetcher", "web_fetch_all"},
		{"fetch", "", ""},
		{"   ", "", ""},
	}
	for _, tt := range tests {
		hits := ix.Exact(tt.query, 5, nil)
		got, tool := "", ""
		if len(hits) > 0 {
			got, tool = hits[0].ID, hits[0].MatchedTool
			if !hits[0].Exact {
				t.Errorf("%q: hit not marked exact", tt.query)
			}
		}
		if got != tt.want || tool != tt.tool {
			t.Errorf("Exact(%q) = %q/%q, want %q/%q", tt.query, got, tool, tt.want, tt.tool)
		}
	}
	if hits := ix.Exact("web search", 5, func(id string) bool { return id != "web-search" }); len(hits) != 0 {
		t.Errorf("keep ignored: %v", hits)
	}
}
