package initpanic

import (
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

var table = build()

func build() map[string]int {
	panic("table is broken")
}

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	_ = table
	return sdk.NewPlugin(), nil
}
