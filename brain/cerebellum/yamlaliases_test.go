package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// TestBillionLaughsThroughTheApp: the billion-laughs SKILL.md of issue 10
// (cerebellum/testdata/laughs) in a real workspace's brain/cerebellum.
// The application opens, what `wrasse caps list` and `wrasse secrets list`
// read keeps working, the capability is listed failed with the alias
// budget's error, and the built-in skill_validate tool (no approval
// needed) reports the same error instead of expanding the aliases.
func TestBillionLaughsThroughTheApp(t *testing.T) {
	laughs, err := os.ReadFile(filepath.Join("..", "..", "cerebellum", "testdata", "laughs", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "laughs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), laughs, 0o644); err != nil {
		t.Fatal(err)
	}
	app, err := assistant.Open(assistant.Options{Workspace: ws})
	if err != nil {
		t.Fatalf("the workspace does not open: %v", err)
	}
	defer app.Close()

	// caps list
	var failed *cerebellum.Capability
	ok := 0
	for _, c := range app.Capabilities().List() {
		switch {
		case c.Name == "laughs":
			failed = c
		case c.State == cerebellum.StateOK:
			ok++
		}
	}
	if failed == nil || failed.State != cerebellum.StateFailed || !strings.Contains(failed.Error, "YAML aliases expand too far") {
		t.Fatalf("laughs is %+v; want it listed failed with the alias budget's error", failed)
	}
	if ok == 0 {
		t.Fatal("no capability is usable beside the broken one")
	}
	// secrets list
	if err := app.SetSecret("demo", "value"); err != nil {
		t.Fatal(err)
	}
	if names, err := app.SecretNames(); err != nil || len(names) != 1 {
		t.Fatalf("SecretNames: %v %v", names, err)
	}
	// skill_validate
	args, _ := json.Marshal(map[string]string{"skill_md": strings.Replace(string(laughs), "name: laughs", "name: laughs-copy", 1)})
	out, err := app.CallTool(context.Background(), "skill_validate", args, gate.DenyAll{})
	if err != nil {
		t.Fatalf("skill_validate: %v", err)
	}
	if !out.Ran || !strings.Contains(out.Result.Content, "YAML aliases expand too far") {
		t.Fatalf("skill_validate: %+v; want it to run and report the alias budget", out)
	}
}
