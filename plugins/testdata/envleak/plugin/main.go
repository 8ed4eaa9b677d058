package envleak

import (
	"context"
	"os"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("getenv", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		_, listed := os.LookupEnv("WRASSE_TEST_UNDECLARED")
		return sdk.JSON(map[string]any{
			"secret":     os.Getenv("WRASSE_TEST_SECRET_KEY"),
			"plain":      os.Getenv("WRASSE_TEST_PLAIN"),
			"undeclared": os.Getenv("WRASSE_TEST_UNDECLARED"),
			"listed":     listed,
			"environ":    os.Environ(),
		}), nil
	})
	return p, nil
}
