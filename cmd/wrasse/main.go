// Command wrasse is the Wrasse desktop assistant. With no arguments it opens
// the desktop window; its subcommands are the headless CLI over the same
// engine (capabilities, conversations, chat).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// First of all: API keys leave the environment (envkeys.go).
	getenv := takeEnvKeys(os.Args, os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}, getenv)
	stop()
	os.Exit(code)
}
