// Package boom imports nothing that needs a permission, so no static
// check stops it: only the grants do. Its initialisers panic, which shows
// in the error whenever they run.
package boom

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

var _ = explode("package variable")

func init() { explode("init") }

func explode(where string) bool {
	panic("boom code ran in " + where)
}

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("boom_run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("ran"), nil
	})
	return p, nil
}
