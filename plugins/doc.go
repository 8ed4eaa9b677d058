// Package plugins hosts capability plugins: Go source in a capability's
// plugin/ folder, interpreted at run time with yaegi. Host implements
// cerebellum.Loader and cerebellum.Checker.
//
// Read first: Host and Options (one host serves every plugin), the
// in-process runtime (runtime.go: pluginRuntime, instance), and, for
// plugins that do not ship with the app, the plugin process: childRuntime
// (child.go, the host's side) and ServeChild (serve.go, the process's),
// which speak the protocol of wire.go on the framing and process handling
// they share with code mode's program process (plugins/internal/childproc).
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
// tool's `timeout:` or Options.DefaultTimeout; at most
// Options.MaxUntrustedTimeout for plugins that do not ship with the app).
// OnClose is bounded by Options.CloseTimeout. A handler error becomes a
// Result with IsError; a panic or an overrun is a Go error wrapping
// ErrPluginPanic or ErrPluginTimeout. After an overrun the interpreter is
// stopped (every running frame ends) and discarded; the next call builds a
// new one. Results are passed on as the plugin returned them: the registry
// checks them against the tool's outputSchema and cuts them, once, for
// every runtime (cerebellum.Registry.Run).
//
// # Permissions
//
// Plugins that ship with the app (LoadRequest.Trusted) get every package
// below plus reflect and runtime; only these are linked into Wrasse
// (plugins/hostsyms/std). Others get a pure base
// (strings, encoding/json, time, regexp, ...) and, per granted permission,
// os/exec (exec), net and net/http (network), os file functions (files) and
// os.Getenv over a virtual environment (env). Symbols no plugin may use
// (os.Exit, os.Chdir, time.AfterFunc, ...) are absent for all; methods and
// dials that reach the disk behind an allowed type (multipart ReadForm,
// unix sockets) need files. A plugin that does not ship with the app runs
// none of its code, package initialisation included, until every
// permission it declares is granted (ErrNotGranted). The library rules
// keep honest plugins honest; against hostile code the plugin process
// confines itself with the OS sandbox (plugins/sandbox), and Confinement
// says how far the kernel goes.
//
// # Processes
//
// Some faults end a Go process whatever recover does: a fatal runtime
// error (unlock of an unlocked mutex, concurrent map writes, stack
// overflow, out of memory) or a panic on a goroutine the library started
// for plugin code (context.WithCancel on a plugin's own Context type,
// exec reading a plugin's io.Reader). With Options.Child set, plugins that
// do not ship with the app therefore run out of process, one process per
// loaded plugin (child.go): the host checks the source, then starts
// Options.Child, whose ServeChild (serve.go) rebuilds the plugin from the
// checked bytes and the authority the host settled and runs it with the
// same in-process machinery. The two talk JSON lines over stdin/stdout
// (wire.go). Starting the process (childproc.Start with pipes on fds 0-2),
// ending it (Process.Stop: input closed, then the process group killed),
// the framing, the version check, the stderr relay (RelayStderr), and the
// crash summary are plugins/internal/childproc's, which code mode's
// program process uses too; the child's slog records come back on stderr
// and are logged under the capability; env.Secret is a request the host answers with the
// plugin's rules. The process environment is the plugin's virtual one; the
// process has a 64 MiB stack limit, one thread of Go code (one P), and on Linux
// (without exec) an address-space cap. If it dies, the call fails with
// ErrPluginCrashed and the Go runtime's own explanation ("fatal error:
// stack overflow"); the host also enforces every deadline itself and kills
// (the process group of) a process that does not answer. The next call
// starts a new process. Plugins that ship with the app stay in process:
// they are reviewed, and a call skips the pipe round trip (10-20 µs; each
// side wakes once per message, see childProc).
//
// # Programs
//
// CheckProgram and RunProgram (program.go) serve code mode
// (plugins/codemode): a standalone program, package main, is checked with
// the same rules as a plugin granted nothing and interpreted with the pure
// library under the same guard as a call.
package plugins
