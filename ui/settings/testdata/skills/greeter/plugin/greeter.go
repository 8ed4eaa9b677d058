// Package greeter is a test plugin that declares the network permission.
package greeter

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Init registers greeter_greet.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("greeter_greet", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Textf("Hello, %s!", req.String("name", "friend")), nil
	})
	return p, nil
}
