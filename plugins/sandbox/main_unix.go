//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// Main is the sandbox re-exec: args are POLICY-JSON, "--", PROGRAM and its
// arguments. It restricts this process to the policy (Restrict,
// DropCapabilities, then the system call Filter) and executes the program
// in its place, with this process's environment. Started by Command in a
// mount namespace of its own (Linux), it first makes the mounts that
// protect what Landlock cannot (MountNamespace); DropCapabilities then
// takes away the capabilities it mounted with. Where there are
// repositories to protect, it first starts a watcher beside the program
// (WatchGit: Main again, with watchArg) that moves away a commondir the
// command made, once it ends. It returns only on
// failure, with an exit status, after saying why on stderr. When the kernel cannot enforce the policy
// the program still runs and the gaps are written to stderr, so that the
// command's output shows them.
func Main(args []string, stderr io.Writer) int {
	if len(args) == 2 && args[0] == watchArg {
		list, err := WatchListFrom(os.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, "wrasse sandbox: watcher:", err)
			return 126
		}
		return WatchGit(args[1], list, stderr)
	}
	if len(args) > 0 && args[0] == mountsOnlyArg {
		return mountsOnly(args[1:], os.Args[:max(0, len(os.Args)-len(args))], stderr)
	}
	l, status := prepare(args, os.Args[:max(0, len(os.Args)-len(args))], "command", stderr)
	if status != 0 {
		return status
	}
	p, mounted := l.policy, l.mounted
	for _, n := range mounted.Notes {
		fmt.Fprintln(stderr, "wrasse sandbox: warning:", n)
	}
	st, err := Restrict(p)
	if err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	st.MountNSAsked = p.MountNS || p.MountNSRefused != ""
	st.MountNS, st.MountNSWhy = mounted.OK, mounted.Why
	if gaps := st.Gaps(); len(gaps) > 0 {
		fmt.Fprintln(stderr, "wrasse sandbox: warning:", st)
	}
	// Root's capabilities would let the program read other processes'
	// /proc entries (their environments, with secrets) past Landlock.
	if err := DropCapabilities(); err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	switch err := Filter(p); {
	case errors.Is(err, ErrUnsupported):
		if p.NoUnixSockets || !p.Network || p.NoListen {
			fmt.Fprintln(stderr, "wrasse sandbox: warning:", err)
		}
	case err != nil:
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	// Landlock does not govern a descriptor already open: none but the
	// standard three reaches the program.
	if err := CloseInherited(); err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	err = syscall.Exec(l.path, l.argv, CommandEnv(os.Environ()))
	fmt.Fprintf(stderr, "wrasse sandbox: run %s: %v\n", l.argv[0], err)
	return 126
}

// mountsOnly is Main for NamespaceCommand: args are POLICY-JSON, "--",
// PROGRAM and its arguments; self is the launcher's command line up to
// them (for the watcher). It makes the mounts and starts the watcher as
// Main does for a command, gives up its capabilities (which would
// otherwise reach the program: root's executing a program, or the
// namespace's ambient ones) and the descriptors it inherited, and
// executes the program unconfined, which confines itself to the policy
// before it runs anything it does not trust (a plugin process: Confine).
// What was mounted goes to the program in its environment
// (TakeMountReport); the program says what it could not cover.
func mountsOnly(args, self []string, stderr io.Writer) int {
	l, status := prepare(args, self, "process", stderr)
	if status != 0 {
		return status
	}
	p, mounted := l.policy, l.mounted
	if err := DropCapabilities(); err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	if err := CloseInherited(); err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return 126
	}
	report := MountReport{Asked: p.MountNS || p.MountNSRefused != "", NS: p.MountNS, OK: mounted.OK, Why: mounted.Why, Notes: mounted.Notes}
	// The environment stays as LauncherEnv made it: the program is the
	// Wrasse executable too, unconfined until it confines itself, and
	// puts the held variables back itself.
	err := syscall.Exec(l.path, l.argv, withMountReport(os.Environ(), report))
	fmt.Fprintf(stderr, "wrasse sandbox: run %s: %v\n", l.argv[0], err)
	return 126
}

// launch is what Main and mountsOnly know once prepare has run.
type launch struct {
	policy  Policy
	path    string // the program, found on PATH
	argv    []string
	mounted MountResult
}

// prepare is what Main and mountsOnly do alike before they differ: args
// are POLICY-JSON, "--", PROGRAM and its arguments. It decodes the policy,
// finds the program, makes the mounts (first: Landlock's rules attach to
// the files they name, which must be the mounted ones, the sandbox's own
// /dev/shm), refuses a plan the mounts refused (a refused plan made no
// mount at all, so the program would hold every grant with nothing of the
// person's git kept from it: a36), and starts the watcher that moves away
// a commondir the program makes once it ends, outside the program's
// domain (without it such a commondir would reach the person's git, so
// the program does not run). who names the program in messages. A
// nonzero status means the program must not run; why is on stderr.
func prepare(args, self []string, who string, stderr io.Writer) (launch, int) {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(stderr, "wrasse:", ErrUsage)
		return launch{}, 2
	}
	p, err := Decode(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox:", err)
		return launch{}, 126
	}
	l := launch{policy: p, argv: args[2:]}
	if l.path, err = exec.LookPath(l.argv[0]); err != nil {
		fmt.Fprintf(stderr, "wrasse sandbox: %s: %v\n", l.argv[0], err)
		return launch{}, 127
	}
	cwd, _ := os.Getwd()
	l.mounted = MountNamespace(p, cwd)
	if l.mounted.Refused != "" {
		fmt.Fprintln(stderr, "wrasse sandbox: not started:", l.mounted.Refused)
		return launch{}, 126
	}
	if err := startWatcher(self, WatchList{GitDirs: l.mounted.GitDirs, Grants: l.mounted.Grants, Repos: l.mounted.Repos, Cut: l.mounted.Cut, Started: l.mounted.Started, NoSequencer: l.mounted.NoSequencer}); err != nil {
		fmt.Fprintf(stderr, "wrasse sandbox: %v (the watcher that keeps the %s's commondir files from your git could not start; end what the earlier commands left running and try again)\n", err, who)
		return launch{}, 126
	}
	return l, 0
}
