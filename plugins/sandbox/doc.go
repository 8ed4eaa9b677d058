// Package sandbox confines a process with the operating system, so that
// what a plugin or a shell command may touch holds even against hostile
// code. On Linux it uses Landlock (github.com/landlock-lsm/go-landlock):
// file access only beneath the folders a Policy names, and, on kernels with
// Landlock ABI 4 or later, no TCP connect or bind without Network.
//
// Landlock rules only ever add access, beneath a folder. A protected path
// inside a granted folder (the workspace's database inside the home
// folder) is therefore carved out: the folders on the way down to it get
// only the right to be listed, and every other entry beside them gets the
// granted access itself (Rules). Entries created later directly in such a
// folder are not covered, so new files can be made only deeper down, in an
// entry that existed when the sandbox was set up.
//
// Restrict applies to the calling process and everything it starts, for
// the rest of its life; it cannot be undone. What the kernel cannot
// enforce (no Landlock, an old ABI, another operating system) is reported
// in the Status, never silently assumed.
package sandbox
