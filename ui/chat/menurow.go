package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// menuRow is one entry of the composer's menu: one line of text, cut
// with an ellipsis to the menu's width (so a long description never
// widens the window), highlighted when selected, chosen by a tap.
type menuRow struct {
	widget.BaseWidget
	Text     string
	Selected bool
	OnTapped func()
}

var (
	_ fyne.Widget   = (*menuRow)(nil)
	_ fyne.Tappable = (*menuRow)(nil)
)

func newMenuRow(text string, selected bool, tapped func()) *menuRow {
	r := &menuRow{Text: text, Selected: selected, OnTapped: tapped}
	r.ExtendBaseWidget(r)
	return r
}

// Tapped chooses the entry.
func (r *menuRow) Tapped(*fyne.PointEvent) {
	if r.OnTapped != nil {
		r.OnTapped()
	}
}

func (r *menuRow) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	label := widget.NewLabel(r.Text)
	label.Truncation = fyne.TextTruncateEllipsis
	rr := &menuRowRenderer{r: r, bg: bg, label: label, box: container.NewStack(bg, label)}
	rr.Refresh()
	return rr
}

type menuRowRenderer struct {
	r     *menuRow
	bg    *canvas.Rectangle
	label *widget.Label
	box   *fyne.Container
}

func (rr *menuRowRenderer) Layout(s fyne.Size)           { rr.box.Resize(s) }
func (rr *menuRowRenderer) MinSize() fyne.Size           { return rr.label.MinSize() }
func (rr *menuRowRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{rr.box} }
func (rr *menuRowRenderer) Destroy()                     {}
func (rr *menuRowRenderer) Refresh() {
	rr.label.SetText(rr.r.Text)
	rr.label.TextStyle = fyne.TextStyle{Bold: rr.r.Selected}
	rr.bg.Hidden = !rr.r.Selected
	rr.bg.FillColor = rr.r.Theme().Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	rr.label.Refresh()
	rr.bg.Refresh()
}
