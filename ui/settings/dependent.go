package settings

import (
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// depState is how the capability a page depends on stands.
type depState int

const (
	depOK depState = iota
	// depMissing: no capability of that name is installed.
	depMissing
	// depOff: it is switched off.
	depOff
	// depFailed: it failed to load.
	depFailed
)

// fieldKind says which control edits a setting.
type fieldKind int

const (
	kindText fieldKind = iota
	kindFolder
	kindBool
	kindList // one entry per line, stored comma-separated
	// kindDuration shows a duration as people write it (1m, not 1m0s).
	kindDuration
)

// fieldSpec is one setting a dependent page edits.
type fieldSpec struct {
	Key   string
	Label string
	Kind  fieldKind
	Help  string
	// Check, when set, refuses a value before it is stored, with the
	// words shown under the field: bounds the capability itself enforces
	// (the core checks only the type).
	Check func(value string) error
}

// depField is a built control with its error line.
type depField struct {
	spec  fieldSpec
	entry *escEntry
	check *escCheck
	pick  *escButton
	err   *widget.Label
	// loaded is the value as the core has it; seen once it has been read.
	loaded string
	seen   bool
}

// dependentPage is a settings page whose values are one capability's
// settings. It checks the capability itself and, when it is missing,
// switched off or failed to load, says which (with the error), offers the
// Capabilities page, and makes its controls visibly inert.
type dependentPage struct {
	env  *bridge.Env
	name string
	show func(hint.Page, string)

	state    depState
	headline *widget.Label
	failure  *codeBlock
	open     *escButton
	banner   *fyne.Container
	fields   []*depField
	save     *escButton
	outcome  *problemLine
	page     *pageScroll
	obj      fyne.CanvasObject
}

func newDependentPage(env *bridge.Env, name, intro string, specs []fieldSpec, show func(hint.Page, string)) *dependentPage {
	p := &dependentPage{env: env, name: name, show: show}
	about := widget.NewLabel(intro)
	about.Wrapping = fyne.TextWrapWord
	p.headline = widget.NewLabel("")
	p.headline.Wrapping = fyne.TextWrapWord
	p.headline.Importance = widget.WarningImportance
	p.failure = newCodeBlock(env.Copy, 220)
	p.open = newButtonWithIcon("Open "+name+" on the Capabilities page", theme.NavigateNextIcon(), func() {
		p.show(hint.PageCapabilities, p.name)
	})
	p.open.Importance = widget.HighImportance
	p.banner = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, p.headline),
		p.failure, container.NewHBox(p.open), widget.NewSeparator())
	form := widget.NewForm()
	for _, s := range specs {
		f := p.build(s)
		p.fields = append(p.fields, f)
		var ctl fyne.CanvasObject
		switch {
		case f.check != nil:
			ctl = f.check
		case f.pick != nil:
			ctl = container.NewBorder(nil, nil, nil, f.pick, f.entry)
		default:
			ctl = f.entry
		}
		box := container.NewVBox(ctl, f.err)
		if s.Help != "" {
			box.Add(helpText(s.Help))
		}
		form.Append(s.Label, box)
	}
	p.save = newButtonWithIcon("Save", theme.DocumentSaveIcon(), p.Save)
	p.save.Importance = widget.HighImportance
	p.outcome = newProblemLine(env.Show)
	p.page = newPageScroll(container.NewVBox(about, p.banner, form,
		container.NewHBox(p.save), p.outcome.Object()))
	p.outcome.Changed = p.page.Relayout
	p.obj = p.page
	p.Refresh()
	return p
}

func (p *dependentPage) build(s fieldSpec) *depField {
	f := &depField{spec: s}
	f.err = widget.NewLabel("")
	f.err.Importance = widget.DangerImportance
	f.err.Wrapping = fyne.TextWrapWord
	f.err.Hide()
	switch s.Kind {
	case kindBool:
		f.check = newCheck("Allowed", nil)
	case kindList:
		f.entry = newMultiLineEntry()
		f.entry.SetMinRowsVisible(4)
	default:
		f.entry = newEntry()
	}
	if s.Kind == kindFolder {
		f.pick = newButtonWithIcon("Choose…", theme.FolderOpenIcon(), func() {
			dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
				if err == nil && l != nil && l.Scheme() == "file" {
					f.entry.SetText(l.Path())
				}
			}, p.env.Window).Show()
		})
	}
	return f
}

func (p *dependentPage) Object() fyne.CanvasObject { return p.obj }

// State is how the capability stood at the last Refresh.
func (p *dependentPage) State() depState { return p.state }

// Headline is what the page says is wrong ("" when nothing is).
func (p *dependentPage) Headline() string {
	if p.banner.Hidden {
		return ""
	}
	return p.headline.Text
}

// Inert reports whether the controls are switched off.
func (p *dependentPage) Inert() bool { return p.save.Disabled() }

// check says how the capability stands, from the registry's snapshot.
func (p *dependentPage) check() (depState, *cerebellum.Capability) {
	c, err := p.env.Core.Capabilities().Get(p.name)
	switch {
	case err != nil:
		return depMissing, nil
	case c.State == cerebellum.StateFailed:
		return depFailed, c
	case c.State == cerebellum.StateDisabled:
		return depOff, c
	}
	return depOK, c
}

// Refresh checks the capability again and reloads the values.
func (p *dependentPage) Refresh() {
	state, c := p.check()
	p.state = state
	p.failure.Hide()
	switch state {
	case depMissing:
		p.headline.SetText("The " + p.name + " capability is missing: it is not installed in this workspace, so these settings do nothing. Restore it from the Trash or reinstall it.")
	case depOff:
		p.headline.SetText("The " + p.name + " capability is switched off: the assistant cannot use it, and these settings wait until it is on again.")
	case depFailed:
		p.headline.SetText("The " + p.name + " capability failed to load: " + firstLine(c.Error))
		text := c.Detail
		if text == "" {
			text = c.Error
		}
		p.failure.Set("Error", text)
		p.failure.Show()
	}
	p.banner.Hidden = state == depOK
	p.banner.Refresh()
	if state == depMissing {
		p.setInert(true)
		return
	}
	// A capability that is switched off or failed still shows its values,
	// inert, so the page says what they are while it cannot apply them.
	p.load(state)
}

// load reads the values in the background; the controls wake up when
// they have arrived and the capability is OK.
func (p *dependentPage) load(state depState) {
	p.setInert(true)
	core := p.env.Core
	p.env.Go(func() {
		vals, err := capSettings(core, p.name)
		p.env.Do(func() {
			if p.state != state {
				return
			}
			if err != nil {
				if state == depOK {
					p.outcome.Error(err)
				}
				return
			}
			byKey := map[string]string{}
			for _, v := range vals {
				byKey[v.Key] = v.Value
			}
			for _, f := range p.fields {
				// A value the user is editing (or that was refused) stays,
				// with its error; the others follow the core.
				if !f.seen || !f.edited() {
					f.set(byKey[f.spec.Key])
					f.err.Hide()
				}
				f.loaded = byKey[f.spec.Key]
				f.seen = true
			}
			p.setInert(state != depOK)
			p.page.Relayout()
		})
	})
}

func (p *dependentPage) setInert(inert bool) {
	for _, f := range p.fields {
		for _, w := range []fyne.Disableable{f.entry, f.check, f.pick} {
			if isNil(w) {
				continue
			}
			if inert {
				w.Disable()
			} else {
				w.Enable()
			}
		}
	}
	if inert {
		p.save.Disable()
	} else {
		p.save.Enable()
	}
}

func isNil(w fyne.Disableable) bool {
	switch v := w.(type) {
	case *escEntry:
		return v == nil
	case *escCheck:
		return v == nil
	case *escButton:
		return v == nil
	}
	return w == nil
}

// Save stores every changed value; the core validates each and its error
// shows under the field.
func (p *dependentPage) Save() {
	type change struct {
		f     *depField
		value string
	}
	var changes []change
	refused := false
	for _, f := range p.fields {
		f.err.Hide()
		if !f.edited() {
			continue
		}
		v := f.get()
		if f.spec.Check != nil {
			if err := f.spec.Check(v); err != nil {
				f.err.SetText(errorText(err))
				f.err.Show()
				refused = true
				continue
			}
		}
		changes = append(changes, change{f, v})
	}
	p.outcome.Clear()
	if refused {
		p.outcome.Fail("Nothing was saved: fix the values marked above.")
		return
	}
	if len(changes) == 0 {
		p.outcome.Info("Nothing changed.")
		return
	}
	core := p.env.Core
	p.save.Disable()
	p.env.Go(func() {
		errs := make([]error, len(changes))
		for i, c := range changes {
			errs[i] = setCapSetting(core, p.name, c.f.spec.Key, c.value)
		}
		p.env.Do(func() {
			p.save.Enable()
			failed := false
			for i, c := range changes {
				if errs[i] != nil {
					failed = true
					c.f.err.SetText(settingErrorText(errs[i], p.name, c.f.spec.Key))
					c.f.err.Show()
					continue
				}
				c.f.err.Hide()
				c.f.loaded = c.value
				c.f.set(c.value) // as people write it: 5m, not 5m0s
			}
			if failed {
				p.outcome.Fail("Some values were not saved: see the fields marked above.")
				return
			}
			p.outcome.OK("Saved. The " + p.name + " capability uses these from its next call.")
		})
	})
}

// set shows a stored value in the control.
func (f *depField) set(v string) {
	switch f.spec.Kind {
	case kindBool:
		b, _ := strconv.ParseBool(v)
		f.check.SetChecked(b)
	case kindList:
		f.entry.SetText(strings.Join(splitList(v), "\n"))
	case kindDuration:
		f.entry.SetText(shortDuration(v))
	default:
		f.entry.SetText(v)
	}
}

// get is the control's value in the text form SetSetting takes.
func (f *depField) get() string {
	switch f.spec.Kind {
	case kindBool:
		return strconv.FormatBool(f.check.Checked)
	case kindList:
		return strings.Join(splitList(f.entry.Text), ",")
	}
	return strings.TrimSpace(f.entry.Text)
}

// edited reports whether the control's value differs from the core's
// (durations compared as durations: 5m is 5m0s).
func (f *depField) edited() bool {
	v := f.get()
	if f.spec.Kind == kindDuration {
		a, errA := time.ParseDuration(v)
		b, errB := time.ParseDuration(f.loaded)
		if errA == nil && errB == nil {
			return a != b
		}
	}
	return v != f.loaded
}

// shortDuration writes a duration as people do: 1m, 1h30m, 90s stays
// 1m30s; text that is no duration is shown as it is.
func shortDuration(s string) string {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return s
	}
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}

// settingErrorText is a refused setting in the words shown under its
// field: the field names the setting, so "invalid capability setting:
// timeout of shell:" goes.
func settingErrorText(err error, capName, key string) string {
	return stop(strings.TrimPrefix(errorText(err), key+" of "+capName+": "))
}

// splitList splits on commas and lines, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		if t := strings.TrimSpace(part); t != "" {
			out = append(out, t)
		}
	}
	return out
}
