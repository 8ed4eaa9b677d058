package goroutine

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("spawn", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		go func() {
			panic("this would take Wrasse down")
		}()
		return sdk.Text("spawned"), nil
	})
	return p, nil
}
