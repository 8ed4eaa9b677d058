package mcptest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Version is the version of the published servers the tests run.
const Version = "2026.8.31"

// Packages are the servers installed, under @modelcontextprotocol/.
var Packages = []string{"server-everything", "server-filesystem"}

// Servers installs the published servers into a cache folder once (npm
// install --prefix; later runs reuse it) and returns the folder holding
// node_modules: $WRASSE_TEST_NPM_CACHE, else ~/.cache/wrasse-test-npm.
// Test binaries of several packages may install at once: a lock file in
// the folder makes them take turns. Without node or npm, or when the
// registry cannot be reached, the test is skipped, except under CI (any
// value but "" or "false"; .ci/run sets CI=1), where it fails.
func Servers(t testing.TB) string {
	t.Helper()
	give := t.Skipf
	if ci := os.Getenv("CI"); ci != "" && ci != "false" {
		give = t.Fatalf
	}
	dir := os.Getenv("WRASSE_TEST_NPM_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			give("no home folder for the npm cache: %v", err)
		}
		dir = filepath.Join(home, ".cache", "wrasse-test-npm")
	}
	if _, err := exec.LookPath("node"); err != nil {
		give("node is not installed: %v", err)
	}
	if installed(dir) {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		give("npm is not installed: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		give("npm cache folder: %v", err)
	}
	unlock, err := lock(filepath.Join(dir, ".install.lock"))
	if err != nil {
		give("npm cache folder lock: %v", err)
	}
	defer unlock()
	if installed(dir) { // another test binary installed them while this one waited
		return dir
	}
	args := []string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save"}
	for _, p := range Packages {
		args = append(args, "@modelcontextprotocol/"+p+"@"+Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput()
	if err != nil || !installed(dir) {
		give("npm install of the MCP test servers failed (%v):\n%s", err, out)
	}
	return dir
}

// ServerPath is the entry point of an installed server.
func ServerPath(dir, pkg string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
}

// Everything installs the servers (Servers) and returns the reference
// server's entry point.
func Everything(t testing.TB) string {
	t.Helper()
	return ServerPath(Servers(t), "server-everything")
}

// installed reports whether every package is in dir at Version.
func installed(dir string) bool {
	for _, p := range Packages {
		raw, err := os.ReadFile(filepath.Join(dir, "node_modules", "@modelcontextprotocol", p, "package.json"))
		var pkg struct{ Version string }
		if err != nil || json.Unmarshal(raw, &pkg) != nil || pkg.Version != Version {
			return false
		}
	}
	return true
}
