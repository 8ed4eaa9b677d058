package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeConfigKeepsWhatParses: a typo in config.json costs only what
// it breaks, and says where it is.
func TestDecodeConfigKeepsWhatParses(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     Config
		problems []string // each problem's text, in order
	}{
		{"empty", "", Config{}, nil},
		{"whitespace only", " \n\t\n", Config{}, nil},
		{"byte order mark", "\uFEFF{\"model\": \"m\"}", Config{Model: "m"}, nil},
		{"valid", `{"model": "m", "maxSteps": 5, "folders": ["/a"]}`, Config{Model: "m", MaxSteps: 5, Folders: []string{"/a"}}, nil},
		{"syntax error keeps the keys before it", "{\n  \"model\": \"x\",\n  oops,\n  \"maxSteps\": 3\n}",
			Config{Model: "x"}, []string{"c.json:3:3: invalid character 'o' looking for beginning of object key string; what follows is not read (defaults apply)"}},
		{"missing comma", "{\"model\": \"x\"\n\"maxSteps\": 3}",
			Config{Model: "x"}, []string{"c.json:2:1: invalid character '\"' after object key:value pair; what follows is not read (defaults apply)"}},
		{"wrong type costs only its key", "{\n  \"maxSteps\": \"ten\",\n  \"model\": \"x\",\n  \"autoResync\": 1\n}",
			Config{Model: "x"}, []string{
				"c.json:2:15: maxSteps must be a whole number, not a string; the default applies",
				"c.json:4:17: autoResync must be true or false, not a number; the default applies"}},
		{"list of the wrong kind", `{"folders": "/home"}`, Config{},
			[]string{`c.json:1:13: folders must be a list of texts in quotes (["a", "b"]), not a string; the default applies`}},
		{"cut short", "{\"model\": \"x\", \"maxSteps\": 4", Config{Model: "x", MaxSteps: 4},
			[]string{"c.json:1:29: the file ends before its closing }; what follows is not read (defaults apply)"}},
		{"not an object", `["model"]`, Config{}, []string{"c.json:1:1: config.json must be a JSON object ({ ... }); what follows is not read (defaults apply)"}},
		{"text after the object", "{\"model\": \"x\"} trailing", Config{Model: "x"},
			[]string{"c.json:1:16: unexpected text after the closing }; what follows is not read (defaults apply)"}},
		{"null is the default", `{"maxSteps": null, "model": "x"}`, Config{Model: "x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := DecodeConfig([]byte(tt.text), "c.json")
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("config = %+v, want %+v", got, tt.want)
			}
			var texts []string
			for _, p := range problems {
				texts = append(texts, p.String())
			}
			if !reflect.DeepEqual(texts, tt.problems) {
				t.Errorf("problems:\n got %q\nwant %q", texts, tt.problems)
			}
		})
	}
}

// TestReadConfigOpensBrokenFiles: ReadConfig returns what it could read
// and the problems, never an error, for a file that exists and can be
// read; LoadConfig stays strict.
func TestReadConfigOpensBrokenFiles(t *testing.T) {
	w := Workspace{Root: t.TempDir()}
	if err := os.WriteFile(w.Config(), []byte("{\"model\": \"x\",\n oops}"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, problems, err := w.ReadConfig()
	if err != nil || c.Model != "x" || len(problems) != 1 || problems[0].Line != 2 {
		t.Fatalf("ReadConfig = %+v, %v, %v", c, problems, err)
	}
	if _, err := w.LoadConfig(); err == nil || !strings.Contains(err.Error(), "config.json:2:2") {
		t.Fatalf("LoadConfig = %v, want the problem with its position", err)
	}
	if err := os.WriteFile(w.Config(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if c, problems, err := w.ReadConfig(); err != nil || len(problems) != 0 || !reflect.DeepEqual(c, Config{}) {
		t.Fatalf("empty file: %+v, %v, %v", c, problems, err)
	}
	if got := w.Backups(); got != filepath.Join(w.Root, ".cache", "backups") {
		t.Fatalf("Backups = %s", got)
	}
}

// FuzzDecodeConfig: any bytes decode without a panic; a file with no
// problems decodes as encoding/json decodes it, and every problem has a
// position inside the file.
func FuzzDecodeConfig(f *testing.F) {
	for _, s := range []string{"", "{}", `{"model":"m","maxSteps":3}`, `{"folders":["/a","/b"],"autoResync":true}`,
		"{\n oops}", `{"maxSteps":"x"}`, `[1]`, `{"a":{"b":[1,{"c":2}]}}`, "\uFEFF{}", `{"model":"x"} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, problems := DecodeConfig(data, "config.json")
		lines := strings.Count(string(data), "\n") + 1
		for _, p := range problems {
			if p.Line < 1 || p.Line > lines || p.Column < 1 {
				t.Fatalf("problem %q outside the file (%d lines)", p, lines)
			}
		}
		var want Config
		if len(problems) == 0 && json.Valid(data) {
			if err := json.Unmarshal(data, &want); err == nil && !reflect.DeepEqual(c, want) {
				t.Fatalf("DecodeConfig = %+v, encoding/json = %+v", c, want)
			}
		}
	})
}
