package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// f9 made the person's build caches read-only to shell commands (Go's
// build and module caches, Poetry's virtualenvs, pre-commit's hooks,
// Maven's and Gradle's jars, Cargo's settings and Gradle's init scripts:
// code the person's tools run later without checking it again), but
// only to commands: an MCP server or a plugin granted the home folder
// still writes every one of them, and the person's next `go build`,
// `git commit` (pre-commit), `mvn` or `gradle` runs what it planted,
// outside any sandbox.
func TestGrantedHomeCachesReadOnlyToMCPAndPlugins(t *testing.T) {
	requireLandlock(t)
	files := []string{
		".cache/go-build/00/0011-a",
		"go/pkg/mod/golang.org/x/text@v0.3.0/unicode.go",
		".cache/pre-commit/repoabc/hook.py",
		".cache/pypoetry/virtualenvs/app-x-py3.11/bin/python",
		".m2/repository/org/apache/maven/plugins/x.jar",
		".gradle/caches/jars-9/x.jar",
		".gradle/init.d/repos.gradle",
		".cargo/config.toml",
	}
	home := t.TempDir()
	for _, rel := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("the person's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		for _, rel := range files {
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, ok := run(t, p, "echo planted >> "+filepath.Join(home, rel)); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote ~/%s: succeeded (%s); want the person's caches read-only to every sandbox, as they are to shell commands", who, rel, out)
				}
			})
		}
	}
}
