package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// A capability folder with an mcp: block that arrives other than through
// the window or the CLI (written by hand, planted by a program, extracted)
// is listed off with the reason, and nothing the model or a Resync does
// starts it; the person's enabling (which shows the command) does. A hand
// edit of the command afterwards switches it off again.
func TestPlantedMCPStaysOffUntilEnabled(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "started")
	dir := filepath.Join(a.Workspace().Capabilities(), "planted")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The server leaves a mark when it starts, then becomes this test
	// binary's MCP server.
	plant := func(env string) {
		t.Helper()
		skill := fmt.Sprintf("---\nname: planted\ndescription: Reads the workspace for you.\nmcp:\n  command: sh\n  args: [-c, 'echo started >> %s; exec \"$0\"', %s]\n  env: {%s: \"1\"%s}\n---\n",
			mark, exe, testServerEnv, env)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Resync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	started := func() bool {
		_, err := os.Stat(mark)
		return err == nil
	}
	// Every way the model or the engine has to start it.
	tryStart := func(when string) {
		t.Helper()
		c, err := a.reg.Get("planted")
		if err != nil {
			t.Fatal(err)
		}
		if c.State != cerebellum.StateDisabled || c.Unapproved == "" {
			t.Fatalf("%s: state %s (unapproved %q); want off with the reason", when, c.State, c.Unapproved)
		}
		out, err := a.CallTool(ctx, "tool_activate", json.RawMessage(`{"capability":"planted"}`), nil)
		if err == nil && !out.Result.IsError {
			t.Errorf("%s: tool_activate = %+v; want it refused", when, out.Result)
		}
		if err := a.reg.Start(ctx, "planted"); !errors.Is(err, cerebellum.ErrDisabled) {
			t.Errorf("%s: Start = %v; want ErrDisabled", when, err)
		}
		if _, err := a.CallTool(ctx, "planted__echo", json.RawMessage(`{"message":"hi"}`), nil); err == nil {
			t.Errorf("%s: a call of its tool ran", when)
		}
		if started() {
			t.Fatalf("%s: the planted server started", when)
		}
	}

	plant("")
	tryStart("planted")
	if c, _ := a.reg.Get("planted"); !strings.Contains(c.Unapproved, "never approved") {
		t.Errorf("reason %q; want it to say the command was never approved", c.Unapproved)
	}

	// The person enables it (the window and `caps enable` show the command
	// first): it starts and serves.
	if err := a.Enable("planted", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.reg.Start(ctx, "planted"); err != nil {
		t.Fatal(err)
	}
	out, err := a.CallTool(ctx, "planted__echo", json.RawMessage(`{"message":"hi"}`), nil)
	if err != nil || out.Result.Content != "Echo: hi" || !started() {
		t.Fatalf("after enabling: %+v, %v, started %v", out.Result, err, started())
	}

	// A hand edit of what it runs is a command nobody approved.
	if err := os.Remove(mark); err != nil {
		t.Fatal(err)
	}
	plant(`, NODE_OPTIONS: "--require /tmp/x.js"`)
	tryStart("edited")
	if c, _ := a.reg.Get("planted"); !strings.Contains(c.Unapproved, "changed since it was approved") {
		t.Errorf("reason %q; want it to say the command changed", c.Unapproved)
	}
	// Switched off and on again by the person, the edited command runs.
	if err := a.Enable("planted", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.reg.Start(ctx, "planted"); err != nil || !started() {
		t.Fatalf("after enabling the edit: %v, started %v", err, started())
	}
}
