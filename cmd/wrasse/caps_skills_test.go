package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// collection is the Agent Skills fixture shared with the engine's tests:
// skills/{pdf,spec-full,web-builder,broken} and a README beside them.
var collection = filepath.Join("..", "..", "cerebellum", "testdata", "collection")

// zipTree archives dir under prefix, keeping file modes.
func zipTree(t *testing.T, dir, prefix string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, _ := d.Info()
		fh, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fh.Name, fh.Method = prefix+filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		data, _ := os.ReadFile(p)
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	zw.Close()
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(prefix, "/")+".zip")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCapsInstallCollection(t *testing.T) {
	zipped := zipTree(t, collection, "skills-main/")
	for _, input := range []string{collection, zipped} {
		t.Run(filepath.Base(input), func(t *testing.T) {
			ws := t.TempDir()
			if code, _, errs := cli(t, ws, "caps", "validate", input); code != 1 || !strings.Contains(errs, "holds 4 skills") {
				t.Fatalf("validate: %d %q", code, errs)
			}
			// Without --all or --only it refuses, naming the skills.
			code, out, errs := cli(t, ws, "caps", "install", input)
			if code != 1 || !strings.Contains(errs, "holds 4 skills: broken, pdf, spec-full, web-builder") || !strings.Contains(errs, "--all") {
				t.Fatalf("plain install: %d %q %q", code, out, errs)
			}
			if code, out, _ := cli(t, ws, "caps", "list", "--no-check"); code != 0 || strings.Contains(out, "web-builder") {
				t.Fatalf("a refused collection installed something:\n%s", out)
			}
			code, out, errs = cli(t, ws, "caps", "install", input, "--only", "pdf,web-builder")
			if code != 0 || !strings.Contains(out, "Installed pdf (guide)") || !strings.Contains(out, "Installed web-builder (guide)") {
				t.Fatalf("--only: %d %q %q", code, out, errs)
			}
			// --all: the broken skill fails on its own, spec-full installs,
			// the two installed already say so.
			code, out, errs = cli(t, ws, "caps", "install", input, "--all")
			if code != 1 || !strings.Contains(out, "Installed spec-full (guide)") || !strings.Contains(errs, "Broken_Skill") || !strings.Contains(errs, "1 of 4 skills installed.") {
				t.Fatalf("--all: %d %q %q", code, out, errs)
			}
			code, out, errs = cli(t, ws, "caps", "list", "--no-check")
			if code != 0 {
				t.Fatalf("caps list: %d %q", code, errs)
			}
			for _, name := range []string{"pdf", "spec-full", "web-builder"} {
				if !strings.Contains(out, name) {
					t.Errorf("list lacks %s:\n%s", name, out)
				}
			}
			if code, _, errs := cli(t, ws, "caps", "install", input, "--only", "nope"); code != 1 || !strings.Contains(errs, "not nope") {
				t.Errorf("--only nope: %d %q", code, errs)
			}
		})
	}
}

func TestCapsShowBody(t *testing.T) {
	ws := t.TempDir()
	if code, _, errs := cli(t, ws, "caps", "install", filepath.Join(collection, "skills", "spec-full")); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := cli(t, ws, "caps", "show", "spec-full", "--no-check")
	for _, want := range []string{"License:", "Apache-2.0", "Compatibility:", "Needs a POSIX shell", "Metadata:", "author=example-team, version=1.2",
		"Allowed tools:", "Bash(sh:*) calc_eval Read", "Instructions (SKILL.md):", "  # Step-by-step calculations"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("show lacks %q: %d\n%s%s", want, code, out, errs)
		}
	}
	code, out, _ = cli(t, ws, "caps", "show", "spec-full", "--body")
	if code != 0 || !strings.HasPrefix(out, "# Step-by-step calculations\n") || strings.Contains(out, "License") {
		t.Errorf("--body: %d %q", code, out)
	}
	code, out, _ = cli(t, ws, "--json", "caps", "show", "spec-full", "--no-check")
	var js struct {
		Manifest struct {
			Body         string            `json:"body"`
			Metadata     map[string]string `json:"metadata"`
			AllowedTools []string          `json:"allowedTools"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil || js.Manifest.Metadata["author"] != "example-team" || len(js.Manifest.AllowedTools) != 3 || js.Manifest.Body == "" {
		t.Errorf("--json: %d %v %+v", code, err, js)
	}
}
