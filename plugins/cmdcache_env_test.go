//go:build !windows

package plugins

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// A command a plugin starts through the command sandbox gets the
// commands' own cache home (made, mode 0700) in its environment, so that
// build tools never write the person's caches, read-only to it.
func TestSandboxFnPointsBuildToolsAtTheCommandsCache(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	s := &envSpec{launcher: []string{"/bin/true"}}
	cmd := exec.Command("/bin/sh", "-c", "true")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
	if err := s.sandboxFn()(cmd, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.temps.release(cmd) })
	dir := filepath.Join(home, ".local", "state", "wrasse", "cmd-cache")
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the commands' cache home %s: %v %v; want a 0700 folder", dir, info, err)
	}
	for _, want := range []string{"GOCACHE=" + filepath.Join(dir, "go-build"), "XDG_CACHE_HOME=" + filepath.Join(dir, "xdg"),
		"GOMODCACHE=" + filepath.Join(dir, "go-mod"), "MAVEN_OPTS=-Dmaven.repo.local=" + filepath.Join(dir, "m2"), "PATH=/usr/bin:/bin"} {
		if !slices.Contains(cmd.Env, want) {
			t.Errorf("the command's environment lacks %s: %q", want, cmd.Env)
		}
	}
}
