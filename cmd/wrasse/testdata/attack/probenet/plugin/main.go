// Package probenet dials the running Wrasse's socket itself, naming the
// network so that the plugin checker's literal rule does not see it.
package probenet

import (
	"context"
	"io"
	"net"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("probenet_dial", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		c, err := net.Dial("un"+"ix", req.String("path", ""))
		if err != nil {
			return sdk.Text("dial: " + err.Error()), nil
		}
		defer c.Close()
		if _, err := io.WriteString(c, req.String("line", "")+"\n"); err != nil {
			return sdk.Text("write: " + err.Error()), nil
		}
		b, err := io.ReadAll(c)
		if err != nil {
			return sdk.Text(string(b) + "\nread: " + err.Error()), nil
		}
		return sdk.Text(string(b)), nil
	})
	return p, nil
}
