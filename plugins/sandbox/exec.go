package sandbox

import (
	"fmt"
	"os/exec"
)

// Command rewrites cmd so that it runs confined to p: launcher (the
// Wrasse executable and its hidden sandbox subcommand, e.g.
// [exe, "__sandbox-exec"]) starts, restricts itself with Restrict, and
// then replaces itself with cmd's program. Everything else about cmd (its
// folder, environment, output) stays as it was.
func Command(cmd *exec.Cmd, launcher []string, p Policy) error {
	if len(launcher) == 0 {
		return fmt.Errorf("%w: no sandbox launcher", ErrUsage)
	}
	enc, err := p.Encode()
	if err != nil {
		return err
	}
	prog := cmd.Path
	if prog == "" && len(cmd.Args) > 0 {
		prog = cmd.Args[0]
	}
	args := append([]string{launcher[0]}, launcher[1:]...)
	args = append(args, enc, "--", prog)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path = launcher[0]
	cmd.Args = args
	cmd.Env = LauncherEnv(environ(cmd.Env))
	cmd.Err = nil
	return nil
}
