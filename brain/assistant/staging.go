package assistant

import (
	"fmt"
	"os"
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
