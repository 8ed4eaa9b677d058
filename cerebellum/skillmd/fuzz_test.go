package skillmd

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes give a manifest or an *Error, never a panic, and a
// manifest always has a valid name and JSON parameters.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"testdata/valid", "testdata/invalid"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, Options{File: "SKILL.md", Folder: "x"})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if !ValidName(m.Name) || m.Description == "" {
			t.Fatalf("accepted manifest with name %q description %q", m.Name, m.Description)
		}
		for _, tool := range m.Tools {
			if !ValidToolName(tool.Name) || len(tool.Parameters) == 0 {
				t.Fatalf("accepted bad tool %+v", tool)
			}
		}
	})
}
