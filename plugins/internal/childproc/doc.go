// Package childproc is what Wrasse's two kinds of child process share: a
// plugin's process (plugins, child.go and serve.go) and a code mode
// program's (plugins/codemode, runner.go and serve.go).
//
// Read first: Start and Process (starting and ending a child), Writer
// and MsgReader (the framing both protocols use), CheckVersion (the
// handshake), RelayStderr (its log), Summary and Output (the crash
// report).
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
// Start starts a child as its Spec says and reaps it: the plugin host
// asks for pipes on fds 0-2 (Stdio, parent ends served by the poller),
// code mode for blocking pipes on fds 3-5 (ExtraFiles) and one pipe on
// fds 1 and 2 (Stderr). Process.Stop ends it: it closes the child's input,
// waits StopGrace (both use 0: each says goodbye over its protocol
// first), kills the process group and waits ExitWait, twice at most.
// Configure (called by Start) puts a child in a session and process group
// of its own; KillTree kills the child and its group (the programs it
// started).
//
// RelayStderr reads a child's stderr in bounded lines: a Relay says what
// becomes of a log record (LogRecord logs it again at its own level, as
// the plugin host does; code mode logs it whole at debug level) and of
// the other lines (kept for the crash report).
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
