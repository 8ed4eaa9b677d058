package with_plugin

import "github.com/wrasse-app/wrasse/plugins/sdk"

func Init(r *sdk.Registrar) {}
