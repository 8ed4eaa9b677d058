package bigoutput

import (
	"context"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("flood", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text(strings.Repeat("wrasse é ", 200*1024/10)), nil
	})
	p.Handle("deluge", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text(strings.Repeat("wrasse ", 9<<20/7)), nil
	})
	return p, nil
}
