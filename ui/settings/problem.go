package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// problemLine is one line of outcome under a control: an error in the
// danger colour, a success in the normal one, and, when the error's hint
// names a page, a button that goes there.
type problemLine struct {
	label *widget.Label
	fix   *widget.Button
	box   *fyne.Container
	show  func(hint.Hint)
	hint  hint.Hint
}

func newProblemLine(show func(hint.Hint)) *problemLine {
	p := &problemLine{show: show}
	p.label = widget.NewLabel("")
	p.label.Wrapping = fyne.TextWrapWord
	p.fix = widget.NewButton("", func() { p.show(p.hint) })
	p.box = container.NewBorder(nil, nil, nil, p.fix, p.label)
	p.Clear()
	return p
}

// Object is what to put in the layout.
func (p *problemLine) Object() fyne.CanvasObject { return p.box }

// Clear hides the line.
func (p *problemLine) Clear() {
	p.label.SetText("")
	p.fix.Hide()
	p.box.Hide()
}

// Error shows err's text and, when its hint names a page, the button.
func (p *problemLine) Error(err error) {
	p.label.Importance = widget.DangerImportance
	p.label.SetText(err.Error())
	p.fix.Hide()
	if h, ok := hint.Of(err); ok && h.Page != hint.PageNone {
		p.hint = h
		p.fix.SetText(buttonText(h))
		p.fix.Show()
	}
	p.box.Show()
}

// OK shows a plain outcome.
func (p *problemLine) OK(text string) {
	p.label.Importance = widget.SuccessImportance
	p.label.SetText(text)
	p.fix.Hide()
	p.box.Show()
}

// Info shows a neutral note.
func (p *problemLine) Info(text string) {
	p.label.Importance = widget.MediumImportance
	p.label.SetText(text)
	p.fix.Hide()
	p.box.Show()
}

// Text is what the line says ("" when hidden).
func (p *problemLine) Text() string {
	if p.box.Hidden {
		return ""
	}
	return p.label.Text
}

// buttonText names a hint's button after its action, or its page.
func buttonText(h hint.Hint) string {
	if h.Action != "" {
		return h.Action
	}
	switch h.Page {
	case hint.PageModel:
		return "Open the Model page"
	case hint.PageFolders:
		return "Open the Folders page"
	case hint.PageCapability:
		return "Open " + h.Target
	}
	return "Open the Capabilities page"
}
