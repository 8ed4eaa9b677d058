// Package good is a plugin fixture whose tools work.
package good

import (
	"context"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

type sum struct {
	Sum float64 `json:"sum"`
}

// Init registers echo and add.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	env.Log.Info("good plugin started")
	p := sdk.NewPlugin()
	p.Handle("echo", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text(strings.TrimSpace(req.String("text", ""))), nil
	})
	p.Handle("add", add)
	p.Handle("info", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.JSON(map[string]any{
			"name": env.Name, "pluginDir": env.PluginDir, "workspace": env.Workspace,
			"roots": env.Roots, "hosts": env.Hosts,
		}), nil
	})
	p.OnClose(func() error {
		env.Log.Info("good plugin closed")
		return nil
	})
	return p, nil
}

func add(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	var in struct{ A, B float64 }
	if err := req.Decode(&in); err != nil {
		return nil, sdk.Errorf("add needs numbers a and b: %v", err)
	}
	return sdk.JSON(sum{Sum: in.A + in.B}), nil
}
