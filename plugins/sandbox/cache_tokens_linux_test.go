package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// ~/.cache is readable and writable to every command and readable to
// every MCP server (homeCaches, runtimeHome), with no home folder
// granted. a6 took registry credentials out of commands' reach
// (~/.cargo/credentials.toml, ~/.npmrc…), but tools keep tokens in their
// cache folders too: Hugging Face's access token is
// ~/.cache/huggingface/token by default (HF_HOME), and a running Gradle
// daemon's registry (~/.gradle/daemon/VERSION/registry.bin, also a
// command's to read and write) holds its loopback port and the token
// that lets a client hand it a build, which it runs outside any sandbox;
// commands have TCP by default.
func TestSandboxesCannotReadTokensKeptInCaches(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	for rel, data := range map[string]string{
		".cache/huggingface/token":        "hf_A8HUGGINGFACETOKEN",
		".gradle/daemon/8.7/registry.bin": "127.0.0.1:40123 token=A8GRADLEDAEMONTOKEN",
	} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command": sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":    sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
	}
	for who, p := range policies {
		for _, tc := range []struct{ name, rel, secret string }{
			{"Hugging Face token", ".cache/huggingface/token", "hf_A8HUGGINGFACETOKEN"},
			{"Gradle daemon token", ".gradle/daemon/8.7/registry.bin", "A8GRADLEDAEMONTOKEN"},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				out, _ := run(t, p, "cat "+filepath.Join(home, tc.rel))
				if strings.Contains(out, tc.secret) {
					t.Errorf("a sandboxed %s (no home folder granted) read ~/%s: %q; want tokens kept in caches out of reach, as registry credentials are", who, tc.rel, out)
				}
			})
		}
	}
}
