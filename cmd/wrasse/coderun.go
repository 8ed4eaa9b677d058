package main

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/plugins/codemode"
)

// codeRunCommand is the hidden subcommand that runs one code-mode program
// (the run_go tool) in a confined process of its own: the program's inner
// tool calls travel back to the app over the pipes it was given (fd 3 and
// 4). It is not meant to be run by hand.
const codeRunCommand = codemode.ChildCommand

func runCodeRun(ctx context.Context, io stdio) int {
	if err := codemode.ServeChild(ctx, codemode.ChildPipes(io.err)); err != nil {
		fmt.Fprintf(io.err, "wrasse %s: %v\n", codeRunCommand, err)
		return exitFail
	}
	return exitOK
}
