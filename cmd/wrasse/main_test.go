package main

import (
	"context"
	"os"
	"testing"
)

// TestMain lets the test binary serve as the plugin host child that the
// app starts for plugins that do not ship with Wrasse, and as the sandbox
// launcher the shell tool runs commands through (os.Executable is the test
// binary here).
func TestMain(m *testing.M) {
	if os.Getenv(asWrasseEnv) != "" {
		main() // the binary under test, for tests that signal a process
	}
	if len(os.Args) > 1 && os.Args[1] == pluginHostCommand {
		os.Exit(runPluginHost(context.Background(), stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
	}
	if len(os.Args) > 1 && os.Args[1] == codeRunCommand {
		os.Exit(runCodeRun(context.Background(), stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
	}
	if len(os.Args) > 1 && os.Args[1] == sandboxCommand {
		os.Exit(runSandboxExec(os.Args[2:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
	}
	os.Exit(m.Run())
}
