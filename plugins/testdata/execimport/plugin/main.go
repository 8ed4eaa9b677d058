package execimport

import (
	"context"
	"os/exec"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("run_env", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		out, err := exec.CommandContext(ctx, "env").Output()
		if err != nil {
			return nil, sdk.Errorf("env failed: %v", err)
		}
		return sdk.Text(string(out)), nil
	})
	return p, nil
}
