package plugins

import "errors"

// Sentinel errors. Load, Check and Call wrap them with the capability (and
// tool) named, so callers test with errors.Is and show the message.
var (
	// ErrBadRequest marks a LoadRequest the host cannot act on (no capability,
	// no folder, no manifest): a caller bug, not a plugin problem.
	ErrBadRequest = errors.New("invalid plugin load request")
	// ErrNoSource marks a capability whose plugin/ folder holds no Go files.
	ErrNoSource = errors.New("no plugin source")
	// ErrCompile marks plugin source the interpreter cannot compile. The
	// message names file and line.
	ErrCompile = errors.New("plugin does not compile")
	// ErrDialect marks Go features the interpreter lacks (range over int or
	// func, generic type aliases, min/max/clear, cgo, embed, library APIs
	// newer than Go 1.22). It always comes with ErrCompile.
	ErrDialect = errors.New("uses Go the plugin interpreter does not support (the plugin dialect is Go 1.22-level)")
	// ErrGoroutine marks a plugin that starts goroutines (go statements,
	// time.AfterFunc, context.AfterFunc); it is rejected before loading.
	ErrGoroutine = errors.New("plugins may not start goroutines")
	// ErrImport marks an import or a library symbol no plugin may use.
	ErrImport = errors.New("import not available to plugins")
	// ErrPermission marks an import or symbol that needs a permission the
	// user has not granted. The message says how to grant it.
	ErrPermission = errors.New("plugin needs a permission that is not granted")
	// ErrNotGranted marks a plugin that does not ship with Wrasse and
	// declares a permission the user has not granted: none of its code
	// (package initialisation, init functions, Init) runs until every
	// declared permission is granted. The message says how to grant them.
	ErrNotGranted = errors.New("plugin declares permissions that are not granted")
	// ErrInit marks a plugin whose package initialisation or Init function
	// failed, panicked, timed out or has the wrong signature.
	ErrInit = errors.New("plugin failed to start")
	// ErrToolMismatch marks a plugin whose handled tools differ from those
	// its SKILL.md declares; the message lists the difference.
	ErrToolMismatch = errors.New("plugin tools do not match SKILL.md")
	// ErrPluginPanic marks a call (or Init, or OnClose) that panicked.
	ErrPluginPanic = errors.New("plugin panicked")
	// ErrPluginTimeout marks a call that ran past its deadline. The plugin
	// instance is discarded and rebuilt on the next call.
	ErrPluginTimeout = errors.New("plugin timed out")
	// ErrInterrupted marks a call cut short because another call on the
	// same plugin instance timed out and the instance was discarded.
	ErrInterrupted = errors.New("plugin call interrupted by a restart")
	// ErrUnknownTool marks a call for a tool the capability does not declare.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrClosed marks a call on a runtime that was closed.
	ErrClosed = errors.New("plugin runtime is closed")
	// ErrPluginCrashed marks a call (or load) whose plugin process ended:
	// a fatal error of the Go runtime (unlock of an unlocked mutex, stack
	// overflow, out of memory), a panic on a goroutine the plugin caused, or
	// the process being killed. Only plugins that run out of process (see
	// Options.Child) crash this way; the next call starts a new process.
	ErrPluginCrashed = errors.New("plugin process crashed")
)
