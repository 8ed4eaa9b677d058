package settings

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// problemLine is one outcome under a control: an error in the danger
// colour, a success in the normal one, and, when the error's hint names a
// page, a button that goes there. The text takes the full width and the
// button sits under it, so a long action never squeezes the text into a
// narrow column.
type problemLine struct {
	label *widget.Label
	fix   *escButton
	box   *fyne.Container
	show  func(hint.Hint)
	hint  hint.Hint
	// Rewrite, when set, adjusts an error's words for the page showing it
	// (the Model page says "the fields above" for "the model settings").
	Rewrite func(string) string
	// Changed, when set, is told the line changed height (its page
	// measures itself again).
	Changed func()
}

func newProblemLine(show func(hint.Hint)) *problemLine {
	p := &problemLine{show: show}
	p.label = widget.NewLabel("")
	p.label.Wrapping = fyne.TextWrapWord
	p.fix = newButton("", func() { p.show(p.hint) })
	p.box = container.NewVBox(p.label, container.NewHBox(p.fix))
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
	p.changed()
}

func (p *problemLine) changed() {
	if p.Changed != nil {
		p.Changed()
	}
}

// Error shows err's text and, when its hint names a page, the button.
func (p *problemLine) Error(err error) {
	text := errorText(err)
	if p.Rewrite != nil {
		text = p.Rewrite(text)
	}
	p.set(widget.DangerImportance, text)
	if h, ok := hint.Of(err); ok && h.Page != hint.PageNone {
		p.hint = h
		p.fix.SetText(buttonText(h))
		p.fix.Show()
		p.changed()
	}
}

// Fail shows text as an error of the page's own (no error value, so no
// hint button).
func (p *problemLine) Fail(text string) { p.set(widget.DangerImportance, text) }

// OK shows a plain outcome.
func (p *problemLine) OK(text string) { p.set(widget.SuccessImportance, text) }

// Info shows a neutral note.
func (p *problemLine) Info(text string) { p.set(widget.MediumImportance, text) }

func (p *problemLine) set(imp widget.Importance, text string) {
	p.label.Importance = imp
	p.label.SetText(text)
	p.fix.Hide()
	p.box.Show()
	p.box.Refresh()
	p.changed()
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

// errorText is err in the words a page shows: without the sentinel
// prefixes ("invalid config value: ", "invalid capability setting: ")
// that mark the kind of error for code, not for people, and ending with a
// full stop. Its first word keeps its case: it is often a name.
func errorText(err error) string {
	text := err.Error()
	for _, sentinel := range []error{workspace.ErrBadValue, cerebellum.ErrInvalidSetting} {
		if errors.Is(err, sentinel) {
			text = strings.Replace(text, sentinel.Error()+": ", "", 1)
		}
	}
	return stop(text)
}

// stop ends s with a full stop unless it ends a sentence already.
func stop(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "…") {
		return s
	}
	return s + "."
}

// sentence starts s with a capital letter and ends it with a full stop.
// A first word with capitals inside (baseURL, allowedHosts) keeps its
// spelling.
func sentence(s string) string {
	s = stop(s)
	if s == "" {
		return s
	}
	first, _, _ := strings.Cut(s, " ")
	if strings.ToLower(first) == first {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}

// joinSentences joins parts, each made a sentence, with one space: a
// provider's "no model answered at …" after the page's own sentence reads
// "… at the base URL. No model answered at …".
func joinSentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = sentence(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// helpText is the helper text under a field or a toolbar: one size for all
// of it, so the pages read alike.
func helpText(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameCaptionText
	return l
}
