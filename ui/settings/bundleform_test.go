package settings

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/mcpbundle/mcpbundletest"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// entries are the showing text entries, top to bottom as added.
func (h *harness) entries() []*escEntry {
	var out []*escEntry
	for _, o := range h.onScreen() {
		if e, ok := o.(*escEntry); ok {
			out = append(out, e)
		}
	}
	return out
}

// Dropping a .mcpb on the Capabilities page asks its user_config in a
// form (defaults filled in, the sensitive field masked, required ones
// marked); Install with a required field empty keeps the form open and
// says why; answered, the server installs switched off, its key stored as
// a secret, and the outcome shows what it runs.
func TestDropBundleAsksItsSettings(t *testing.T) {
	h := newHarness(t, nil)
	bundle := mcpbundletest.Pack(t, mcpbundletest.Echo(), "echo.mcpb", nil)
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(bundle)})

	text := h.screenText()
	for _, want := range []string{"Echo Bundle 1.2.0 by Wrasse tests", "installs switched off"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the form does not say %q:\n%s", want, text)
		}
	}
	var key, limit, style *escEntry
	for _, e := range h.entries() {
		switch {
		case e.Password:
			key = e
		case e.Text == "10":
			limit = e
		case e.Text == "warm":
			style = e
		}
	}
	if key == nil || limit == nil || style == nil {
		t.Fatalf("fields: key %v limit %v style %v; want a masked key and the defaults 10 and warm", key, limit, style)
	}
	h.tap("Install")
	if !strings.Contains(h.screenText(), "API key (api_key): required") {
		t.Fatalf("Install without the key does not say it is required:\n%s", h.screenText())
	}
	if got := h.state("echo-bundle"); got != "missing" {
		t.Fatalf("installed (%s) although the form was refused", got)
	}

	test.Type(key, "sk-window-secret")
	limit.SetText("")
	test.Type(limit, "30")
	h.tap("Install")

	c, err := h.core.Capabilities().Get("echo-bundle")
	if err != nil {
		t.Fatalf("not installed: %v\n%s", err, h.s.caps.result.Text())
	}
	if c.State != cerebellum.StateDisabled {
		t.Errorf("state %s; want it switched off", c.State)
	}
	res := h.s.caps.result
	for _, want := range []string{"✓ Installed echo-bundle from", "Installed switched off", "It runs, in the MCP sandbox: ", "--limit 30", "${secret:mcp.echo-bundle.api_key}"} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("outcome lacks %q:\n%s", want, res.Text())
		}
	}
	if strings.Contains(res.Text(), "sk-window-secret") {
		t.Error("the outcome shows the secret")
	}
	if !h.core.HasSecret("mcp.echo-bundle.api_key") {
		t.Error("the key is not stored as a secret")
	}
}

// A bundle whose manifest is refused writes nothing and says every
// problem.
func TestDropBrokenBundleIsRejected(t *testing.T) {
	h := newHarness(t, nil)
	bundle := mcpbundletest.Pack(t, mcpbundletest.Echo(), "broken.dxt", func(b []byte) []byte {
		return []byte(strings.Replace(strings.Replace(string(b), `"type": "node"`, `"type": "ruby"`, 1), `"type": "number"`, `"type": "integer"`, 1))
	})
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(bundle)})
	res := h.s.caps.result
	if !strings.HasPrefix(res.Title(), "Import rejected") {
		t.Fatalf("title %q", res.Title())
	}
	for _, want := range []string{`server.type: "ruby" is not node, python or binary`, `user_config.limit.type: "integer" is not`} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("outcome lacks %q:\n%s", want, res.Text())
		}
	}
	if got := h.state("echo-bundle"); got != "missing" {
		t.Errorf("echo-bundle is %s; want nothing installed", got)
	}
}
