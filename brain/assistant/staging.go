package assistant

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// privateStaging makes a folder in the workspace's staging folder for
// what Wrasse checks and then installs (an added MCP server's SKILL.md, a
// capability being validated): read-only to every tool and sandbox, so
// nothing they run can change it between the check and the install. Not
// the shared temporary folder, which every shell command writes. The
// caller removes it.
func (a *App) privateStaging(prefix string) (string, error) {
	root := a.ws.Staging()
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("create the staging folder %s: %w", root, err)
	}
	dir, err := os.MkdirTemp(root, prefix)
	if err != nil {
		return "", fmt.Errorf("stage in %s: %w", root, err)
	}
	return dir, nil
}

// checkInstalled makes sure the capability installed as name has the
// SKILL.md the person approved (data), so that a change to the staged
// copy, by whatever means, never becomes an approved capability; one that
// differs is removed again. Call with a.mu held.
func (a *App) checkInstalled(ctx context.Context, name string, data []byte) error {
	c, err := a.reg.Get(name)
	if err != nil {
		return fmt.Errorf("check the installed %s: %w", name, err)
	}
	got, err := os.ReadFile(filepath.Join(c.Dir, "SKILL.md"))
	if err == nil && bytes.Equal(got, data) {
		return nil
	}
	if rerr := a.mgr.Remove(ctx, name); rerr != nil {
		return fmt.Errorf("%w: %s's installed SKILL.md is not the one approved, and removing it failed: %w", ErrStagingChanged, name, rerr)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: read its installed SKILL.md: %w; it was removed", ErrStagingChanged, name, err)
	}
	return fmt.Errorf("%w: %s's installed SKILL.md is not the one approved; it was removed", ErrStagingChanged, name)
}
