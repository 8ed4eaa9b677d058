package compileerror

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("broken", broken)
	return p, nil
}

func broken(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	var n int = "not a number"
	return sdk.Textf("%d", n), nil
}
