package settings

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// roomAtDefaultSize is the settings' width in a window of the size it
// opens at (1100 wide, the sidebar taking 26%).
const roomAtDefaultSize = 1100 * (1 - 0.26)

// Every page fits the room the window opens with: the settings scroll
// inside a smaller window rather than growing it, so a page wider than
// this would open cut off at the right, behind a scroll bar.
func TestEveryPageFitsTheDefaultWindow(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "demo", MCPServer: skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@example/demo"}}}, false); err != nil {
		t.Fatal(err)
	}
	h.win.Resize(fyne.NewSize(roomAtDefaultSize, 720))
	inner := h.s.obj.content.(*container.Scroll).Content
	pages := []struct {
		page   hint.Page
		target string
	}{
		{hint.PageModel, ""}, {PageInstructions, ""}, {hint.PageCapabilities, "calc"}, {hint.PageFolders, ""},
		{hint.PageCapability, shellName}, {hint.PageCapability, webName}, {hint.PageCapability, "demo"},
		{hint.PageCapability, assistant.TasksCapability},
	}
	for _, p := range pages {
		h.s.Show(p.page, p.target)
		if w := inner.MinSize().Width; w > roomAtDefaultSize {
			t.Errorf("%s %s needs %.0f wide, more than the %.0f the window opens with", p.page, p.target, w, float32(roomAtDefaultSize))
		}
	}
	// With the mcp capability off, the server's detail has one more button.
	if err := h.core.Disable(mcpName); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapability, "demo")
	if w := inner.MinSize().Width; w > roomAtDefaultSize {
		t.Errorf("the MCP page with mcp off needs %.0f wide, more than %.0f", w, float32(roomAtDefaultSize))
	}
}
