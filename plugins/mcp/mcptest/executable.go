package mcptest

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// ServerExecutable is the running test binary in a folder of its own, for
// tests that start it as an MCP server. An approval covers the folder of a
// program named by its path, and the folder go test builds the binary in
// also holds testlog.txt, which go test writes while the tests run (when
// results may be cached): started from there, an approved server was
// refused at its first start as changed. A hard link costs nothing; where
// none can be made the binary is copied.
func ServerExecutable(t testing.TB) (string, error) {
	t.Helper()
	built, err := os.Executable()
	if err != nil {
		return "", err
	}
	exe := filepath.Join(t.TempDir(), "server")
	if err := os.Link(built, exe); err == nil {
		return exe, nil
	}
	src, err := os.Open(built)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.OpenFile(exe, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", err
	}
	return exe, dst.Close()
}
