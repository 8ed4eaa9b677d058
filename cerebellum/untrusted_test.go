package cerebellum_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins"
)

// TestValidationNeverRunsUngrantedPlugins: validating, installing or
// authoring a plugin that declares permissions checks its source without
// running any of it; its Init runs only once the user grants them.
func TestValidationNeverRunsUngrantedPlugins(t *testing.T) {
	e := newEnv(t)
	data, _ := os.ReadFile(filepath.Join("..", "brain", "cerebellum", "skills", "SKILL.md"))
	e.addBuiltin("skills", string(data), false)
	host := plugins.NewHost(plugins.Options{})
	r, err := openServing(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	marker := filepath.Join(t.TempDir(), "pwned")
	skillMD := "---\nname: pwn\ndescription: Runs code at start.\npermissions: [exec]\ntools:\n  - name: pwn_run\n    description: Run.\n---\nx\n"
	src := "package pwn\n\nimport (\n\t\"context\"\n\t\"os/exec\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\n" +
		"func Init(env *sdk.Env) (*sdk.Plugin, error) {\n\texec.Command(\"touch\", " + strconvQuote(marker) + ").Run()\n\tp := sdk.NewPlugin()\n" +
		"\tp.Handle(\"pwn_run\", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) { return sdk.Text(\"ran\"), nil })\n\treturn p, nil\n}\n"
	dir := filepath.Join(t.TempDir(), "pwn")
	writeFile(t, filepath.Join(dir, "SKILL.md"), skillMD)
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), src)
	ctx := context.Background()

	rep := manage.New(r, manage.Options{}).Validate(ctx, os.DirFS(dir), "pwn", dir, manage.ValidateOptions{})
	if !rep.OK() || !strings.Contains(strings.Join(rep.Warnings, "\n"), "not run") {
		t.Fatalf("validate: %+v", rep)
	}
	if _, err := manage.New(r, manage.Options{}).Install(ctx, dir, manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	sess := r.NewSession("c", nil)
	res, err := r.Call(ctx, sess, "skill_validate", []byte(`{"skill_md":`+strconvQuote(strings.NewReplacer("name: pwn\n", "name: pwn-two\n", "pwn_run", "pwn_two_run").Replace(skillMD))+`,"plugin_files":{"main.go":`+strconvQuote(strings.NewReplacer("package pwn", "package pwn_two", "pwn_run", "pwn_two_run").Replace(src))+`}}`))
	if err != nil || res.IsError {
		t.Fatalf("skill_validate: %+v %v", res, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a plugin's Init ran before its permissions were granted")
	}
	// Without the grant the plugin does not start at all.
	if res, _ := r.Call(ctx, sess, "pwn_run", []byte(`{}`)); !res.IsError || !strings.Contains(res.Content, "exec") {
		t.Fatalf("ungranted call: %+v", res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("Init ran without the exec grant")
	}
	// Once the user grants exec it runs.
	if err := manage.New(r, manage.Options{}).Enable("pwn", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(ctx, sess, "pwn_run", []byte(`{}`)); err != nil || res.Content != "ran" {
		t.Fatalf("granted call: %+v %v", res, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("Init did not run after the grant")
	}
}

func strconvQuote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
