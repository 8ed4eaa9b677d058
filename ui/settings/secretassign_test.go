package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// An MCP server written by hand names two secrets: its page says neither
// is assigned and gives each, the provider key only after a question.
func TestMCPPageAssignsSecrets(t *testing.T) {
	h := newHarness(t, func(ws string) {
		dir := filepath.Join(ws, "brain", "cerebellum", "remote")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: remote\ndescription: A server written by hand.\nmcp:\n  url: https://h.example/mcp\n" +
			"  headers: {Authorization: 'Bearer ${secret:gh_token}', X-Api-Key: '${secret:openai_api_key}'}\n---\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := h.core.SetSecret("gh_token", "ghp-0123456789"); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapability, "remote")
	screen := h.screenText()
	if !strings.Contains(screen, "gh_token: not assigned; remote may not use it") || !strings.Contains(screen, "openai_api_key: your provider API key; remote may not use it") {
		t.Fatalf("secrets on the page:\n%s", screen)
	}
	h.tap("Assign gh_token")
	if uses, _ := h.core.SecretsOf("remote"); !uses[0].Assigned {
		t.Fatalf("gh_token not assigned: %+v", uses)
	}
	if !strings.Contains(h.screenText(), "gh_token: assigned; remote may use it") {
		t.Errorf("after assigning:\n%s", h.screenText())
	}
	h.tap("Assign openai_api_key")
	if uses, _ := h.core.SecretsOf("remote"); uses[1].Assigned {
		t.Fatal("the provider key was given before the question was answered")
	}
	h.tap("Give openai_api_key")
	if uses, _ := h.core.SecretsOf("remote"); !uses[1].Assigned {
		t.Fatal("the provider key was not given after confirming")
	}
	h.tap("Withdraw gh_token")
	if uses, _ := h.core.SecretsOf("remote"); uses[0].Assigned {
		t.Fatal("gh_token still assigned after Withdraw")
	}
}

// The form refuses a secret in the arguments, pointing to env; a secret
// typed in the form's environment is the person's and is assigned.
func TestMCPFormSecretsGoInEnv(t *testing.T) {
	h := newHarness(t, nil)
	p := h.s.mcp
	h.s.tabs.Select(h.s.tabOf[pageMCP])
	h.tap("Add server…")
	test.Type(p.form.name, "gh")
	test.Type(p.form.command, "npx")
	test.Type(p.form.args, "--token=${secret:gh_token}")
	h.tap("Add server")
	if !strings.Contains(p.form.outcome.Text(), "cannot go in the command line") || !strings.Contains(p.form.outcome.Text(), "put it in env") || h.state("gh") != "missing" {
		t.Fatalf("outcome %q", p.form.outcome.Text())
	}
	p.form.args.SetText("")
	test.Type(p.form.vars, "GH_TOKEN=${secret:gh_token}")
	h.tap("Add server")
	uses, err := h.core.SecretsOf("gh")
	if err != nil || len(uses) != 1 || !uses[0].Assigned {
		t.Fatalf("typed secret: %+v, %v (%q)", uses, err, p.form.outcome.Text())
	}
}

// A plugin's page lists the secret its SKILL.md asks for, and assigns it.
func TestCapabilityPageAssignsPluginSecret(t *testing.T) {
	h := newHarness(t, func(ws string) {
		dir := filepath.Join(ws, "brain", "cerebellum", "tokener")
		if err := os.MkdirAll(filepath.Join(dir, "plugin"), 0o700); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: tokener\ndescription: Reads a token.\npermissions:\n  env: [demo-token]\ntools:\n  - name: token\n    description: The token's length.\n---\n"
		src := "package tokener\n\nimport (\n\t\"context\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\nfunc Init(env *sdk.Env) (*sdk.Plugin, error) {\n\tp := sdk.NewPlugin()\n\tp.Handle(\"token\", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {\n\t\tv, err := env.Secret(\"demo-token\")\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\treturn sdk.Textf(\"%d\", len(v)), nil\n\t})\n\treturn p, nil\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "plugin", "main.go"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	h.s.Show(hint.PageCapability, "tokener")
	if !strings.Contains(h.screenText(), "demo-token: not assigned; tokener may not use it") {
		t.Fatalf("page:\n%s", h.screenText())
	}
	h.tap("Assign demo-token")
	if uses, _ := h.core.SecretsOf("tokener"); len(uses) != 1 || !uses[0].Assigned {
		t.Fatalf("not assigned: %+v", uses)
	}
	// A built-in's page has no such box.
	h.s.Show(hint.PageCapability, "calc")
	if strings.Contains(h.screenText(), "may not use it") {
		t.Errorf("built-in page:\n%s", h.screenText())
	}
}
