package main

import (
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// runSandboxExec is the hidden subcommand (plugins.SandboxCommand) that
// the shell tool starts its commands through: it confines itself with the
// policy it is given (Landlock on Linux) and then executes the command in
// its place. It is not meant to be run by hand.
func runSandboxExec(args []string, io stdio) int {
	return sandbox.Main(args, io.err)
}

// sandboxCommand is the subcommand's name, for the dispatcher.
const sandboxCommand = plugins.SandboxCommand
