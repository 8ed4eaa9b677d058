package initerror

import (
	"errors"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	return nil, errors.New("cannot start: the configuration file is missing")
}
