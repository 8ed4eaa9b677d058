package skillmd

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// summary is the stable, human-readable rendering compared with goldens.
func summary(m *Manifest) string {
	out := map[string]any{
		"name": m.Name, "description": m.Description, "version": m.Version, "license": m.License,
		"compatibility": m.Compatibility, "metadata": m.Metadata, "allowedTools": m.AllowedTools,
		"triggers": m.Triggers, "keywords": m.Keywords, "tags": m.Tags, "core": m.Core, "requires": m.Requires,
		"permissions": m.Permissions, "mcp": m.MCP, "headings": m.Headings, "bodyBytes": len(m.Body),
	}
	var tools []map[string]any
	for _, t := range m.Tools {
		tools = append(tools, map[string]any{"name": t.Name, "description": t.Description,
			"parameters": t.Parameters, "outputSchema": t.OutputSchema, "annotations": t.Annotations, "timeout": t.Timeout.String()})
	}
	out["tools"] = tools
	var pats []string
	for _, p := range m.DangerPatterns {
		pats = append(pats, "danger "+p.Pattern+" | "+p.Reason)
	}
	for _, p := range m.ConfirmPatterns {
		pats = append(pats, "confirm "+p.Pattern+" | "+p.Reason)
	}
	out["patterns"] = pats
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	out["warnings"] = warns
	b, _ := json.MarshalIndent(out, "", "  ")
	return string(b) + "\n"
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestParseValid(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.md")
	sort.Strings(files)
	if len(files) < 5 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(data, Options{File: filepath.Base(f), Folder: strings.TrimSuffix(filepath.Base(f), ".md")})
			if err != nil {
				t.Fatalf("unexpected error:\n%v", err)
			}
			for _, tool := range m.Tools {
				if !json.Valid(tool.Parameters) {
					t.Errorf("%s: parameters are not JSON: %s", tool.Name, tool.Parameters)
				}
			}
			checkGolden(t, strings.TrimSuffix(f, ".md")+".golden", summary(m))
		})
	}
}

func TestParseInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.md")
	sort.Strings(files)
	if len(files) < 10 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(data, Options{File: "SKILL.md"})
			if err == nil {
				t.Fatalf("parsed without error: %+v", m)
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error is %T, want *Error wrapping ErrInvalid", err)
			}
			for _, p := range pe.Problems {
				if p.Warning {
					t.Errorf("a warning was reported as an error: %s", p)
				}
			}
			checkGolden(t, strings.TrimSuffix(f, ".md")+".golden", pe.Detail()+"\n")
		})
	}
}

// TestEveryProblemAtOnce: one file with many mistakes reports each of them.
func TestEveryProblemAtOnce(t *testing.T) {
	data, _ := os.ReadFile("testdata/invalid/bad-tools.md")
	_, err := Parse(data, Options{})
	var pe *Error
	errors.As(err, &pe)
	if pe == nil || len(pe.Problems) < 8 {
		t.Fatalf("want at least 8 problems, got %v", err)
	}
	for _, p := range pe.Problems {
		if p.Line == 0 {
			t.Errorf("problem without a line: %s", p)
		}
	}
}

func TestYAMLErrorsKeepLineAndColumn(t *testing.T) {
	tests := []struct {
		file       string
		line, col  int
		msgContain string
	}{
		{"yaml-colon.md", 3, 14, "must be quoted"},
		{"yaml-tab.md", 3, 1, "YAML"},
	}
	for _, tt := range tests {
		data, _ := os.ReadFile("testdata/invalid/" + tt.file)
		_, err := Parse(data, Options{})
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("%s: %v", tt.file, err)
		}
		p := pe.Problems[0]
		if p.Line != tt.line || p.Column != tt.col || !strings.Contains(p.Message, tt.msgContain) {
			t.Errorf("%s: got %d:%d %q, want %d:%d containing %q", tt.file, p.Line, p.Column, p.Message, tt.line, tt.col, tt.msgContain)
		}
	}
}

func TestSizeLimit(t *testing.T) {
	big := "---\nname: big\ndescription: x\n---\n" + strings.Repeat("a", MaxFileSize)
	if _, err := Parse([]byte(big), Options{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
}

func TestValidName(t *testing.T) {
	tests := map[string]bool{"a": true, "pdf-forms": true, "a1-b2": true, "": false, "-a": false, "a-": false,
		"a--b": false, "A": false, "a_b": false, strings.Repeat("a", 64): true, strings.Repeat("a", 65): false}
	for in, want := range tests {
		if got := ValidName(in); got != want {
			t.Errorf("ValidName(%q) = %v", in, got)
		}
	}
}
