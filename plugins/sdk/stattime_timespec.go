//go:build darwin || freebsd || netbsd || dragonfly

package sdk

import "syscall"

// ctimeOf and mtimeOf are a file's change and modification times: the
// BSDs name them Ctimespec and Mtimespec.
func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
func mtimeOf(st *syscall.Stat_t) int64 { return st.Mtimespec.Nano() }
