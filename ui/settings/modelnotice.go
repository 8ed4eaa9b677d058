package settings

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// modelNotice shows the core's advice about the saved model setup (a
// provider openai that reaches Ollama through its /v1 endpoint, which
// cuts prompts to 4,096 tokens) with a button that makes the switch it
// offers: provider ollama, the base URL and model kept as they are (the
// ollama provider reads a /v1 base URL as the server's).
type modelNotice struct {
	p     *modelPage
	label *widget.Label
	swap  *escButton
	box   *fyne.Container
}

func newModelNotice(p *modelPage) *modelNotice {
	n := &modelNotice{p: p}
	n.label = widget.NewLabel("")
	n.label.Wrapping = fyne.TextWrapWord
	n.label.Importance = widget.WarningImportance
	n.swap = newButtonWithIcon("Switch to provider ollama", theme.ConfirmIcon(), n.switchProvider)
	n.box = container.NewVBox(n.label, container.NewHBox(n.swap))
	n.box.Hide()
	return n
}

func (n *modelNotice) Object() fyne.CanvasObject { return n.box }

// refresh shows the notices for the saved configuration, or nothing.
func (n *modelNotice) refresh() {
	notices := n.p.env.Core.ModelNotices()
	if len(notices) == 0 {
		if n.box.Visible() {
			n.box.Hide()
			n.p.relayout()
		}
		return
	}
	msgs := make([]string, len(notices))
	for i, m := range notices {
		msgs[i] = m.Message
	}
	n.label.SetText(strings.Join(msgs, "\n"))
	// The one notice today offers provider ollama; a later one without
	// that offer shows its text alone.
	setShown(n.swap, offersOllama(notices))
	n.box.Show()
	n.p.relayout()
}

func offersOllama(notices []assistant.ModelNotice) bool {
	for _, m := range notices {
		if strings.Join(m.Hint.Command, " ") == "config set provider ollama" {
			return true
		}
	}
	return false
}

// switchProvider saves provider ollama, keeping the base URL and model:
// what the notice promised. Edits not saved are left to the person (the
// button waits until the form holds what is saved).
func (n *modelNotice) switchProvider() {
	p := n.p
	if p.Dirty() {
		p.outcome.Fail("Save or discard your changes first: the switch keeps the saved base URL and model.")
		return
	}
	n.swap.Disable()
	p.env.Go(func() {
		_, err := p.env.Core.UpdateConfig(func(c *workspace.Config) error {
			c.Provider = "ollama"
			return nil
		})
		p.env.Do(func() {
			n.swap.Enable()
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.load()
			p.outcome.OK("Switched to provider ollama: Ollama's own API, with the model's whole context. The next message uses " +
				p.env.Core.Model().Model + ".")
		})
	})
}
