package settings

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// mcpRow is the state label of server name's row in the MCP list.
func (h *harness) mcpRow(name string) *widget.Label {
	h.t.Helper()
	for _, o := range h.onScreen() {
		row, ok := o.(*fyne.Container)
		if !ok || len(row.Objects) != 2 {
			continue
		}
		n, ok1 := row.Objects[0].(*widget.Label)
		st, ok2 := row.Objects[1].(*widget.Label)
		if ok1 && ok2 && n.Text == name {
			return st
		}
	}
	h.t.Fatalf("no row for %s in the MCP list", name)
	return nil
}

// The list and the detail say the same thing, and what is true: a server
// whose Test failed is not "ok", a working one tested is; with the mcp
// capability off, no server claims it will start, and the page offers to
// turn mcp on.
func TestMCPServerStatesAgree(t *testing.T) {
	green := widget.SuccessImportance
	tests := []struct {
		name      string
		env       string // serverEnv for the server: "ok" serves, "fail" exits
		test      bool   // tap Test
		mcpOff    bool   // switch the mcp capability off
		word      string // the row's word
		status    string // in the detail's status line
		wantGreen bool
	}{
		{name: "untested", env: "ok", word: "enabled", status: "not tested yet"},
		{name: "test failed", env: "fail", test: true, word: "test failed", status: "its last Test failed: "},
		{name: "test connected", env: "ok", test: true, word: "ok", status: "its last Test connected", wantGreen: true},
		{name: "mcp off", env: "ok", mcpOff: true, word: "won't start", status: "the mcp capability is switched off"},
		{name: "mcp off after a good test", env: "ok", test: true, mcpOff: true, word: "won't start", status: "won't start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			srv := assistant.MCPServer{Name: "demo", MCPServer: skillmd.MCPServer{Command: exe(t), Env: map[string]string{serverEnv: tt.env}}}
			if _, err := h.core.AddMCP(context.Background(), srv, false); err != nil {
				t.Fatal(err)
			}
			h.s.Show(hint.PageCapability, "demo")
			p := h.s.mcp
			if tt.test {
				h.tap("Test")
			}
			if tt.mcpOff {
				if err := h.core.Disable(mcpName); err != nil {
					t.Fatal(err)
				}
			}
			row := h.mcpRow("demo")
			if row.Text != tt.word {
				t.Errorf("the row says %q, want %q", row.Text, tt.word)
			}
			if !strings.Contains(p.status.Text, tt.status) {
				t.Errorf("the detail says %q, want it to say %q", p.status.Text, tt.status)
			}
			if row.Importance != p.status.Importance {
				t.Errorf("the row's colour (%v) differs from the detail's (%v)", row.Importance, p.status.Importance)
			}
			if got := p.status.Importance == green; got != tt.wantGreen {
				t.Errorf("the detail is green: %v, want %v (%q)", got, tt.wantGreen, p.status.Text)
			}
			if !tt.mcpOff {
				return
			}
			if strings.Contains(h.screenText(), "It starts when the assistant first uses it") {
				t.Errorf("with mcp off, the page still says the server starts:\n%s", h.screenText())
			}
			h.tap("Turn mcp on")
			if h.state(mcpName) != "ok" || strings.Contains(p.status.Text, "won't start") || h.mcpRow("demo").Text == "won't start" {
				t.Errorf("after Turn mcp on: mcp %s, row %q, detail %q", h.state(mcpName), h.mcpRow("demo").Text, p.status.Text)
			}
		})
	}
}
