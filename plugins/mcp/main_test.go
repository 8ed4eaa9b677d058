package mcp

import (
	"os"
	"os/exec"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// sandboxArg makes this test binary the sandbox launcher, as the app's
// hidden `wrasse __sandbox-exec` subcommand is.
const sandboxArg = "__sandbox-exec"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandboxArg {
		os.Exit(sandbox.Main(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == rootsServerArg {
		os.Exit(rootsServer())
	}
	os.Exit(m.Run())
}

// testLauncher is this test binary as the sandbox launcher.
func testLauncher(t testing.TB) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, sandboxArg}
}

// needNode returns node's path. Without node the test is skipped, except
// under CI (any value but "" or "false"; .ci/run sets CI=1), where it
// fails.
func needNode(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if ci := os.Getenv("CI"); ci != "" && ci != "false" {
			t.Fatalf("node is not installed: %v", err)
		}
		t.Skipf("node is not installed: %v", err)
	}
	return node
}
