package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a6Home is a home folder with a developer's build tools set up: their
// crates.io and npm tokens, Cargo's settings, Go's module cache holding
// a dependency.
func a6Home(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for rel, data := range map[string]string{
		".cargo/credentials.toml": "[registry]\ntoken = \"cio_A6CARGOTOKEN\"\n",
		".cargo/config.toml":      "[net]\ngit-fetch-with-cli = true\n",
		".cargo/bin/cargo":        "#!/bin/sh\n",
		".npmrc":                  "//registry.npmjs.org/:_authToken=npm_A6NPMTOKEN\n",
		"go/pkg/mod/github.com/dep/lib@v1.0.0/lib.go":                        "package lib\n",
		"go/pkg/mod/golang.org/toolchain@v0.0.1-go1.25.0.linux-amd64/bin/go": "#!/bin/sh\n",
		".gradle/caches/.keep": "",
		".m2/repository/.keep": "",
	} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The command sandbox makes the home folder's build caches read-write
// (homeCaches: ~/.cargo, ~/go, ~/.gradle, ~/.m2…) and its tool settings
// readable (homeConfig: ~/.npmrc). Those folders hold more than caches:
// the tool's configuration, which the person's own terminal obeys outside
// any sandbox, and their registry tokens, which the gate itself counts as
// credential stores (gate.CredentialStores: .npmrc,
// .cargo/credentials.toml). A shell command (or a plugin's command) sets
// a rustc wrapper or a Gradle init script that the person's next build
// runs as them, edits a dependency's source in Go's module cache that
// their next `go build` compiles in unverified, and reads the tokens.
func TestCommandCannotReachBuildToolConfigAndTokens(t *testing.T) {
	requireLandlock(t)
	home := a6Home(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	cases := []struct {
		name, line, leak string
	}{
		{"cargo runs a wrapper as the person", "printf '[build]\\nrustc-wrapper = \"" + f.temp + "/w\"\\n' > " + filepath.Join(home, ".cargo", "config.toml"), ""},
		{"gradle runs an init script as the person", "mkdir -p " + filepath.Join(home, ".gradle", "init.d") + " && echo 'exec([\"sh\",\"-c\",\"id\"])' > " + filepath.Join(home, ".gradle", "init.d", "a6.gradle"), ""},
		{"go builds a changed dependency", "echo 'func init() { evil() }' >> " + filepath.Join(home, "go", "pkg", "mod", "github.com", "dep", "lib@v1.0.0", "lib.go"), ""},
		{"the person's go command runs a replaced toolchain", "printf '#!/bin/sh\\nid\\n' > " + filepath.Join(home, "go", "pkg", "mod", "golang.org", "toolchain@v0.0.1-go1.25.0.linux-amd64", "bin", "go"), ""},
		{"crates.io token read", "cat " + filepath.Join(home, ".cargo", "credentials.toml"), "cio_A6CARGOTOKEN"},
		{"npm token read", "cat " + filepath.Join(home, ".npmrc"), "npm_A6NPMTOKEN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := run(t, p, tc.line)
			if tc.leak == "" && ok {
				t.Errorf("a sandboxed shell command ran %q: succeeded (%s); want the build tools' configuration and caches the person's own builds obey out of a command's reach", tc.line, out)
			}
			if tc.leak != "" && strings.Contains(out, tc.leak) {
				t.Errorf("a sandboxed shell command read a credential store the gate always asks for: %q", out)
			}
		})
	}
}

// Every stdio MCP server may read ~/.npmrc (homeConfig, so that npx finds
// its registry), and the person's npm publish token lives there; the
// server has the network too. Any server the person adds, for any
// purpose, takes the token away; the gate counts ~/.npmrc as a
// credential store and asks before a command names it.
func TestMCPServerCannotReadTheNpmToken(t *testing.T) {
	requireLandlock(t)
	home := a6Home(t)
	f := newFixture(t)
	p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true})
	out, _ := run(t, p, "cat "+filepath.Join(home, ".npmrc"))
	if strings.Contains(out, "npm_A6NPMTOKEN") {
		t.Errorf("a sandboxed MCP server read the person's npm token from ~/.npmrc: %q; want the registry settings without the credentials (or ~/.npmrc out of reach)", out)
	}
}
