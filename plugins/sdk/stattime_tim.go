//go:build unix && !(darwin || freebsd || netbsd || dragonfly)

package sdk

import "syscall"

// ctimeOf and mtimeOf are a file's change and modification times.
func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
func mtimeOf(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
