//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// takeEnvKeys runs first in main. In a process that finds API keys in its
// environment it starts Wrasse again in its place with the same arguments
// and an environment without them, the values written to a pipe the new
// process inherits; it returns only when that cannot be done (then the
// keys are unset, which at least keeps them from the programs Wrasse
// starts, and warn says why). In the new process it reads the keys back.
// getenv reads the environment with the keys in it.
func takeEnvKeys(args []string, warn io.Writer) (getenv func(string) string) {
	if hiddenCommand(args) {
		return os.Getenv
	}
	if fd := os.Getenv(keysFDEnv); fd != "" {
		os.Unsetenv(keysFDEnv)
		keys, err := receiveKeys(fd)
		if err != nil {
			fmt.Fprintf(warn, "wrasse: %v; the API keys from the environment are not used\n", err)
			return envKeys{}.getenv
		}
		return keys.getenv
	}
	env := os.Environ()
	keys := takenKeys(env)
	if len(keys) == 0 {
		return os.Getenv
	}
	for k := range keys {
		os.Unsetenv(k)
	}
	if !keys.secret() {
		return keys.getenv
	}
	if err := restartWithout(args, withoutKeys(env), keys); err != nil {
		fmt.Fprintf(warn, "wrasse: warning: the API keys stay visible in this process's environment to other programs of root: %v\n", err)
	}
	return keys.getenv
}

// receiveKeys reads the keys from the inherited pipe and closes it.
func receiveKeys(fdText string) (envKeys, error) {
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q is not a file descriptor", keysFDEnv, fdText)
	}
	f := os.NewFile(uintptr(fd), "keys")
	defer f.Close()
	return decodeKeys(f)
}

// restartWithout replaces this process with Wrasse started again on args
// and env, the keys on a pipe; it returns only on failure.
func restartWithout(args, env []string, keys envKeys) error {
	data, err := encodeKeys(keys)
	if err != nil {
		return err
	}
	exe := "/proc/self/exe" // the running binary, even if replaced on disk
	if runtime.GOOS != "linux" {
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return fmt.Errorf("make a pipe for the keys: %w", err)
	}
	r, w := p[0], p[1]
	if _, err := syscall.Write(w, data); err != nil {
		syscall.Close(r)
		syscall.Close(w)
		return fmt.Errorf("hand the keys over: %w", err)
	}
	syscall.Close(w)
	// The read end crosses exec; nothing else of this process does.
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(r), syscall.F_SETFD, 0); errno != 0 {
		syscall.Close(r)
		return fmt.Errorf("hand the keys over: %w", errno)
	}
	err = syscall.Exec(exe, args, append(env, keysFDEnv+"="+strconv.Itoa(r)))
	syscall.Close(r)
	return fmt.Errorf("start %s again without them: %w", exe, err)
}
