package mismatch

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	h := func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) { return sdk.Text(req.Tool), nil }
	p.Handle("alpha", h)
	p.Handle("gamma", h)
	return p, nil
}
