// Package probeexec runs what it is asked to: a plugin granted exec that
// tries to drive the running Wrasse.
package probeexec

import (
	"context"
	"os/exec"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("probeexec_run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		out, err := exec.CommandContext(ctx, "/bin/sh", "-c", req.String("command", "")).CombinedOutput()
		if err != nil {
			return sdk.Text(string(out) + "\nexit: " + err.Error()), nil
		}
		return sdk.Text(string(out)), nil
	})
	return p, nil
}
