package plugins

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	wordcount "github.com/wrasse-app/wrasse/plugins/example/wordcount/plugin"
)

// The worked example runs the same interpreted as compiled.
func TestExampleInterpretedMatchesNative(t *testing.T) {
	rt, err := testHost(&recorder{}).Load(t.Context(), request(capabilityAt(t, "example/wordcount"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for _, text := range []string{"", "one", "a b a\nc a b\n", "Ünïcode wörds, wörds; 'quoted' it's"} {
		args, _ := json.Marshal(map[string]any{"text": text, "top": 3})
		res, err := rt.Call(t.Context(), "count_words", args)
		if err != nil || res.IsError {
			t.Fatalf("%q: %+v %v", text, res, err)
		}
		want, _ := json.Marshal(wordcount.Count(text, 3))
		if res.Content != string(want) {
			t.Errorf("%q: interpreted %s, native %s", text, res.Content, want)
		}
	}
}

// docs/plugins.md shows the example files verbatim.
func TestDocsShowTheExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "plugins.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"SKILL.md", "plugin/wordcount.go", "plugin/wordcount_test.go"} {
		src, err := os.ReadFile(filepath.Join("example", "wordcount", f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), string(src)) {
			t.Errorf("docs/plugins.md does not show example/wordcount/%s as it is", f)
		}
	}
}
