package hostsyms

import "reflect"

// Symbols maps "<import path>/<package name>" to the exported symbols of the
// host packages plugins may import. The generated files fill it in init.
var Symbols = map[string]map[string]reflect.Value{}

// SDKPath is the import path plugins use for the SDK.
const SDKPath = "github.com/wrasse-app/wrasse/plugins/sdk"

// Regenerate with `go generate ./plugins/hostsyms` after changing plugins/sdk.
// ErrOutsideRoots, ErrProtected, ErrNoSandbox, ErrHostNotAllowed and ErrLink are excluded and registered by hand (vars.go) so that a
// plugin cannot reassign a host-wide variable.
//
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name hostsyms -exclude ^Err(OutsideRoots|Protected|NoSandbox|HostNotAllowed|Link)$ github.com/wrasse-app/wrasse/plugins/sdk
