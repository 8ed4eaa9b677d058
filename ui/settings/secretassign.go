package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// secretsBox shows the secrets a capability references or was given, each
// with the control to give or withdraw it: a capability gets only the
// secrets the person assigns to it (${secret:NAME} in an MCP server's env
// or headers, env.Secret in a plugin). A provider's API key is given only
// after a question, since it then leaves the host it is kept for.
type secretsBox struct {
	env     *bridge.Env
	outcome *problemLine
	name    string
	head    *widget.Label
	rows    *fyne.Container
	obj     *fyne.Container
}

func newSecretsBox(env *bridge.Env, outcome *problemLine) *secretsBox {
	b := &secretsBox{env: env, outcome: outcome}
	b.head = widget.NewLabelWithStyle("Secrets", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.rows = container.NewVBox()
	b.obj = container.NewVBox(b.head, b.rows)
	b.obj.Hide()
	return b
}

// Object is the box; hidden when the capability names no secret.
func (b *secretsBox) Object() fyne.CanvasObject { return b.obj }

// Show lists capability name's secrets.
func (b *secretsBox) Show(name string) {
	b.name = name
	b.rows.RemoveAll()
	uses, err := b.env.Core.SecretsOf(name)
	if err != nil || len(uses) == 0 {
		b.obj.Hide()
		return
	}
	for _, u := range uses {
		b.rows.Add(b.row(u))
	}
	b.obj.Show()
	b.obj.Refresh()
}

func (b *secretsBox) row(u assistant.SecretUse) fyne.CanvasObject {
	var text string
	switch {
	case u.Assigned && u.ProviderKey:
		text = u.Name + ": your provider API key, given to " + b.name + "."
	case u.Assigned:
		text = u.Name + ": assigned; " + b.name + " may use it."
	case u.ProviderKey:
		text = u.Name + ": your provider API key; " + b.name + " may not use it."
	default:
		text = u.Name + ": not assigned; " + b.name + " may not use it, and does not start while it asks for it."
	}
	if !u.Stored {
		text += " Not stored yet (Settings → Model for a provider key, wrasse secrets set " + u.Name + " for others)."
	}
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	var btn *escButton
	if u.Assigned {
		btn = newButtonWithIcon("Withdraw "+u.Name, theme.CancelIcon(), func() {
			b.change(func(core *assistant.App) error { return core.UnassignSecret(u.Name, b.name) }, b.name+" may no longer use "+u.Name+".")
		})
	} else {
		btn = newButtonWithIcon("Assign "+u.Name, theme.ConfirmIcon(), func() { b.assign(u) })
	}
	return container.NewBorder(nil, nil, nil, btn, label)
}

// assign gives the secret, after a question for a provider key.
func (b *secretsBox) assign(u assistant.SecretUse) {
	name, capName := u.Name, b.name
	do := func() {
		b.change(func(core *assistant.App) error { return core.AssignSecret(name, capName, u.ProviderKey) }, capName+" may now use "+name+".")
	}
	if !u.ProviderKey {
		do()
		return
	}
	text := widget.NewLabel("This is the API key Wrasse uses to ask the model. Given to " + capName + ", it leaves the host it is kept for: " +
		capName + " can spend on your account. Give it only if " + capName + " must have it.")
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Give your provider key to "+capName+"?", "Give "+name, "Cancel", text, func(ok bool) {
		if ok {
			do()
		}
	}, b.env.Window)
	d.Resize(fyne.NewSize(520, 220))
	d.Show()
}

func (b *secretsBox) change(fn func(*assistant.App) error, done string) {
	core, name := b.env.Core, b.name
	b.env.Go(func() {
		err := fn(core)
		b.env.Do(func() {
			if err != nil {
				b.outcome.Error(err)
				return
			}
			b.outcome.OK(done)
			if b.name == name {
				b.Show(name)
			}
		})
	})
}
