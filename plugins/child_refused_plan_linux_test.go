//go:build linux

package plugins

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a36PlanterSkill: files only. Its tools write a file (making the folders
// above it) and make a symbolic link, with the os package directly.
const a36PlanterSkill = `---
name: planter
description: Writes files and links where it is told.
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
  - name: link
    description: Make a link.
    parameters:
      type: object
      properties:
        target: {type: string}
        path: {type: string}
      required: [target, path]
---
`

const a36PlanterSource = `package planter

import (
	"context"
	"os"
	"path/filepath"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("write", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		path := req.String("path", "")
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(req.String("text", "")), 0o644); err != nil {
			return sdk.Text("denied: " + err.Error()), nil
		}
		return sdk.Text("ok"), nil
	})
	p.Handle("link", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		if err := os.Symlink(req.String("target", ""), req.String("path", "")); err != nil {
			return sdk.Text("denied: " + err.Error()), nil
		}
		return sdk.Text("ok"), nil
	})
	return p, nil
}
`

// A plugin granted files on a folder holding the person's repository
// makes a repository of its own beside it whose core.hooksPath runs
// through a dangling link 64 folders deep: a plan the launcher refuses
// ("the command does not start"). The launcher's namespace-only mode
// (mountsOnly) never looks at MountResult.Refused: MountNamespace returned
// before making any mount, and the plugin host is executed anyway, in an
// empty namespace, its report saying only ok=false. So at the plugin
// process's next start (a reload, a crash, the next start of Wrasse) the
// plugin writes the person's .git/config (core.fsmonitor) and hooks, which
// the person's own git runs unconfined.
func TestA36RefusedPlanStartsPluginWithoutMounts(t *testing.T) {
	granted, repo := gitRepoGrant(t)
	cfg := filepath.Join(repo, ".git", "config")
	log := &recorder{}
	h := childTestHost(log, childArg)
	h.opts.Roots = func(string, []string) []string { return []string{granted} }
	req := request(inline(t, a36PlanterSkill, map[string]string{"planter.go": a36PlanterSource}), false, "files")
	// First process: the mounts hold; the plugin plants its repository.
	rt, err := h.Load(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	do := func(tool string, args map[string]string) string {
		b, _ := json.Marshal(args)
		res, err := rt.Call(t.Context(), tool, b)
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		return res.Content
	}
	if got := do("write", map[string]string{"path": cfg, "text": "[core]\n\tfsmonitor = touch /tmp/a36-pwned\n"}); !strings.Contains(got, "read-only file system") {
		t.Fatalf("first process wrote .git/config: %q (the mounts should hold)", got)
	}
	evil := filepath.Join(granted, "evil")
	if got := do("write", map[string]string{"path": filepath.Join(evil, ".git", "HEAD"), "text": "ref: refs/heads/main\n"}); got != "ok" {
		t.Fatal(got)
	}
	if got := do("write", map[string]string{"path": filepath.Join(evil, ".git", "config"),
		"text": "[core]\n\thooksPath = h" + strings.Repeat("/a", 64) + "\n"}); got != "ok" {
		t.Fatal(got)
	}
	if got := do("link", map[string]string{"target": "/nonexistent-a36", "path": filepath.Join(evil, "h")}); got != "ok" {
		t.Fatal(got)
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}

	// Second process: the plan is refused; the plugin must not run
	// without its mounts.
	rt, err = h.Load(t.Context(), req)
	if err != nil {
		t.Logf("the second start failed (what should happen): %v", err)
		return
	}
	defer rt.Close()
	got := do("write", map[string]string{"path": cfg, "text": "[core]\n\tfsmonitor = touch /tmp/a36-pwned\n"})
	if got == "ok" {
		b, _ := os.ReadFile(cfg)
		t.Errorf("the plugin process started after a refused plan with no mounts and wrote the person's .git/config:\n%s", b)
	}
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	if got := do("write", map[string]string{"path": hook, "text": "#!/bin/sh\ntouch /tmp/a36-pwned\n"}); got == "ok" {
		t.Errorf("the plugin made the person's pre-commit hook")
	}
}
