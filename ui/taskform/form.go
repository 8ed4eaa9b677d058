package taskform

import (
	"context"
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// Choices of the approvals radio.
const (
	WaitChoice = "Stop and wait for me"
	DenyChoice = "Deny them and go on"
)

// Form edits one TaskSpec. All methods run on the UI goroutine.
type Form struct {
	core *assistant.App

	Name      *Entry
	Prompt    *Entry
	Schedule  *Entry
	Next      *widget.Label
	Model     *Entry
	Caps      *Entry
	Approvals *widget.RadioGroup
	Enabled   *widget.Check
	// Problem shows why the last save was refused.
	Problem *widget.Label

	object fyne.CanvasObject
	// OnEscape is called when Esc is typed in a field (Show closes the
	// dialog, as Cancel does).
	OnEscape func()
}

// Entry is a form field that gives Esc to the form (Form.OnEscape): a
// focused entry takes every key, so the window never sees it.
type Entry struct {
	widget.Entry
	form *Form
}

var _ fyne.Focusable = (*Entry)(nil)

func (f *Form) newEntry(multiLine bool) *Entry {
	e := &Entry{form: f}
	e.MultiLine = multiLine
	e.Wrapping = fyne.TextWrapOff
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey hands Esc to the form and every other key to the entry.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.form.OnEscape != nil {
		e.form.OnEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// New builds a form showing spec.
func New(core *assistant.App, spec assistant.TaskSpec) *Form {
	f := &Form{core: core}
	f.Name = f.newEntry(false)
	f.Name.SetPlaceHolder("Morning summary")
	f.Name.SetText(spec.Name)
	f.Prompt = f.newEntry(true)
	f.Prompt.Wrapping = fyne.TextWrapWord
	f.Prompt.SetMinRowsVisible(4)
	f.Prompt.SetPlaceHolder("What to do each time, complete on its own: each run starts a new conversation.")
	f.Prompt.SetText(spec.Prompt)
	f.Next = widget.NewLabel("")
	f.Next.Wrapping = fyne.TextWrapWord
	f.Next.SizeName = theme.SizeNameCaptionText
	f.Schedule = f.newEntry(false)
	f.Schedule.SetPlaceHolder("every weekday at 08:00")
	f.Schedule.OnChanged = func(string) { f.showNext() }
	f.Schedule.SetText(spec.Schedule)
	f.Model = f.newEntry(false)
	f.Model.SetPlaceHolder("the current model")
	f.Model.SetText(spec.Model)
	f.Caps = f.newEntry(false)
	f.Caps.SetPlaceHolder("every enabled capability")
	f.Caps.SetText(strings.Join(spec.Capabilities, ", "))
	f.Approvals = widget.NewRadioGroup([]string{WaitChoice, DenyChoice}, nil)
	f.Approvals.Horizontal = true
	f.Approvals.Required = true
	if spec.Approvals == tasks.Deny {
		f.Approvals.SetSelected(DenyChoice)
	} else {
		f.Approvals.SetSelected(WaitChoice)
	}
	f.Enabled = widget.NewCheck("Run on this schedule", nil)
	f.Enabled.SetChecked(spec.Enabled)
	f.Problem = widget.NewLabel("")
	f.Problem.Wrapping = fyne.TextWrapWord
	f.Problem.Importance = widget.DangerImportance
	f.Problem.Hide()
	help := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.Wrapping = fyne.TextWrapWord
		l.SizeName = theme.SizeNameCaptionText
		return l
	}
	form := widget.NewForm(
		widget.NewFormItem("Name", f.Name),
		widget.NewFormItem("Prompt", f.Prompt),
		widget.NewFormItem("Schedule", container.NewVBox(f.Schedule, f.Next,
			help("Once 2025-06-01 14:30, in 2h, every 15m, every 2h, daily 08:00, weekdays 08:00, weekly mon,thu 09:30, or cron 0 8 * * 1-5 — in your time zone."))),
		widget.NewFormItem("Model", f.Model),
		widget.NewFormItem("Capabilities", container.NewVBox(f.Caps, help("Comma-separated names; empty for every enabled capability."))),
		widget.NewFormItem("Calls that need approval", container.NewVBox(f.Approvals,
			help("Runs never approve anything by themselves. Stop and wait: the run waits with the approval card and a notification. Deny: the call is refused and the run goes on."))),
		widget.NewFormItem("", f.Enabled),
	)
	f.object = container.NewVBox(form, f.Problem)
	f.showNext()
	return f
}

// Object is the form.
func (f *Form) Object() fyne.CanvasObject { return f.object }

// showNext says when the schedule typed runs next, or why it cannot.
func (f *Form) showNext() {
	if strings.TrimSpace(f.Schedule.Text) == "" {
		f.Next.SetText("")
		f.Next.Importance = widget.MediumImportance
		return
	}
	s, next, err := f.core.CheckSchedule(f.Schedule.Text)
	if err != nil {
		f.Next.SetText(err.Error())
		f.Next.Importance = widget.DangerImportance
	} else {
		f.Next.SetText(s.Describe() + " — next run " + next.In(f.core.TaskLocation()).Format("Mon 2 Jan 2006 at 15:04"))
		f.Next.Importance = widget.SuccessImportance
	}
	f.Next.Refresh()
}

// Spec is the task as the form shows it.
func (f *Form) Spec() assistant.TaskSpec {
	s := assistant.TaskSpec{Name: f.Name.Text, Prompt: f.Prompt.Text, Schedule: f.Schedule.Text, Model: strings.TrimSpace(f.Model.Text),
		Enabled: f.Enabled.Checked, Approvals: tasks.Wait}
	if f.Approvals.Selected == DenyChoice {
		s.Approvals = tasks.Deny
	}
	if strings.TrimSpace(f.Caps.Text) != "" {
		s.Capabilities = commalist.Split(f.Caps.Text)
	}
	return s
}

// ShowProblem shows why a save was refused (nil hides it).
func (f *Form) ShowProblem(err error) {
	if err == nil {
		f.Problem.Hide()
		return
	}
	var lines []string
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			lines = append(lines, e.Error())
		}
	} else {
		lines = []string{err.Error()}
	}
	f.Problem.SetText(strings.Join(lines, "\n"))
	f.Problem.Show()
}

// Show opens the form in a dialog titled title with a save button named
// confirm. save runs in the background (it may ask the model server
// whether the model exists); a refusal is shown in the form, which stays
// open, and done (when set) learns of a save that worked.
func Show(env *bridge.Env, title, confirm string, spec assistant.TaskSpec, save func(ctx context.Context, spec assistant.TaskSpec) error, done func()) *Form {
	f := New(env.Core, spec)
	var d *dialog.CustomDialog
	saveBtn := widget.NewButton(confirm, nil)
	saveBtn.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	saveBtn.OnTapped = func() {
		spec := f.Spec()
		saveBtn.Disable()
		env.Go(func() {
			err := save(context.Background(), spec)
			env.Do(func() {
				saveBtn.Enable()
				f.ShowProblem(err)
				if err == nil {
					d.Hide()
					if done != nil {
						done()
					}
				}
			})
		})
	}
	body := container.NewVScroll(f.Object())
	body.SetMinSize(fyne.NewSize(560, 440))
	d = dialog.NewCustomWithoutButtons(title, body, env.Window)
	d.SetButtons([]fyne.CanvasObject{cancel, saveBtn})
	f.OnEscape = d.Hide
	d.Show()
	// The first field has the keyboard, so typing (and Esc) works at once.
	env.Window.Canvas().Focus(f.Name)
	return f
}
