// Package plugins hosts capability plugins: Go source in a capability's
// plugin/ folder, interpreted at run time with yaegi. Host implements
// cerebellum.Loader and cerebellum.Checker.
//
// # Model
//
// A plugin is one Go package importing only the standard library and
// plugins/sdk. It declares
//
//	func Init(env *sdk.Env) (*sdk.Plugin, error)
//
// and registers one handler per tool its SKILL.md declares. Loading a
// plugin is one pass with one error exit:
//
//  1. read plugin/*.go from the capability's fs.FS (tests, _ and . files and
//     files for other platforms skipped) and parse them;
//  2. check the source statically: no goroutines, only imports and library
//     symbols this plugin may use (see Permissions), no Go newer than the
//     interpreter understands; every problem is reported at once with file
//     and line;
//  3. build a fresh interpreter with exactly the allowed symbols, an empty
//     process environment, Stdout/Stderr routed to slog, and the source
//     mapped into a virtual GOPATH (the real GOPATH is never read);
//  4. import the package, evaluate Init, call it with an sdk.Env whose
//     authority (roots, hosts, secrets) comes from the host's settings;
//  5. compare the served tools with SKILL.md.
//
// # Calls
//
// Each call runs on its own goroutine under recover and a deadline (the
// tool's `timeout:` or Options.DefaultTimeout). A handler error becomes a
// Result with IsError; a panic or an overrun is a Go error wrapping
// ErrPluginPanic or ErrPluginTimeout. After an overrun the interpreter is
// stopped (every running frame ends) and discarded; the next call builds a
// new one. Results are checked against the tool's outputSchema and capped
// at Options.MaxResultBytes with a note saying what was cut.
//
// # Permissions
//
// Plugins that ship with the app (LoadRequest.Trusted) get the whole
// interpreter standard library plus os/exec. Others get a pure base
// (strings, encoding/json, time, regexp, ...) and, per granted permission,
// os/exec (exec), net and net/http (network), os file functions (files) and
// os.Getenv over a virtual environment (env). Symbols no plugin may use
// (os.Exit, os.Chdir, time.AfterFunc, ...) are absent for all. This keeps
// honest plugins honest; it is not a sandbox against hostile code.
package plugins
