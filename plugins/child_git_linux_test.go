package plugins

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// gitWriterSkill declares files only: a hostile plugin that writes where
// the person's own git later runs what it finds (core.fsmonitor in
// .git/config, a hook), with the os package directly.
const gitWriterSkill = `---
name: gitwriter
description: Writes files where it is told.
permissions: [files]
tools:
  - name: write
    description: Write a file.
    parameters:
      type: object
      properties:
        path: {type: string}
        text: {type: string}
      required: [path, text]
---
`

const gitWriterSource = `package gitwriter

import (
	"context"
	"os"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("write", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		err := os.WriteFile(req.String("path", ""), []byte(req.String("text", "")), 0o755)
		if err != nil {
			return sdk.Text("denied: " + err.Error()), nil
		}
		return sdk.Text("ok"), nil
	})
	return p, nil
}
`

// gitRepoGrant makes a folder holding a repository (git init) and
// returns the folder and the repository.
func gitRepoGrant(t testing.TB) (granted, repo string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	granted = filepath.Join(t.TempDir(), "granted")
	repo = filepath.Join(granted, "project")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return granted, repo
}

// A plugin's own process runs in a mount namespace as the commands do: a
// plugin granted files on a folder holding a repository cannot write the
// repository's .git/config (core.fsmonitor) or a hook, which the person's
// own git would run unconfined; its work tree stays writable.
func TestChildGitSettingsReadOnly(t *testing.T) {
	granted, repo := gitRepoGrant(t)
	cfg := filepath.Join(repo, ".git", "config")
	before, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	log := &recorder{}
	h := childTestHost(log, childArg)
	h.opts.Roots = func(string, []string) []string { return []string{granted} }
	rt, err := h.Load(t.Context(), request(inline(t, gitWriterSkill, map[string]string{"gitwriter.go": gitWriterSource}), false, "files"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	write := func(path, text string) string {
		args, _ := json.Marshal(map[string]string{"path": path, "text": text})
		res, err := rt.Call(t.Context(), "write", args)
		if err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
		return res.Content
	}
	for _, p := range []string{cfg, filepath.Join(repo, ".git", "hooks", "pre-commit")} {
		got := write(p, "[core]\n\tfsmonitor = touch /tmp/pwned\n")
		if !strings.Contains(got, "read-only file system") {
			t.Errorf("writing %s: %q; want it refused as a read-only file system", p, got)
		}
	}
	if after, err := os.ReadFile(cfg); err != nil || string(after) != string(before) {
		t.Errorf(".git/config changed: %q, %v", after, err)
	}
	if _, err := os.Lstat(filepath.Join(repo, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the plugin made a pre-commit hook")
	}
	if got := write(filepath.Join(repo, "notes.txt"), "hello"); got != "ok" {
		t.Errorf("writing in the work tree: %q; want ok", got)
	}
	if b, err := os.ReadFile(filepath.Join(repo, "notes.txt")); err != nil || string(b) != "hello" {
		t.Errorf("notes.txt: %q, %v; want hello", b, err)
	}
}

// BenchmarkChildStartGrantedRepo is BenchmarkChildStart for a plugin
// granted files on a folder holding a repository: what the mount
// namespace and its plan add to a plugin process's start.
func BenchmarkChildStartGrantedRepo(b *testing.B) {
	granted, _ := gitRepoGrant(b)
	h := NewHost(Options{Logger: discard(), Child: childArgv(childArg),
		Roots: func(string, []string) []string { return []string{granted} }})
	req := request(inline(b, gitWriterSkill, map[string]string{"gitwriter.go": gitWriterSource}), false, "files")
	b.ReportAllocs()
	for b.Loop() {
		rt, err := h.Load(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if err := rt.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// Where the system refuses the mount namespace (forced here), the plugin
// process starts and works as before, confined by Landlock alone: the
// repository's settings stay writable to it, the gap the host reports
// (logSandboxOnce, by the probe of sandbox.ExpectCommand).
func TestChildGitSettingsFallback(t *testing.T) {
	granted, repo := gitRepoGrant(t)
	log := &recorder{}
	h := childTestHost(log, childArg)
	h.noMountNS = true
	h.opts.Roots = func(string, []string) []string { return []string{granted} }
	rt, err := h.Load(t.Context(), request(inline(t, gitWriterSkill, map[string]string{"gitwriter.go": gitWriterSource}), false, "files"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for _, p := range []string{filepath.Join(repo, ".git", "config"), filepath.Join(repo, "notes.txt")} {
		args, _ := json.Marshal(map[string]string{"path": p, "text": "x"})
		res, err := rt.Call(t.Context(), "write", args)
		if err != nil || res.Content != "ok" {
			t.Errorf("write %s: %q, %v; want ok (no mount namespace)", p, res.Content, err)
		}
	}
}

// The host foresees the gap of a refused namespace for a plugin process
// as for a command, with the same probe: a capability's page and the log
// say it.
func TestChildExpectsMountNamespace(t *testing.T) {
	h := childTestHost(&recorder{}, childArg)
	c := h.Confinement(false, []string{"files"})
	if !c.Status.MountNSAsked {
		t.Fatalf("Confinement().Status = %+v; want the mount namespace asked for", c.Status)
	}
	if want := sandbox.ExpectCommand(false); c.Status.MountNS != want.MountNS {
		t.Fatalf("Confinement().Status.MountNS = %v; the probe says %v", c.Status.MountNS, want.MountNS)
	}
}
