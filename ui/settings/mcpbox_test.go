package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

const plantedMCP = "---\nname: planted\ndescription: A server written into the folder by hand.\nmcp:\n  command: python3\n  args: [/tmp/m.py]\n---\n"

// A server written into the capability folder by hand is off, says why,
// and its page shows its sandbox and the network switch, which the person
// can turn off; the Capabilities page's switch shows what it runs before
// enabling it.
func TestMCPPagePlantedSandboxAndNetwork(t *testing.T) {
	h := newHarness(t, func(ws string) {
		dir := filepath.Join(ws, "brain", "cerebellum", "planted")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(plantedMCP), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	h.s.Show(hint.PageCapability, "planted")
	p := h.s.mcp
	if p.Selected() != "planted" || !strings.Contains(p.status.Text, "Off until you enable it") || !strings.Contains(p.status.Text, "never approved") {
		t.Fatalf("selected %q, status %q", p.Selected(), p.status.Text)
	}
	if !strings.Contains(h.screenText(), "Sandbox: ") || !p.network.Visible() || !p.network.Checked {
		t.Fatalf("sandbox line or network switch missing (network shown %v, on %v):\n%s", p.network.Visible(), p.network.Checked, h.screenText())
	}
	tapCheck(p.network)
	if c, _ := h.core.Capabilities().Get("planted"); !c.NoNetwork {
		t.Fatal("the network switch did not keep the server off the network")
	}
	if !strings.Contains(p.outcome.Text(), "network is off for planted") {
		t.Errorf("outcome %q", p.outcome.Text())
	}

	h.s.Show(hint.PageCapabilities, "planted")
	launchShown := func() bool {
		for _, o := range h.onScreen() {
			if b, ok := o.(*codeBlock); ok && b.Text() == "python3 /tmp/m.py" {
				return true
			}
		}
		return false
	}
	tapCheck(h.row("planted").enabled)
	if !launchShown() {
		t.Fatal("switching it on does not show what it runs")
	}
	h.tap("Cancel")
	if h.state("planted") != string(cerebellum.StateDisabled) {
		t.Fatal("enabled without approval")
	}
	tapCheck(h.row("planted").enabled)
	h.tap("Approve and enable")
	if h.state("planted") != string(cerebellum.StateOK) {
		t.Fatalf("after approval: %s", h.state("planted"))
	}
}
