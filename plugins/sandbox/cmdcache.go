package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
)

// CommandCache is the cache home of the shell commands run for home's
// owner: their own, so that what they download and build never lands in
// the caches the person's tools run code from outside any sandbox (Go's
// build cache, Poetry's virtualenvs, Corepack, pre-commit, Maven's and
// Gradle's plugins), which are read-only to them. Plugins and MCP
// servers never reach it. "" without a home folder.
func CommandCache(home string) string {
	if home == "" || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "wrasse", "cmd-cache")
}

// CommandCacheEnv are the variables that point build tools and package
// managers at dir (CommandCache) instead of the person's caches. Cargo's
// home is left alone (it also holds its settings and installed programs):
// ~/.cargo/registry stays read-only to commands.
func CommandCacheEnv(dir string) []string {
	if dir == "" {
		return nil
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	return []string{
		"XDG_CACHE_HOME=" + in("xdg"),
		"GOCACHE=" + in("go-build"),
		"GOMODCACHE=" + in("go-mod"),
		"PIP_CACHE_DIR=" + in("pip"),
		"npm_config_cache=" + in("npm"),
		"POETRY_CACHE_DIR=" + in("pypoetry"),
		"COREPACK_HOME=" + in("corepack"),
		"PRE_COMMIT_HOME=" + in("pre-commit"),
		"GRADLE_USER_HOME=" + in("gradle"),
		"MAVEN_OPTS=-Dmaven.repo.local=" + in("m2"),
	}
}

// CommandTempPrefix starts the name of a command's own temporary folder
// (CommandTemp) in the system's temporary folder.
const CommandTempPrefix = "wrasse-cmd-"

// CommandTemp makes a shell command's own temporary folder (mode 0700, in
// os.TempDir()), its TMPDIR and the only temporary folder its sandbox
// (ForCommand's Temp) may read and write: the shared one is out of its
// reach, so commands neither read each other's temporary files nor plant
// files another command (or a program of the person's) picks up there.
// The caller removes it when the command ends.
func CommandTemp() (string, error) {
	dir, err := os.MkdirTemp("", CommandTempPrefix)
	if err != nil {
		return "", fmt.Errorf("a command's temporary folder: %w", err)
	}
	return dir, nil
}
