package builtin_test

import (
	"io/fs"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Requests carry the tools that ship with Wrasse as written, since they
// are its own words (cerebellum's toolDef): each description is one line
// within the limit every other capability is cut to, and opens or closes
// none of the prompt's sections.
func TestBuiltinToolTextFitsThePrompt(t *testing.T) {
	fsys := builtin.FS()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(e.Name(), "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := skillmd.Parse(data, skillmd.Options{File: e.Name() + "/SKILL.md", Folder: e.Name()})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range m.Tools {
			d := tl.Description
			if strings.ContainsAny(d, "\n\r") || cerebellum.PromptBlock(d) != d || utf8.RuneCountInString(d) > cerebellum.ToolDescriptionLimit {
				t.Errorf("%s: %s's description is not one line of at most %d characters free of the prompt's tags: %q",
					e.Name(), tl.Name, cerebellum.ToolDescriptionLimit, d)
			}
		}
	}
}
