// Package codemode runs code mode: a short Go program, written by the
// model, that calls the conversation's tools as typed Go functions and
// prints its result.
//
// Read first: Runner (runs a Program, in a process of its own when
// Command is set), Program (the source and the tools it may call),
// Generate (the tools' Go signatures) and Result.
//
// # The program
//
// A program is one file in the plugin dialect (package main, func main;
// Go 1.22-level, no goroutines) that imports only the pure standard
// library (fmt, strings, encoding/json, sort, ...): no os, os/exec, net,
// syscall or unsafe. Generate turns the tools' JSON Schemas into Go: one
// XxxArgs struct per tool (fields from the schema's properties, optional
// ones with omitempty, nested objects as nested structs, arrays as
// slices) and one function per tool with the tool's own name,
//
//	calc_eval(CalcEvalArgs{Expression: "6*7"}) (string, error)
//
// plus search(query), activate(capability) and call(tool, args). The
// generated declarations are appended to the program (and one import put
// on its package line, so its line numbers hold); the program alone is
// checked with the plugins' source checker as a plugin granted nothing.
//
// # Running
//
// Runner.Run starts a process of its own (Runner.Command, the app's
// hidden subcommand serving ServeChild) that caps its address space,
// confines itself with the OS sandbox with no file, network or exec
// rights, checks the program again and interprets it under a deadline.
// Each function call becomes a request on the process's pipe; the parent
// answers it with the caller's CallFunc (in Wrasse the agent's path for
// any tool call: gate, approval, registry) and the program gets the
// result text, or an error value when the call failed or was refused. What
// the program prints, up to Runner.MaxOutput, is the result; printing more
// stops it. A process that does not finish in time, or whose run is
// cancelled, is killed.
//
// # Protocol
//
// JSON lines on three extra pipes (fd 3 parent → child, fd 4 child →
// parent, fd 5 the stop), so nothing the interpreter or the Go runtime
// prints can break the stream; stderr carries the child's log and, when
// it dies, the runtime's report (fds 1 and 2 share one pipe). Starting
// the process (childproc.Start with blocking pipes on fds 3-5), ending it
// (Process.Stop, no grace: the process group is killed once the run is
// over), the framing, the version check, the stderr relay (RelayStderr,
// records logged at debug level) and the crash summary are the plugin
// process's (plugins/internal/childproc): the run request carries the protocol
// version, and a process speaking another refuses it (ErrVersion, "restart
// Wrasse") before it runs anything.
//
//	parent → child: run, reply
//	child → parent: call, done
//	fd 5: one byte stops the program; its end says the parent went away
//
// An inner call is read and answered on the goroutines that wait for it
// (the program's own, the one in Runner.Run), in blocking reads of pipes
// that neither process's poller watches: its trip wakes each process
// once. Lines are encoding/json through a writer that keeps its buffer
// (docs/performance.md, Protocol encoding, says why no hand-written codec).
package codemode
