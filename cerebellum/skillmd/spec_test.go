package skillmd

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAgentSkillsSpecFixture parses the fixture skill that uses every field
// of the Agent Skills specification.
func TestAgentSkillsSpecFixture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "collection", "skills", "spec-full", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(data, Options{File: "spec-full/SKILL.md", Folder: "spec-full"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) > 0 {
		t.Errorf("warnings: %v", m.Warnings)
	}
	switch {
	case m.Name != "spec-full":
		t.Errorf("name %q", m.Name)
	case !strings.HasPrefix(m.Description, "Convert units and evaluate arithmetic") || !strings.HasSuffix(m.Description, "step by step."):
		t.Errorf("description %q", m.Description)
	case m.License != "Apache-2.0":
		t.Errorf("license %q", m.License)
	case m.Compatibility != "Needs a POSIX shell; no network access.":
		t.Errorf("compatibility %q", m.Compatibility)
	case !maps.Equal(m.Metadata, map[string]string{"author": "example-team", "version": "1.2"}):
		t.Errorf("metadata %v", m.Metadata)
	case !slices.Equal(m.AllowedTools, []string{"Bash(sh:*)", "calc_eval", "Read"}):
		t.Errorf("allowed-tools %q", m.AllowedTools)
	case !strings.HasPrefix(m.Body, "# Step-by-step calculations"):
		t.Errorf("body %q", m.Body)
	}
}

// TestAgentSkillsSpecFields checks each field against the specification:
// what is refused, what only warns, and what is read.
func TestAgentSkillsSpecFields(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name, front string
		folder      string
		err         string // a problem that refuses the skill
		warn        string // a problem that only warns
		check       func(*Manifest) bool
	}{
		{name: "name of 64 characters", front: "name: " + long(64)},
		{name: "name of 65 characters", front: "name: " + long(65), err: "is not a valid name"},
		{name: "name with capitals", front: "name: PDF", err: "is not a valid name"},
		{name: "name with an underscore", front: "name: pdf_forms", err: "is not a valid name"},
		{name: "name with a leading hyphen", front: "name: -pdf", err: "is not a valid name"},
		{name: "name with a trailing hyphen", front: "name: pdf-", err: "is not a valid name"},
		{name: "name with a double hyphen", front: "name: pdf--forms", err: "is not a valid name"},
		{name: "name with digits", front: "name: pdf2-forms3"},
		{name: "name missing", front: "", err: "name: required"},
		{name: "name differs from the folder", front: "name: pdf", folder: "pdf-tools", warn: `"pdf" differs from its folder name "pdf-tools"`},
		{name: "description of 1024 characters", front: "name: x\ndescription: " + long(1024)},
		{name: "description over 1024 characters", front: "name: x\ndescription: " + long(1025), warn: "is 1025 characters; keep it under 1024"},
		{name: "description empty", front: "name: x\ndescription: ''", err: "must not be empty"},
		{name: "license as a pointer to a file", front: "name: x\nlicense: Complete terms in LICENSE.txt",
			check: func(m *Manifest) bool { return m.License == "Complete terms in LICENSE.txt" }},
		{name: "compatibility over 500 characters", front: "name: x\ncompatibility: " + long(501), warn: "is 501 characters; keep it under 500"},
		{name: "metadata values are strings", front: "name: x\nmetadata:\n  version: 1.0\n  author: me",
			check: func(m *Manifest) bool { return m.Metadata["version"] == "1.0" && m.Metadata["author"] == "me" }},
		{name: "metadata nested", front: "name: x\nmetadata:\n  owner: {team: a}", err: "metadata.owner: must be a string"},
		{name: "allowed-tools space-separated", front: "name: x\nallowed-tools: Bash(git:*) Read",
			check: func(m *Manifest) bool { return slices.Equal(m.AllowedTools, []string{"Bash(git:*)", "Read"}) }},
		{name: "allowed-tools as a list", front: "name: x\nallowed-tools: [shell_exec, fs_read]",
			check: func(m *Manifest) bool { return slices.Equal(m.AllowedTools, []string{"shell_exec", "fs_read"}) }},
		{name: "keys of other clients are ignored", front: "name: x\ndisable-model-invocation: true", warn: "unknown key is ignored"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			front := tc.front
			if !strings.Contains(front, "description:") {
				front += "\ndescription: Does a thing. Use when asked."
			}
			m, err := Parse([]byte("---\n"+front+"\n---\nBody.\n"), Options{File: "SKILL.md", Folder: tc.folder})
			if tc.err != "" {
				var pe *Error
				if !errors.As(err, &pe) || !strings.Contains(err.Error()+pe.Detail(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var warns []string
			for _, w := range m.Warnings {
				warns = append(warns, w.String())
			}
			if got := strings.Join(warns, "\n"); tc.warn == "" && got != "" || !strings.Contains(got, tc.warn) {
				t.Errorf("warnings %q, want %q", got, tc.warn)
			}
			if tc.check != nil && !tc.check(m) {
				t.Errorf("fields read wrong: %+v", m)
			}
		})
	}
}
