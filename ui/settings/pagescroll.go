package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// pageScroll is a settings page in a vertical scroll that always reaches
// the page's end. A word-wrapped label only knows its height once it has
// been laid out at its width, so a plain scroll sized from the content's
// first MinSize stops short of text that wrapped onto more lines (an error
// under the buttons). This one lays the content out, then measures it
// again at that width, whenever it is laid out or told the text changed.
type pageScroll struct {
	widget.BaseWidget
	scroll *container.Scroll
}

var _ fyne.Widget = (*pageScroll)(nil)

func newPageScroll(content fyne.CanvasObject) *pageScroll {
	p := &pageScroll{scroll: container.NewVScroll(container.NewPadded(content))}
	p.ExtendBaseWidget(p)
	return p
}

// Relayout measures the content again after its text changed.
func (p *pageScroll) Relayout() { p.fit() }

// ScrollToBottom shows the end of the page (where outcomes appear).
func (p *pageScroll) ScrollToBottom() {
	p.fit()
	p.scroll.ScrollToBottom()
}

// Offset is how far the page is scrolled.
func (p *pageScroll) Offset() fyne.Position { return p.scroll.Offset }

// fit sizes the content for the scroll's width: one pass to give every
// label its width, a second to take the heights that width produces.
func (p *pageScroll) fit() {
	c := p.scroll.Content
	w := p.scroll.Size().Width
	if w <= 0 {
		return
	}
	for range 2 {
		c.Resize(fyne.NewSize(w, max(c.MinSize().Height, p.scroll.Size().Height)))
	}
	p.scroll.Refresh()
}

func (p *pageScroll) CreateRenderer() fyne.WidgetRenderer {
	return &pageScrollRenderer{p: p}
}

type pageScrollRenderer struct{ p *pageScroll }

func (r *pageScrollRenderer) Layout(size fyne.Size) {
	r.p.scroll.Resize(size)
	r.p.fit()
}

func (r *pageScrollRenderer) MinSize() fyne.Size { return r.p.scroll.MinSize() }

func (r *pageScrollRenderer) Refresh() { r.p.fit() }

func (r *pageScrollRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.p.scroll}
}

func (r *pageScrollRenderer) Destroy() {}
