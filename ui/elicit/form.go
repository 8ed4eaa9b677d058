package elicit

import (
	"errors"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// The form's words.
const (
	AcceptLabel  = "Accept"
	DeclineLabel = "Decline"
	CancelLabel  = "Cancel"
	OpenLabel    = "Open in browser"
	// AllowLabel and DenyLabel answer a request for a completion.
	AllowLabel   = "Allow"
	DenyLabel    = "Deny"
	requiredMsg  = "Required."
	requiredMark = " *"
	noChoice     = "(none)"
	legend       = "* required"
	askedBy      = "%s asks"
	urlNote      = "It asks you to open this page in your browser:"
)

// Form is one question's form: a field per property of the server's
// schema, with its default filled in, a mark on required fields and a
// message under a field whose value is refused. It is built and read on
// the UI goroutine.
type Form struct {
	q      mcp.Question
	fields []*field
	obj    fyne.CanvasObject
	// inputs is the form without the server's message (a card shows the
	// message apart, wrapped to its width); nil for a URL-mode question.
	inputs fyne.CanvasObject
}

// field is one row: the control for its type and its message.
type field struct {
	f     mcp.Field
	entry *widget.Entry      // text, numbers
	check *widget.Check      // booleans
	pick  *widget.Select     // enums
	many  *widget.CheckGroup // multiple choices
	msg   *widget.Label
}

// NewForm builds the form for q (a URL-mode question shows its address
// instead of fields).
func NewForm(q mcp.Question) *Form {
	f := &Form{q: q}
	message := widget.NewLabel(q.Message)
	message.Wrapping = fyne.TextWrapWord
	rows := []fyne.CanvasObject{message}
	if q.URL != "" {
		addr := widget.NewLabelWithStyle(q.URL, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		addr.Wrapping = fyne.TextWrapBreak
		addr.Selectable = true
		rows = append(rows, widget.NewLabel(urlNote), addr)
		f.obj = container.NewVBox(rows...)
		return f
	}
	form := widget.NewForm()
	required := false
	// The SDK hands the schema over as a map, so the server's order is
	// lost (fields arrive by name): required fields come first.
	specs := slices.Clone(q.Fields)
	slices.SortStableFunc(specs, func(a, b mcp.Field) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	for _, spec := range specs {
		fl := newField(spec)
		f.fields = append(f.fields, fl)
		label := spec.Title
		if label == "" {
			label = spec.Name
		}
		if spec.Required {
			label += requiredMark
			required = true
		}
		item := widget.NewFormItem(label, container.NewVBox(fl.control(), fl.msg))
		item.HintText = spec.Description
		form.AppendItem(item)
	}
	inputs := []fyne.CanvasObject{form}
	if required {
		inputs = append(inputs, widget.NewLabelWithStyle(legend, fyne.TextAlignTrailing, fyne.TextStyle{Italic: true}))
	}
	f.inputs = container.NewVBox(inputs...)
	f.obj = container.NewVBox(append(rows, inputs...)...)
	return f
}

func newField(spec mcp.Field) *field {
	fl := &field{f: spec, msg: widget.NewLabel("")}
	fl.msg.Importance = widget.DangerImportance
	fl.msg.Wrapping = fyne.TextWrapWord
	fl.msg.Hide()
	switch {
	case spec.Type == "boolean":
		fl.check = widget.NewCheck("", nil)
		if b, ok := spec.Default.(bool); ok {
			fl.check.SetChecked(b)
		}
	case spec.Type == "array":
		fl.many = widget.NewCheckGroup(titles(spec), nil)
		if def, ok := spec.Default.([]any); ok {
			var on []string
			for _, v := range def {
				if i := indexOf(spec.Enum, text(v)); i >= 0 {
					on = append(on, titles(spec)[i])
				}
			}
			fl.many.SetSelected(on)
		}
	case len(spec.Enum) > 0:
		options := titles(spec)
		if !spec.Required {
			options = append([]string{noChoice}, options...)
		}
		fl.pick = widget.NewSelect(options, nil)
		if i := indexOf(spec.Enum, text(spec.Default)); spec.Default != nil && i >= 0 {
			fl.pick.SetSelected(titles(spec)[i])
		} else if !spec.Required {
			fl.pick.SetSelected(noChoice)
		}
	default:
		fl.entry = widget.NewEntry()
		fl.entry.SetText(text(spec.Default))
		switch spec.Type {
		case "integer":
			fl.entry.SetPlaceHolder("a whole number")
		case "number":
			fl.entry.SetPlaceHolder("a number")
		}
	}
	return fl
}

func (fl *field) control() fyne.CanvasObject {
	switch {
	case fl.check != nil:
		return fl.check
	case fl.pick != nil:
		return fl.pick
	case fl.many != nil:
		return fl.many
	}
	return fl.entry
}

// value is the field's answer: set is false for a field left out.
func (fl *field) value() (v any, set bool, err error) {
	switch {
	case fl.check != nil:
		return fl.check.Checked, true, nil
	case fl.many != nil:
		return fl.choices()
	case fl.pick != nil:
		i := indexOf(titles(fl.f), fl.pick.Selected)
		if i < 0 {
			if fl.f.Required {
				return nil, false, errors.New(requiredMsg)
			}
			return nil, false, nil
		}
		return fl.f.Enum[i], true, nil
	}
	if fl.entry.Text == "" {
		if fl.f.Required {
			return nil, false, errors.New(requiredMsg)
		}
		return nil, false, nil
	}
	v, err = Parse(fl.f, fl.entry.Text)
	return v, err == nil, err
}

// choices reads a multiple choice, in the order the schema lists them.
func (fl *field) choices() (any, bool, error) {
	out := []string{}
	for i, title := range titles(fl.f) {
		if slices.Contains(fl.many.Selected, title) {
			out = append(out, fl.f.Enum[i])
		}
	}
	switch {
	case len(out) == 0 && fl.f.Required:
		return nil, false, errors.New(requiredMsg)
	case len(out) == 0:
		return nil, false, nil // left out: its bounds apply to an answer given
	case fl.f.MinItems != nil && len(out) < *fl.f.MinItems:
		return nil, false, fmt.Errorf("Choose at least %d.", *fl.f.MinItems)
	case fl.f.MaxItems != nil && len(out) > *fl.f.MaxItems:
		return nil, false, fmt.Errorf("Choose at most %d.", *fl.f.MaxItems)
	}
	return out, true, nil
}

// Object is the form to put in a dialog: the message, then the fields.
func (f *Form) Object() fyne.CanvasObject { return f.obj }

// Inputs is the fields alone (with the legend of required fields), for a
// card that shows the message itself; nil for a URL-mode question.
func (f *Form) Inputs() fyne.CanvasObject { return f.inputs }

// Answer reads the form. When a field is refused, it shows why under
// that field and reports false; the person corrects it and accepts again.
func (f *Form) Answer() (map[string]any, bool) {
	content := map[string]any{}
	ok := true
	for _, fl := range f.fields {
		v, set, err := fl.value()
		if err != nil {
			fl.msg.SetText(err.Error())
			fl.msg.Show()
			ok = false
			continue
		}
		fl.msg.Hide()
		if set {
			content[fl.f.Name] = v
		}
	}
	if !ok {
		return nil, false
	}
	return content, true
}

// titles are an enum's labels: its titles where the schema gives them.
func titles(f mcp.Field) []string {
	out := make([]string, len(f.Enum))
	for i, e := range f.Enum {
		out[i] = e
		if i < len(f.EnumTitles) && f.EnumTitles[i] != "" {
			out[i] = f.EnumTitles[i]
		}
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
