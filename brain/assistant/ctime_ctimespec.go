//go:build darwin || freebsd || netbsd

package assistant

import "syscall"

// ctimeOf is when the inode st describes last changed, in nanoseconds.
func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
