package settings

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// capRow is one row of the capability list: the enabled switch, the name
// with kind, tool count, badge and core/pinned marker, the state, and a
// trash button on removable capabilities. Rows are recycled by the list:
// Bind points a row at another capability.
type capRow struct {
	widget.BaseWidget

	// OnToggle and OnRemove are the page's actions; the row never calls
	// the core itself.
	OnToggle func(name string, on bool)
	OnRemove func(name string)

	name    string
	enabled *escCheck
	title   *widget.Label
	meta    *widget.Label
	state   *widget.Label
	trash   *escButton
	marker  *canvas.Rectangle
	content *fyne.Container
}

var _ fyne.Widget = (*capRow)(nil)

func newCapRow() *capRow {
	r := &capRow{}
	r.enabled = newCheck("", nil)
	r.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.meta = widget.NewLabel("")
	r.meta.SizeName = theme.SizeNameCaptionText
	r.meta.Truncation = fyne.TextTruncateEllipsis
	r.state = widget.NewLabel("")
	r.trash = newButtonWithIcon("", theme.DeleteIcon(), func() {
		if r.OnRemove != nil {
			r.OnRemove(r.name)
		}
	})
	r.trash.Importance = widget.LowImportance
	// The highlight marks the capability a hint or a search pointed at.
	r.marker = canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	r.marker.SetMinSize(fyne.NewSize(4, 1))
	r.marker.Hide()
	text := container.New(&tightVBox{}, r.title, r.meta)
	right := container.NewHBox(r.state, r.trash)
	r.content = container.NewBorder(nil, nil, container.NewHBox(r.marker, r.enabled), right, text)
	r.ExtendBaseWidget(r)
	return r
}

// Bind shows c; highlighted marks the target of Show.
func (r *capRow) Bind(c *cerebellum.Capability, highlighted bool) {
	r.name = c.Name
	r.title.SetText(c.Name)
	r.meta.SetText(capMeta(c))
	// Setting the box must not read as the user's toggle.
	r.enabled.OnChanged = nil
	r.enabled.SetChecked(c.State != cerebellum.StateDisabled)
	// Core capabilities stay on: the engine refuses to switch them off.
	if c.Core {
		r.enabled.Disable()
	} else {
		r.enabled.Enable()
	}
	r.enabled.OnChanged = func(on bool) {
		if r.OnToggle != nil {
			r.OnToggle(r.name, on)
		}
	}
	switch {
	case c.State == cerebellum.StateFailed:
		r.state.Importance = widget.DangerImportance
		r.state.SetText("failed")
	case c.State == cerebellum.StateDisabled:
		// The normal text colour: the disabled grey of LowImportance
		// cannot be read on the selected row's blue.
		r.state.Importance = widget.MediumImportance
		r.state.SetText("off")
	case len(c.MissingGrants()) > 0:
		// Not failed: its code waits for the user's grant.
		r.state.Importance = widget.WarningImportance
		r.state.SetText("needs grant")
	default:
		r.state.Importance = widget.SuccessImportance
		r.state.SetText("ok")
	}
	r.state.Refresh()
	if c.Source == cerebellum.SourceWorkspace {
		r.trash.Show()
	} else {
		r.trash.Hide()
	}
	r.marker.Hidden = !highlighted
	r.marker.Refresh()
}

// Name is the capability the row shows.
func (r *capRow) Name() string { return r.name }

func (r *capRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.content) }

// capMeta is the row's second line: "plugin · 3 tools · Official · core".
func capMeta(c *cerebellum.Capability) string {
	if c.Manifest == nil {
		// Its SKILL.md did not parse: the kind and tools are not known.
		return string(c.Badge) + " · SKILL.md unreadable"
	}
	parts := []string{kindName(c.Kind)}
	if c.Kind != cerebellum.KindGuide {
		parts = append(parts, plural(len(c.Tools()), "tool", "tools"))
	}
	parts = append(parts, string(c.Badge))
	switch {
	case c.Core:
		parts = append(parts, "core")
	case c.Pinned:
		parts = append(parts, "pinned")
	}
	return strings.Join(parts, " · ")
}

func kindName(k cerebellum.Kind) string {
	switch k {
	case cerebellum.KindMCP:
		return "MCP"
	case "":
		return "unknown kind"
	}
	return string(k)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// tightVBox stacks objects with no padding, so two lines of text fit a
// row of ordinary height.
type tightVBox struct{}

func (tightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height - theme.Padding()
	}
	return s
}

func (tightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height - theme.Padding()
		o.Move(fyne.NewPos(0, y-theme.Padding()/2))
		o.Resize(fyne.NewSize(size.Width, o.MinSize().Height))
		y += h
	}
}
