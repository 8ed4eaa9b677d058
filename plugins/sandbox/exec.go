package sandbox

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// Command rewrites cmd so that it runs confined to p: launcher (the
// Wrasse executable and its hidden sandbox subcommand, e.g.
// [exe, "__sandbox-exec"]) starts, restricts itself with Restrict, and
// then replaces itself with cmd's program. Everything else about cmd (its
// folder, environment, output, the SysProcAttr fields its caller set)
// stays as it was. On Linux it also starts in a user and mount namespace
// of its own where the system allows one (mountNamespace; the fallback
// runs without and the launcher reports the gap).
func Command(cmd *exec.Cmd, launcher []string, p Policy) error {
	return command(cmd, launcher, p, nil)
}

// NamespaceCommand rewrites cmd so that it starts in the user and mount
// namespace Command gives a command confined to p, with the same mounts
// (MountNamespace: the git folders of p's writable grants read-only, its
// own /dev/shm, credential files and protected paths read-only mounts)
// and the same watcher of commondir files, but not confined by the
// launcher: cmd's program is one that confines itself to p once it
// knows what it serves (a plugin process: sandbox.Confine). The launcher
// gives up its capabilities and closes inherited descriptors before it
// executes the program, with the environment LauncherEnv made (the
// program puts it back itself, CommandEnv) and what it mounted
// (TakeMountReport). Where only Command's fallback is possible (the
// system refuses the namespace) the program starts the same way and the
// report says why. Outside Linux, which has no namespaces for it, cmd
// starts as it is, with the launcher's environment.
func NamespaceCommand(cmd *exec.Cmd, launcher []string, p Policy) error {
	if !hasMountNS {
		cmd.Env = LauncherEnv(environ(cmd.Env))
		return nil
	}
	return command(cmd, launcher, p, []string{mountsOnlyArg})
}

// mountsOnlyArg, as the launcher's first argument, makes Main set up the
// namespace and execute the program without confining it
// (NamespaceCommand).
const mountsOnlyArg = "--wrasse-mounts-only"

func command(cmd *exec.Cmd, launcher []string, p Policy, mode []string) error {
	if len(launcher) == 0 {
		return fmt.Errorf("%w: no sandbox launcher", ErrUsage)
	}
	// The launcher starts every sandbox before it is confined: replaced in
	// a granted folder (Wrasse run from its checkout or unpacked archive),
	// the next command would run unconfined. It is read-only to every
	// sandbox wherever it lies, by its path and the file it leads to;
	// where a writable grant reaches it, it stays runnable, as any
	// installed program (the control socket keeps it from driving the app).
	p.keepLauncher(LauncherPaths(launcher[0]))
	cmd.Err = nil // the program's LookPath error: the launcher runs; mountNamespace may set one
	mountNamespace(cmd, &p)
	enc, err := p.Encode()
	if err != nil {
		return err
	}
	prog := cmd.Path
	if prog == "" && len(cmd.Args) > 0 {
		prog = cmd.Args[0]
	}
	args := append([]string{launcher[0]}, launcher[1:]...)
	args = append(append(args, mode...), enc, "--", prog)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path = launcher[0]
	cmd.Args = args
	cmd.Env = LauncherEnv(environ(cmd.Env))
	return nil
}

// LauncherPaths are the path of the launcher (Wrasse's executable) and,
// when it is a link, the file it leads to: what every sandbox keeps
// read-only.
func LauncherPaths(exe string) []string {
	abs, err := filepath.Abs(exe)
	if err != nil {
		return []string{exe}
	}
	out := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		out = append(out, real)
	}
	return out
}

// keepLauncher makes those of paths a writable grant reaches read-only and
// runnable.
func (p *Policy) keepLauncher(paths []string) {
	n := len(p.ReadOnly)
	p.keepReadOnly(paths...)
	p.Exec = append(p.Exec, p.ReadOnly[n:]...)
}
