package settings

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// capDetail shows the selected capability in full: what it is, its state
// (a failure with its error, file and line in a code block), its tools,
// and the permissions it asks for with Grant and Revoke.
type capDetail struct {
	// OnGrant, OnRevoke and OnRemove are the page's actions.
	OnGrant  func(name, perm string)
	OnRevoke func(name, perm string)
	OnRemove func(name string)
	// Sandbox says how the operating system confines a capability's code
	// (assistant.App.Sandbox); nil shows nothing.
	Sandbox func(name string) (assistant.SandboxInfo, error)
	// secrets lists the secrets a plugin may ask for, with Assign and
	// Withdraw (SetSecrets); nil shows nothing.
	secrets *secretsBox

	name    string
	sandbox *widget.Label
	title   *widget.Label
	meta    *widget.Label
	desc    *widget.Label
	state   *widget.Label
	failure *codeBlock
	tools   *widget.Label
	perms   *fyne.Container
	where   *widget.Label
	remove  *escButton
	empty   *widget.Label
	body    *fyne.Container
	obj     fyne.CanvasObject
}

func newCapDetail(copy func(string)) *capDetail {
	d := &capDetail{}
	d.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.title.SizeName = theme.SizeNameSubHeadingText
	d.meta = widget.NewLabel("")
	d.desc = widget.NewLabel("")
	d.desc.Wrapping = fyne.TextWrapWord
	d.state = widget.NewLabel("")
	d.state.Wrapping = fyne.TextWrapWord
	d.failure = newCodeBlock(copy, 320)
	d.tools = widget.NewLabel("")
	d.tools.Wrapping = fyne.TextWrapWord
	d.perms = container.NewVBox()
	d.sandbox = widget.NewLabel("")
	d.sandbox.Wrapping = fyne.TextWrapWord
	d.where = widget.NewLabel("")
	d.where.Wrapping = fyne.TextWrapBreak
	d.where.SizeName = theme.SizeNameCaptionText // the same size as helpText
	d.remove = newButtonWithIcon("Move to Trash", theme.DeleteIcon(), func() {
		if d.OnRemove != nil {
			d.OnRemove(d.name)
		}
	})
	d.remove.Importance = widget.DangerImportance
	d.empty = widget.NewLabel(selectCapability)
	d.empty.Wrapping = fyne.TextWrapWord
	d.body = container.NewVBox(d.title, d.meta, d.desc, d.state, d.failure,
		widget.NewSeparator(), d.tools, d.perms, d.sandbox, d.where, container.NewHBox(d.remove))
	d.obj = container.NewVScroll(container.NewStack(d.empty, d.body))
	d.Show(nil)
	return d
}

// Object is the panel.
func (d *capDetail) Object() fyne.CanvasObject { return d.obj }

// SetSecrets adds the secrets box under the permissions.
func (d *capDetail) SetSecrets(b *secretsBox) {
	d.secrets = b
	for i, o := range d.body.Objects {
		if o == d.perms {
			d.body.Objects = slices.Insert(d.body.Objects, i+1, b.Object())
			break
		}
	}
}

// Name is the capability shown ("" for none).
func (d *capDetail) Name() string { return d.name }

// selectCapability is what the panel says with nothing selected.
const selectCapability = "Select a capability to see its tools, permissions and state."

// ShowEmpty clears the panel, saying why ("" for nothing selected).
func (d *capDetail) ShowEmpty(why string) {
	if why == "" {
		why = selectCapability
	}
	d.name = ""
	d.body.Hide()
	d.empty.SetText(why)
	d.empty.Show()
}

// Empty is what the cleared panel says ("" while it shows a capability).
func (d *capDetail) Empty() string {
	if d.name != "" {
		return ""
	}
	return d.empty.Text
}

// Show fills the panel with c (nil: nothing selected).
func (d *capDetail) Show(c *cerebellum.Capability) {
	if c == nil {
		d.ShowEmpty("")
		return
	}
	d.empty.Hide()
	d.body.Show()
	d.name = c.Name
	d.title.SetText(c.Name)
	d.meta.SetText(capMeta(c))
	d.desc.SetText(c.Description())
	d.desc.Hidden = c.Description() == ""
	d.failure.Hide()
	switch {
	case c.State == cerebellum.StateFailed:
		d.state.Importance = widget.DangerImportance
		d.state.SetText("Failed to load: " + firstLine(c.Error))
		text := c.Detail
		if text == "" {
			text = c.Error
		}
		d.failure.Set("Error", text)
		d.failure.Show()
	case c.State == cerebellum.StateDisabled:
		d.state.Importance = widget.WarningImportance
		d.state.SetText("Switched off: its " + offers(c) + " are not offered to the model.")
	case len(c.MissingGrants()) > 0:
		missing := c.MissingGrants()
		them := "them"
		if len(missing) == 1 {
			them = "it"
		}
		d.state.Importance = widget.WarningImportance
		d.state.SetText("Waiting for permission: its plugin asks for " + commalist.Prose(missing) +
			". None of its code runs, and the model cannot use it, until you grant " + them + " below.")
	default:
		d.state.Importance = widget.SuccessImportance
		switch {
		case c.Core:
			d.state.SetText("OK. Core: always on, its " + offers(c) + " are in every conversation.")
		case c.Pinned:
			d.state.SetText("OK. Pinned in config.json: its " + offers(c) + " are in every conversation.")
		default:
			d.state.SetText("OK. The model loads it when it needs it.")
		}
	}
	d.state.Refresh()
	d.tools.SetText(toolsText(c))
	d.showPermissions(c)
	if d.secrets != nil {
		// Built-ins keep their access: nothing for the person to assign.
		if c.Source == cerebellum.SourceBuiltin {
			d.secrets.Object().Hide()
		} else {
			d.secrets.Show(c.Name)
		}
	}
	d.showSandbox(c.Name)
	switch {
	case c.Dir != "":
		d.where.SetText("Folder: " + c.Dir)
	default:
		d.where.SetText("Ships with Wrasse (built in).")
	}
	d.remove.Hidden = c.Source != cerebellum.SourceWorkspace
	d.body.Refresh()
}

// showSandbox says plainly what the kernel enforces on the capability's
// code and what it cannot (an older kernel, another OS).
func (d *capDetail) showSandbox(name string) {
	d.sandbox.Hide()
	if d.Sandbox == nil {
		return
	}
	info, err := d.Sandbox(name)
	if err != nil || !info.Code {
		return
	}
	text := "Sandbox: " + info.Summary
	for _, g := range info.Gaps {
		text += "\nNot enforced: " + g
	}
	d.sandbox.Importance = widget.MediumImportance
	if len(info.Gaps) > 0 {
		d.sandbox.Importance = widget.WarningImportance
	}
	d.sandbox.SetText(text)
	d.sandbox.Show()
}

// offers names what a capability gives the model: a guide has
// instructions, everything else tools.
func offers(c *cerebellum.Capability) string {
	if c.Kind == cerebellum.KindGuide {
		return "instructions"
	}
	return "tools"
}

func toolsText(c *cerebellum.Capability) string {
	if c.State == cerebellum.StateFailed {
		return "Tools: none until it loads."
	}
	if c.Kind == cerebellum.KindGuide {
		return "A guide: instructions the model reads, no tools."
	}
	tools := c.Tools()
	if len(tools) == 0 {
		return "Tools: none available."
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return "Tools: " + strings.Join(names, ", ")
}

// showPermissions lists what the plugin declares, each granted or not
// with the button that changes it. Built-ins are trusted and need none.
func (d *capDetail) showPermissions(c *cerebellum.Capability) {
	d.perms.RemoveAll()
	if c.Manifest == nil || len(c.Manifest.Permissions) == 0 {
		return
	}
	head := widget.NewLabelWithStyle("Permissions", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.perms.Add(head)
	if c.Source == cerebellum.SourceBuiltin {
		d.perms.Add(widget.NewLabel("Ships with Wrasse: " + strings.Join(c.Manifest.Permissions.Names(), ", ") + " (no grant needed)."))
		return
	}
	granted := map[string]bool{}
	for _, g := range c.Granted {
		granted[g] = true
	}
	name := c.Name
	for _, p := range c.Manifest.Permissions.Names() {
		label := p
		if scope := c.Manifest.Permissions[p]; len(scope) > 0 {
			label += " (" + strings.Join(scope, ", ") + ")"
		}
		status := widget.NewLabel("not granted")
		var btn *escButton
		perm := p
		if granted[p] {
			status.SetText("granted")
			status.Importance = widget.SuccessImportance
			btn = newButton("Revoke "+p, func() { d.OnRevoke(name, perm) })
		} else {
			status.Importance = widget.WarningImportance
			btn = newButton("Grant "+p, func() { d.OnGrant(name, perm) })
			btn.Importance = widget.HighImportance
		}
		text := widget.NewLabel(label)
		text.Wrapping = fyne.TextWrapWord
		d.perms.Add(container.NewBorder(nil, nil, nil, container.NewHBox(status, btn), text))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
