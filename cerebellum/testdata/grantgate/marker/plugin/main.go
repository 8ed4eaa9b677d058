// Package marker uses only the files permission it declares, so with
// files granted and exec and network not, its code could run and write.
package marker

import (
	"context"
	"os"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

var _ = mark("var")

func init() { mark("init") }

func mark(what string) bool {
	_ = os.WriteFile("@MARKER@/"+what, []byte(what), 0o644)
	return true
}

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	mark("Init")
	p := sdk.NewPlugin()
	p.Handle("marker_run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("ran"), nil
	})
	return p, nil
}
