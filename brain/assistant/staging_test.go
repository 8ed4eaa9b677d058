package assistant

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Wrasse stages what it installs in the workspace's .staging, never in
// the shared temporary folder, and an installed SKILL.md other than the
// approved one is removed again (ErrStagingChanged).
func TestStagedInstallIsTheApprovedOne(t *testing.T) {
	a, err := Open(Options{Workspace: t.TempDir(), Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dir, err := a.privateStaging("check-")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dir, a.Workspace().Staging()+string(filepath.Separator)) {
		t.Errorf("staging folder %s; want one in %s", dir, a.Workspace().Staging())
	}
	ctx := context.Background()
	if _, err := a.AddMCP(ctx, MCPServer{Name: "approved", MCPServer: skillmd.MCPServer{Command: "/bin/true", Args: []string{"innocent"}}}, false); err != nil {
		t.Fatal(err)
	}
	approved := skillOf(t, a, "approved")
	a.mu.Lock()
	if err := a.checkInstalled(ctx, "approved", []byte(approved)); err != nil {
		t.Errorf("the approved SKILL.md: %v", err)
	}
	err = a.checkInstalled(ctx, "approved", []byte(strings.ReplaceAll(approved, "innocent", "other")))
	a.mu.Unlock()
	if !errors.Is(err, ErrStagingChanged) {
		t.Fatalf("an installed SKILL.md other than the approved one: %v; want ErrStagingChanged", err)
	}
	if _, err := a.MCPServerOf("approved"); err == nil {
		t.Error("the capability that was not the approved one is still installed")
	}
}
