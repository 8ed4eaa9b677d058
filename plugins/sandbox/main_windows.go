package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Main runs the program unconfined: Windows offers no sandbox Wrasse can
// set up for a child process. It says so on stderr and passes the exit
// status on.
func Main(args []string, stderr io.Writer) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(stderr, "wrasse:", ErrUsage)
		return 2
	}
	fmt.Fprintln(stderr, "wrasse sandbox: warning: no OS sandbox on Windows; the command runs with your account's rights")
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = CommandEnv(os.Environ())
	if err := cmd.Run(); err != nil {
		if cmd.ProcessState != nil {
			return cmd.ProcessState.ExitCode()
		}
		fmt.Fprintf(stderr, "wrasse sandbox: run %s: %v\n", args[2], err)
		return 127
	}
	return 0
}
