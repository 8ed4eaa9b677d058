// Package childproc is what Wrasse's two kinds of child process share: a
// plugin's process (plugins, child.go and serve.go) and a code mode
// program's (plugins/codemode, runner.go and serve.go).
//
// Read first: Writer and MsgReader (the framing both protocols use),
// CheckVersion (the handshake), Configure and KillTree (the process
// group), Summary and Output (the crash report).
//
// # Framing
//
// Each protocol is one JSON value per line, each line bounded in length:
// a Writer encodes a message into a buffer it keeps and writes the line
// in one write, from any goroutine; a MsgReader reads lines where a read
// may be woken by a deadline and keeps the partial line it has; a
// LineReader reads a stream that only ends (a child reading its parent,
// a parent reading a child's log). A line over its bound is
// ErrLineTooLong: the rest of the stream cannot be trusted.
//
// # Handshake
//
// The parent's first message (a plugin's load, a program's run) carries
// Version; the child checks it with CheckVersion before it does anything
// else and refuses another version with ErrVersion, whose message says to
// restart Wrasse (parent and child are the same executable, so a mismatch
// means it was replaced on disk under the running app).
//
// # Processes
//
// Configure puts a child in a session and process group of its own;
// KillTree kills the child and its group (the programs it started).
// LimitMemory, called by the child itself, caps its address space at what
// it reserved plus MemoryRoom (Linux). A child that dies leaves the Go
// runtime's report on its stderr; Output keeps the start of it and
// Summary picks the one line that explains it ("fatal error: stack
// overflow").
//
// What each protocol says, and how its parent waits (the plugin host
// reads replies on the goroutine that waits for them; code mode on the
// goroutine running the program), stays in its package: the messages
// differ, and each wait was tuned to wake each process once per message.
package childproc
