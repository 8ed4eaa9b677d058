// Command wrasse is the Wrasse desktop assistant. With no arguments it opens
// the desktop window; its subcommands are the headless CLI over the same
// engine (capabilities, conversations, chat).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/wrasse-app/wrasse/cmd/wrasse/internal/quietlocale"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func main() {
	// The toolkit's start-up is over: the locale variable set to keep it
	// quiet under LANG=C.UTF-8 goes (the window sets it again).
	quietlocale.Restore()
	// First of all: API keys leave the environment (envkeys.go).
	getenv := takeEnvKeys(os.Args, os.Stderr)
	// Descriptors inherited open (a launcher's, a terminal's) reach no
	// program Wrasse starts; failing that, the sandbox launcher closes them.
	_ = sandbox.CloseInherited()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}, getenv)
	stop()
	os.Exit(code)
}
