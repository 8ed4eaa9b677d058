package chat

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// needsApproval reports whether the gate asks the person before tool runs
// with args: a call left unfinished with no recorded decision waited for
// an answer when it does (the decision is recorded only once given).
func (c *Chat) needsApproval(tool string, args []byte) bool {
	return c.core.Check(tool, args).Decision == gate.Confirm
}

// capFix is a failed call's fix that the chat makes itself: switching a
// capability on, or granting its plugin permissions (`wrasse caps enable
// NAME [--grant P,Q]`, the command of the hints cerebellum gives).
type capFix struct {
	name  string
	grant []string
}

// capFixOf reads h as a capFix; ok is false for any other fix (a model
// setting, a folder), which the card's button opens the page of.
func capFixOf(h *hint.Hint) (f capFix, ok bool) {
	if h == nil || len(h.Command) < 3 || h.Command[0] != "caps" || h.Command[1] != "enable" {
		return capFix{}, false
	}
	f.name = h.Command[2]
	rest := h.Command[3:]
	for i := 0; i+1 < len(rest); i++ {
		if rest[i] == "--grant" {
			f.grant = strings.Split(rest[i+1], ",")
		}
	}
	return f, true
}

// done reports whether the fix is in place now: the capability is on and
// its plugin has every permission it asks for.
func (f capFix) done(caps interface {
	Get(string) (*cerebellum.Capability, error)
}) bool {
	cp, err := caps.Get(f.name)
	return err == nil && cp.State != cerebellum.StateDisabled && len(cp.MissingGrants()) == 0
}

// doneText says what the fix did.
func (f capFix) doneText() string {
	if len(f.grant) > 0 {
		return fmt.Sprintf("✓ %s may use %s now.", f.name, strings.Join(f.grant, ", "))
	}
	return "✓ " + f.name + " is enabled now."
}

// applyFix makes the fix of row r's failed call: a capability's fix
// through the core's enable path, as the Capabilities page makes it (an
// MCP capability only once the person has read the command it runs and
// approved it, as there); any other fix opens its settings page. The card
// then says the fix is made and offers Retry.
func (c *Chat) applyFix(r *row) {
	h := r.tool.fix
	f, ok := capFixOf(h)
	if !ok {
		if h != nil {
			c.env.Show(*h)
		}
		return
	}
	cp, err := c.core.Capabilities().Get(f.name)
	if err != nil {
		c.showFixError(fmt.Errorf("%s cannot be enabled from here: %w; open Settings → Capabilities", f.name, err))
		return
	}
	if cp.Kind == cerebellum.KindMCP && cp.State == cerebellum.StateDisabled {
		// Hashing the files it runs reads them: not on the UI goroutine.
		c.env.Go(func() {
			shown := cp.ApprovalKey()
			c.env.Do(func() { c.approveLaunch(r, cp, f, shown) })
		})
		return
	}
	c.enable(r, f, func() error { return c.core.Enable(f.name, f.grant) })
}

// approveLaunch asks before enabling an MCP capability, showing what it
// runs; "Approve and enable" approves exactly what was shown (shown is its
// ApprovalKey), and refuses when it changed while the person read.
func (c *Chat) approveLaunch(r *row, cp *cerebellum.Capability, f capFix, shown string) {
	text := widget.NewLabel("Enabling " + cp.Name + " lets the assistant start this on your computer, in the sandbox its MCP servers page describes:")
	text.Wrapping = fyne.TextWrapWord
	launch := widget.NewLabelWithStyle(cp.Launch(), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	launch.Wrapping = fyne.TextWrapBreak
	d := dialog.NewCustomConfirm("Enable "+cp.Name+"?", "Approve and enable", "Cancel", container.NewVBox(text, launch), func(ok bool) {
		if ok {
			c.enable(r, f, func() error { return c.core.EnableShown(f.name, f.grant, shown) })
		}
	}, c.env.Window)
	d.Resize(fyne.NewSize(640, 320))
	d.Show()
}

// enable runs do (an enable through the core) in the background, then
// shows the card again: with the fix made, or the error.
func (c *Chat) enable(r *row, f capFix, do func() error) {
	c.env.Go(func() {
		err := do()
		c.env.Do(func() {
			if err != nil {
				c.showFixError(fmt.Errorf("enable %s: %w", f.name, err))
				return
			}
			r.version++
			if i := c.cur.index(r); i >= 0 {
				c.list.rowChanged(i)
			}
		})
	})
}

func (c *Chat) showFixError(err error) {
	if c.env.Window != nil {
		dialog.ShowError(err, c.env.Window)
	}
}

// canRetryAt reports whether Retry on row r's card answers its turn again:
// it belongs to the conversation's last turn, which does not run.
func (c *Chat) canRetryAt(r *row) bool {
	if c.running(c.cur) || c.cur.id == 0 {
		return false
	}
	u := c.cur.lastUser()
	return u != nil && c.cur.index(r) > c.cur.index(u)
}
