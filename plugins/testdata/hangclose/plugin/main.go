// Package hangclose is a plugin fixture whose OnClose never returns.
package hangclose

import (
	"context"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	how := "spin"
	p := sdk.NewPlugin()
	p.Handle("mode", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		how = req.String("how", how)
		return sdk.Text(how), nil
	})
	p.OnClose(func() error {
		env.Log.Info("hangclose closing", "how", how)
		if how == "sleep" {
			time.Sleep(time.Hour)
		}
		n := 0
		for {
			n++
		}
	})
	return p, nil
}
