package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// homeCaches make all of ~/.cache (and ~/.cargo/registry) writable to
// every shell command, with no home folder granted, as "true build
// caches". Several of what lives there is code the person's own tools run
// later, outside any sandbox, without checking it again: Go's build cache
// (go build links the archive an action's index entry names, trusting
// it), Poetry's virtualenvs (`poetry run` runs their bin/python),
// Corepack's package managers (`yarn`, `pnpm` run from there), the hook
// environments of pre-commit (run on every `git commit`), and Cargo's
// extracted crate sources (a build.rs there is compiled and run by the
// next `cargo build`; Cargo checks the .crate file when it extracts it,
// never the extracted folder), and the jars of Maven's and Gradle's
// plugins (neither checks a cached jar again unless the project turned
// verification on). This is the class a6 closed for
// ~/go/pkg/mod, left open one folder over.
func TestCommandCannotPoisonCachesThePersonsToolsRun(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	for _, d := range []string{".cache/go-build/3f", ".cache/pypoetry/virtualenvs/app-Xy12-py3.12/bin",
		".cache/node/corepack/v1/pnpm/9.1.0/bin", ".cache/pre-commit/repo4k2j", ".cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200",
		".m2/repository/org/apache/maven/plugins/maven-compiler-plugin/3.13.0", ".gradle/caches/modules-2/files-2.1/com.diffplug.spotless/spotless-plugin-gradle/6.25.0/0a1b"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	for _, tc := range []struct{ name, path string }{
		{"go build links a planted archive", ".cache/go-build/3f/3f9a0c1d2e3f40516273849a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f-d"},
		{"poetry run runs a planted interpreter", ".cache/pypoetry/virtualenvs/app-Xy12-py3.12/bin/python"},
		{"pnpm runs a planted package manager", ".cache/node/corepack/v1/pnpm/9.1.0/bin/pnpm.cjs"},
		{"git commit runs a planted hook", ".cache/pre-commit/repo4k2j/hook.py"},
		{"cargo build runs a planted build script", ".cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200/build.rs"},
		{"mvn runs a planted Maven plugin", ".m2/repository/org/apache/maven/plugins/maven-compiler-plugin/3.13.0/maven-compiler-plugin-3.13.0.jar"},
		{"gradle runs a planted Gradle plugin", ".gradle/caches/modules-2/files-2.1/com.diffplug.spotless/spotless-plugin-gradle/6.25.0/0a1b/spotless-plugin-gradle-6.25.0.jar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(home, tc.path)
			line := "echo 'evil()' > " + target
			if out, ok := run(t, p, line); ok {
				t.Errorf("a sandboxed shell command (no home folder granted) wrote %s: succeeded (%s); want code the person's own tools run unchecked outside the sandbox read-only to commands, as ~/go/pkg/mod is", tc.path, out)
			}
		})
	}
}
