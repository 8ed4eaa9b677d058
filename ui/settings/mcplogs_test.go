package settings

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// TestMCPPageLogView runs a real server process (this test binary) whose
// tool logs at debug and info: the page shows what it logged at the
// level chosen there, never the tool's result.
func TestMCPPageLogView(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "logger", MCPServer: skillmd.MCPServer{Command: exe(t), Env: map[string]string{serverEnv: "ok"}}}, false); err != nil {
		t.Fatal(err)
	}
	p := h.s.mcp
	p.refresh()
	p.Select("logger")
	if got := p.logs.Text(); got != noLogs {
		t.Errorf("before any use the log says %q", got)
	}
	if got := p.logs.level.Selected; got != "info" {
		t.Errorf("level shown %q, want info", got)
	}
	test.Tap(p.test) // lists its tools (a connection of its own, whose log is not kept)
	if got := p.logs.Text(); got != noLogs {
		t.Errorf("after Test the log says %q", got)
	}
	echo := func(msg string) {
		t.Helper()
		out, err := h.core.CallTool(context.Background(), "logger__echo", json.RawMessage(`{"message":"`+msg+`"}`), nil)
		if err != nil || !out.Ran || out.Result.IsError || strings.Contains(out.Result.Content, "echoing") {
			t.Fatalf("call = %+v, %v", out, err)
		}
	}
	echo("first")
	var shown string
	waitUntil(t, "the info message", func() bool {
		test.Tap(p.logs.refresh)
		shown = p.logs.Text()
		return strings.Contains(shown, "info [echo] echoing first")
	})
	if strings.Contains(shown, "echo details") {
		t.Errorf("a debug message shows at level info:\n%s", shown)
	}
	p.logs.level.SetSelected("debug") // the person's choice
	if got := p.outcome.Text(); got != "logger logs at debug and above from now on." {
		t.Errorf("after choosing debug the page says %q", got)
	}
	echo("second")
	waitUntil(t, "the debug message", func() bool {
		test.Tap(p.logs.refresh)
		return strings.Contains(p.logs.Text(), "debug echo details: second")
	})
}

// waitUntil polls cond until it holds or the test's patience ends; it
// waits for another process's effect, it is not a timing assertion.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
