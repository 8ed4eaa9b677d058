package newsyntax

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("count", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		n := req.Int("n", 3)
		total := 0
		for i := range n {
			total += i
		}
		return sdk.Textf("%d", total), nil
	})
	return p, nil
}
