package chat

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/modelfacts"
)

// listTimeout bounds the picker's model list: a server that does not
// answer in this time is reported as not answering.
const listTimeout = 15 * time.Second

// modelPicker is the chat header's model button: it shows the model this
// conversation uses and lists the server's models, with what each can do,
// to choose another for this conversation only (App.SetConversationModel;
// the default stays on the Model page). On a conversation not created
// yet the choice is kept until its first message (TurnOptions.Model).
type modelPicker struct {
	c      *Chat
	button *widget.Button
	// pending is the model picked for pendingTr before its first message.
	pending   string
	pendingTr *transcript
	// models are the server's chat models as last listed for the server
	// listedFor names; listErr is why the last listing failed.
	models    []provider.ModelInfo
	listedFor string
	listErr   error
	loading   bool
	// menu is the menu shown last (tests choose from it).
	menu *fyne.Menu
}

func newModelPicker(c *Chat) *modelPicker {
	p := &modelPicker{c: c}
	p.button = widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), p.open)
	p.button.IconPlacement = widget.ButtonIconTrailingText
	p.button.Importance = widget.LowImportance
	return p
}

// pendingFor is the model picked for tr before it was created, or "".
func (p *modelPicker) pendingFor(tr *transcript) string {
	if tr == p.pendingTr && tr.id == 0 {
		return p.pending
	}
	return ""
}

// current is the model the shown conversation uses and whether it was
// chosen for it.
func (p *modelPicker) current() (string, bool) {
	if m := p.pendingFor(p.c.cur); m != "" {
		return m, true
	}
	return p.c.core.ConversationModel(p.c.cur.id)
}

// refresh shows the current conversation's model.
func (p *modelPicker) refresh() {
	m, _ := p.current()
	p.button.SetText(m)
}

// server names the configured server, whose list the picker keeps.
func (p *modelPicker) server() string {
	cfg := p.c.core.Model()
	return cfg.Provider + "|" + cfg.BaseURL
}

// open lists the server's models in a menu: at once from the last list
// of this server (refreshed meanwhile for the next time), else once
// listed.
func (p *modelPicker) open() {
	if p.listedFor == p.server() && p.listErr == nil {
		p.showMenu()
		p.load(nil)
		return
	}
	p.load(p.showMenu)
}

// load lists the server's models in the background, then calls done on
// the UI goroutine (nil: none).
func (p *modelPicker) load(done func()) {
	if p.loading {
		return
	}
	p.loading = true
	server := p.server()
	p.c.env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		models, err := p.c.core.Models(ctx, workspace.Config{})
		cancel()
		p.c.env.Do(func() {
			p.loading = false
			p.listedFor, p.listErr = server, err
			p.models = p.models[:0]
			for _, m := range models {
				if modelfacts.Chat(m) {
					p.models = append(p.models, m)
				}
			}
			if done != nil {
				done()
			}
		})
	})
}

// items are the menu's entries: the default, the server's models with
// what each can do, the chosen one checked, and the Model page.
func (p *modelPicker) items() []*fyne.MenuItem {
	cur, chosen := p.current()
	def := p.c.core.Model().Model
	out := []*fyne.MenuItem{{Label: "Default: " + def + " (Model page)", Checked: !chosen, Action: func() { p.choose("") }}}
	out = append(out, fyne.NewMenuItemSeparator())
	listed := false
	for _, m := range p.models {
		label := m.ID
		if s := modelfacts.Summary(m); s != "" {
			label += "    " + s
		}
		out = append(out, &fyne.MenuItem{Label: label, Checked: chosen && m.ID == cur, Action: func() { p.choose(m.ID) }})
		listed = listed || m.ID == cur
	}
	switch {
	case p.listErr != nil:
		out = append(out, &fyne.MenuItem{Label: "Could not list the server's models: " + oneLine(p.listErr.Error(), 90), Disabled: true})
	case len(p.models) == 0:
		out = append(out, &fyne.MenuItem{Label: "The server lists no models", Disabled: true})
	}
	if chosen && !listed {
		out = append(out, &fyne.MenuItem{Label: cur + " (not listed by the server)", Checked: true, Action: func() {}})
	}
	out = append(out, fyne.NewMenuItemSeparator(), &fyne.MenuItem{Label: "Model settings…", Action: func() {
		p.c.env.Show(hint.Hint{Page: hint.PageModel, Target: "model"})
	}})
	return out
}

// showMenu pops the menu up under the button.
func (p *modelPicker) showMenu() {
	p.menu = fyne.NewMenu("", p.items()...)
	if p.c.env.Window == nil {
		return
	}
	cnv := p.c.env.Window.Canvas()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(p.button)
	// Right-aligned under the button, which sits at the window's right.
	pop := widget.NewPopUpMenu(p.menu, cnv)
	// The menu takes the keyboard and keeps it once hidden (Escape, a
	// tap outside, a choice), so typing and Ctrl+, would reach nothing;
	// the composer gets it back. A choice that opens the settings runs
	// after this, and the settings take it from the composer again.
	pop.OnDismiss = func() {
		pop.Hide()
		p.c.FocusComposer()
	}
	x := max(pos.X+p.button.Size().Width-pop.MinSize().Width, 0)
	pop.ShowAtPosition(fyne.NewPos(x, pos.Y+p.button.Size().Height))
}

// choose makes model the current conversation's ("" the default).
func (p *modelPicker) choose(model string) {
	tr := p.c.cur
	if tr.id == 0 {
		p.pending, p.pendingTr = model, tr
		p.c.status.refresh()
		p.c.composer.refreshNote() // whether the model reads attached images
		return
	}
	id := tr.id
	p.c.env.Go(func() {
		err := p.c.core.SetConversationModel(id, model)
		p.c.env.Do(func() {
			if err != nil {
				p.c.core.Logger().Warn("choosing the conversation's model", "conversation", id.String(), "error", err)
				p.c.showNotice("The model could not be chosen: " + err.Error())
			}
			p.c.status.refresh()
			p.c.composer.refreshNote()
		})
	})
}

// oneLine puts s on one line of at most limit characters.
func oneLine(s string, limit int) string {
	out := []rune{}
	space := false
	for _, r := range s {
		if r == '\n' || r == '\t' || r == ' ' {
			space = true
			continue
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, r)
		if len(out) >= limit {
			return string(out[:limit-1]) + "…"
		}
	}
	return string(out)
}
