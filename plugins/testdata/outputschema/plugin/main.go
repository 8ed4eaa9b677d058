package outputschema

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("stats", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.JSON(map[string]any{"count": "three"}), nil
	})
	return p, nil
}
