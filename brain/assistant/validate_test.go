package assistant

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// Validating an installed plugin's own folder runs it with its grants
// only while the folder holds the code they were given to: an edit not
// applied yet is checked from source, as code nobody granted anything.
func TestValidateRunsOnlyGrantedCode(t *testing.T) {
	a := openTest(t)
	ctx := context.Background()
	dir := filepath.Join(cerebellum.CapabilitiesDir(a.Workspace().Root), "runner")
	write := func(rel, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := func(text string) string {
		return "package runner\n\nimport (\n\t\"context\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\n" +
			"func Init(env *sdk.Env) (*sdk.Plugin, error) {\n\tp := sdk.NewPlugin()\n\tp.Handle(\"runner_go\", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {\n" +
			"\t\treturn sdk.Text(\"" + text + "\"), nil\n\t})\n\treturn p, nil\n}\n"
	}
	write("SKILL.md", "---\nname: runner\ndescription: Runs.\npermissions: [exec]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n")
	write("plugin/main.go", src("granted"))
	if _, err := a.Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Enable("runner", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	notRun := func(rep *manage.Report) bool {
		for _, w := range rep.Warnings {
			if strings.Contains(w, "was checked but it was not run") {
				return true
			}
		}
		return false
	}
	rep, err := a.Validate(ctx, dir)
	if err != nil || !rep.OK() || notRun(rep) {
		t.Fatalf("the granted code: %+v, %v; want it run with its grants", rep, err)
	}
	write("plugin/main.go", src("edited"))
	rep, err = a.Validate(ctx, dir)
	if err != nil || !rep.OK() || !notRun(rep) {
		t.Fatalf("a pending edit: %+v, %v; want it checked from source only", rep, err)
	}
}
