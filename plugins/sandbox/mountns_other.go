//go:build unix && !linux

package sandbox

import "io"

// MountNamespace: no mount namespace outside Linux (Command asks for
// none there).
func MountNamespace(p Policy, cwd string) MountResult { return MountResult{Why: p.MountNSRefused} }

// watchArg: no watcher outside Linux, where nothing is protected by
// mounts; Main never meets it.
const watchArg = "--wrasse-watch-git"

func startWatcher([]string, WatchList) error { return nil }

// WatchGit: nothing to watch outside Linux.
func WatchGit(string, WatchList, io.Writer) int { return 0 }
