package main

import (
	"context"
	"fmt"
	"os"

	"github.com/wrasse-app/wrasse/plugins"
)

// pluginHostCommand is the hidden subcommand that serves one plugin in a
// process of its own. The plugin host starts it (plugins.Options.Child)
// for every plugin that does not ship with Wrasse, so that a fault the Go
// runtime cannot recover from ends that process, not the app.
const pluginHostCommand = "__plugin-host"

// runPluginHost serves one plugin over stdin and stdout for the app that
// started it, logging to stderr. It is not meant to be run by hand.
func runPluginHost(ctx context.Context, io stdio) int {
	if err := plugins.ServeChild(ctx, io.in, io.out, io.err); err != nil {
		fmt.Fprintf(io.err, "wrasse %s: %v\n", pluginHostCommand, err)
		return exitFail
	}
	return exitOK
}

// pluginChild is the command line for plugins.Options.Child: this very
// executable with the hidden subcommand.
func pluginChild() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the wrasse executable to run plugins in their own process: %w", err)
	}
	return []string{exe, pluginHostCommand}, nil
}
