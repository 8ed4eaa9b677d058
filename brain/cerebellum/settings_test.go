package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins"
)

const echoSkill = `---
name: echo-settings
description: Echoes its settings.
settings:
  greeting: {type: string, default: hello}
  loud: {type: bool, default: false}
tools:
  - name: echo_settings
    description: Echo.
    parameters: {type: object, properties: {}}
---
x
`

const echoPlugin = `package echo

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("echo_settings", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Textf("%s loud=%s", env.Settings["greeting"], env.Settings["loud"]), nil
	})
	return p, nil
}
`

// A capability's settings reach its plugin through the real host as
// env.Settings, and a change is seen by the next call.
func TestSettingsReachThePlugin(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "echo-settings")
	os.MkdirAll(filepath.Join(dir, "plugin"), 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(echoSkill), 0o644)
	os.WriteFile(filepath.Join(dir, "plugin", "echo.go"), []byte(echoPlugin), 0o644)
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: plugins.NewHost(plugins.Options{})}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	call := func(want string) {
		t.Helper()
		res, err := reg.Call(context.Background(), nil, "echo_settings", nil)
		if err != nil || res.Content != want {
			t.Fatalf("call = %q, %v; want %q", res.Content, err, want)
		}
	}
	call("hello loud=false")
	if err := manage.New(reg, manage.Options{}).SetSetting("echo-settings", "greeting", "ahoy"); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(reg, manage.Options{}).SetSetting("echo-settings", "loud", "TRUE"); err != nil {
		t.Fatal(err)
	}
	call("ahoy loud=true")
}
