package settings

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// The Instructions page edits the identity the next turn starts with:
// the preview follows the editor, Save goes through the core (the fake
// model's next request opens with the new text), an empty text cannot be
// saved, and Reset to default (confirmed) brings the default back to the
// editor, the file and the next turn.
func TestInstructionsPageEditSaveReset(t *testing.T) {
	h := newHarness(t, nil)
	m := providertest.NewModel(t, providertest.OpenAI)
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", m.BaseURL(), "m", 32000
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	lastSystem := func() string {
		t.Helper()
		reqs := m.Requests()
		if len(reqs) == 0 {
			t.Fatal("the model got no request")
		}
		return reqs[len(reqs)-1].System
	}
	h.s.Show(PageInstructions, "")
	p := h.s.instr
	if h.s.Page() != PageInstructions {
		t.Fatalf("the settings show %q", h.s.Page())
	}
	if p.editor.Text != assistant.DefaultIdentity() || !p.save.Disabled() || !p.reset.Disabled() {
		t.Fatalf("on arrival: editor %q, save disabled %v, reset disabled %v", p.editor.Text, p.save.Disabled(), p.reset.Disabled())
	}
	if !strings.HasPrefix(p.preview.Text(), strings.TrimSpace(assistant.DefaultIdentity())) || !strings.Contains(p.preview.Text(), "<environment>") {
		t.Fatalf("the preview is not the system prompt:\n%s", p.preview.Text())
	}

	mine := "You are Pip, a terse assistant.\nAlways answer in British English."
	p.editor.SetText(mine)
	if !strings.Contains(p.size.Text, "unsaved changes") || p.save.Disabled() || p.undo.Disabled() {
		t.Fatalf("after an edit: %q, save disabled %v", p.size.Text, p.save.Disabled())
	}
	if want := h.core.SystemPromptPreview(mine); p.preview.Text() != want {
		t.Fatalf("the preview does not follow the editor:\n%s\nwant:\n%s", p.preview.Text(), want)
	}
	h.tap("Save")
	if id, _ := h.core.Identity(); strings.TrimSpace(id.Text) != mine {
		t.Fatalf("after Save the core has %q; outcome %q", id.Text, p.outcome.Text())
	}
	if !strings.Contains(p.outcome.Text(), "Saved") || !p.save.Disabled() || !strings.Contains(p.size.Text, "saved") {
		t.Errorf("after Save: outcome %q, state %q", p.outcome.Text(), p.size.Text)
	}
	m.Reply(providertest.Text("Right."))
	if _, err := h.core.Turn(t.Context(), 0, "hello", assistant.TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if sys := lastSystem(); !strings.HasPrefix(sys, mine) {
		t.Fatalf("the next turn's system prompt:\n%s", sys)
	}

	p.editor.SetText("  \n")
	if !p.save.Disabled() || p.size.Importance != widget.DangerImportance || !strings.Contains(p.size.Text, "empty") {
		t.Errorf("an empty text: save disabled %v, state %q", p.save.Disabled(), p.size.Text)
	}

	h.tap("Reset to default…")
	h.tap("Reset")
	id, _ := h.core.Identity()
	if !id.Default || p.editor.Text != assistant.DefaultIdentity() || !strings.Contains(p.outcome.Text(), "default") {
		t.Fatalf("after Reset: core default %v, editor %q, outcome %q", id.Default, p.editor.Text, p.outcome.Text())
	}
	m.Reply(providertest.Text("Hello."))
	if _, err := h.core.Turn(t.Context(), 0, "hello again", assistant.TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if sys := lastSystem(); !strings.HasPrefix(sys, strings.TrimSpace(assistant.DefaultIdentity())) || strings.Contains(sys, "Pip") {
		t.Errorf("after Reset the turn sent:\n%s", sys)
	}
}

// A change made elsewhere (the CLI) reaches an editor without unsaved
// changes, and leaves one with them alone.
func TestInstructionsPageFollowsOtherChanges(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(PageInstructions, "")
	p := h.s.instr
	if err := h.core.SetIdentity("From the CLI."); err != nil {
		t.Fatal(err)
	}
	if p.editor.Text != "From the CLI.\n" {
		t.Fatalf("the editor did not follow: %q", p.editor.Text)
	}
	p.editor.SetText("Mine, unsaved.")
	if err := h.core.SetIdentity("From the CLI again."); err != nil {
		t.Fatal(err)
	}
	if p.editor.Text != "Mine, unsaved." {
		t.Errorf("unsaved changes were overwritten: %q", p.editor.Text)
	}
}
