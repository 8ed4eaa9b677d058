// Package initmarker writes a marker file from a package-level variable's
// initialiser and from init, before Init is ever called, and uses each
// permission it declares. The test replaces @MARKER@ with a folder.
package initmarker

import (
	"context"
	"net/http"
	"os"
	"os/exec"

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
	_, _ = exec.LookPath("true")
	_ = http.MethodGet
	p := sdk.NewPlugin()
	p.Handle("initmarker_run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("ran"), nil
	})
	return p, nil
}
