package panicky

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("boom", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		panic("boom went the plugin")
	})
	p.Handle("nilmap", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		var counts map[string]int
		counts["x"]++
		return sdk.Text("unreachable"), nil
	})
	p.Handle("fine", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("still fine"), nil
	})
	return p, nil
}
