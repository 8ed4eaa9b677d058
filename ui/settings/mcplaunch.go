package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// approveLaunch enables MCP capability c from the Capabilities page once
// the person has read what it runs and approved it, as the MCP servers
// page does: enabling approves exactly that command, with the files it
// runs as they were when shown. Cancelled, the switch goes back to off.
func (p *capsPage) approveLaunch(c *cerebellum.Capability) {
	// Hashing the files it runs reads them (a runtime may be large): not
	// on the UI goroutine.
	p.env.Go(func() {
		shown := c.ApprovalKey()
		p.env.Do(func() { p.showApproval(c, shown) })
	})
}

// showApproval is approveLaunch's dialog; shown is the ApprovalKey of what
// it shows, and what "Approve and enable" approves (or refuses, when the
// capability changed while the person read).
func (p *capsPage) showApproval(c *cerebellum.Capability, shown string) {
	why := "Enabling " + c.Name + " lets the assistant start this on your computer, in the sandbox its MCP servers page describes:"
	if c.Unapproved != "" {
		why = c.Name + " is off: " + c.Unapproved + ".\n\n" + why
	}
	text := widget.NewLabel(why)
	text.Wrapping = fyne.TextWrapWord
	block := newCodeBlock(p.env.Copy, 200)
	block.Set("It runs", c.Launch())
	name := c.Name
	d := dialog.NewCustomConfirm("Enable "+name+"?", "Approve and enable", "Cancel", container.NewVBox(text, block), func(ok bool) {
		if !ok {
			p.refresh() // the switch goes back to the real state
			return
		}
		p.run(func() error { return p.env.Core.EnableShown(name, nil, shown) }, func() {
			p.problem.OK("Enabled " + name + ".")
		})
	}, p.env.Window)
	d.Resize(fyne.NewSize(640, 360))
	d.Show()
}
