//go:build !unix

package codemode

import "os"

func pollable(int) {}

func blockingPipe() (r, w *os.File, err error) { return os.Pipe() }
