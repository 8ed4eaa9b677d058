//go:build !unix

package codemode

func pollable(int) {}
