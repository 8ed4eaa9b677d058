//go:build !linux

package plugins

import "os"

// fastFile returns f: raw system calls are used on Linux only.
func fastFile(f *os.File) fileIO { return f }
