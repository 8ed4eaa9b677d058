package secret

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("token", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		v, err := env.Secret("demo-token")
		if err != nil {
			return nil, err
		}
		return sdk.Textf("secret has %d characters and starts with %s", len(v), v[:3]), nil
	})
	return p, nil
}
