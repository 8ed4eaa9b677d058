//go:build !unix

package main

import (
	"io"
	"os"
)

// takeEnvKeys takes the API keys out of Wrasse's environment, so that no
// program it starts inherits them. Windows keeps a process's environment
// readable by the user's other processes whatever is unset here; what this
// does not do is in docs/plugins.md ("Control channel").
func takeEnvKeys(args []string, _ io.Writer) func(string) string {
	if hiddenCommand(args) {
		return os.Getenv
	}
	keys := takenKeys(os.Environ())
	for k := range keys {
		os.Unsetenv(k)
	}
	return keys.getenv
}
