package timeout

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	env.Log.Info("timeout plugin started")
	p := sdk.NewPlugin()
	p.Handle("spin", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		n := 0
		for {
			n++
		}
	})
	p.Handle("polite", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	p.Handle("ok", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("ok"), nil
	})
	return p, nil
}
