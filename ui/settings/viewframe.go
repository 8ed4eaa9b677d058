package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// viewFrame is the settings view's outermost object. The window shows and
// hides it as the user switches between the chat and the settings; the
// frame turns those calls into the view's opened and left.
type viewFrame struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onShow  func()
	onHide  func()
}

var _ fyne.Widget = (*viewFrame)(nil)

func newViewFrame(content fyne.CanvasObject, onShow, onHide func()) *viewFrame {
	f := &viewFrame{content: content, onShow: onShow, onHide: onHide}
	f.ExtendBaseWidget(f)
	return f
}

// Show shows the view and tells it it opened.
func (f *viewFrame) Show() {
	wasHidden := !f.Visible()
	f.BaseWidget.Show()
	if wasHidden && f.onShow != nil {
		f.onShow()
	}
}

// Hide hides the view and tells it it was left.
func (f *viewFrame) Hide() {
	wasVisible := f.Visible()
	f.BaseWidget.Hide()
	if wasVisible && f.onHide != nil {
		f.onHide()
	}
}

func (f *viewFrame) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(f.content) }
