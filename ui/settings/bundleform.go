package settings

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/mcpbundle"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// isBundlePath says whether a dropped or picked file is an MCP bundle
// (.mcpb, or .dxt as they were called before).
func isBundlePath(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".mcpb", ".dxt":
		return true
	}
	return false
}

// importBundles installs MCP bundles one after another: each validated
// (nothing written when its manifest is refused), its settings asked in a
// form, then installed switched off. next runs when all are done.
func (im *importer) importBundles(paths []string, next func()) {
	if len(paths) == 0 {
		if next != nil {
			next()
		}
		return
	}
	path, rest := paths[0], paths[1:]
	goOn := func() { im.importBundles(rest, next) }
	if im.started != nil {
		im.started()
	}
	im.env.Go(func() {
		b, err := im.env.Core.OpenBundle(path)
		im.env.Do(func() {
			if err != nil {
				im.show(importTitle(0, 1), rejectedText(path, err))
				goOn()
				return
			}
			if len(b.Manifest.UserConfig) == 0 {
				im.installBundle(b, nil, false, goOn)
				return
			}
			im.askBundle(b, goOn)
		})
	})
}

// bundleInput is one user_config field of the form.
type bundleInput struct {
	field mcpbundle.Field
	entry *escEntry // string, number, directory, file (several: one per line)
	check *escCheck // boolean
}

func (in bundleInput) values() []string {
	if in.check != nil {
		return []string{fmt.Sprint(in.check.Checked)}
	}
	text := strings.TrimSpace(in.entry.Text)
	if text == "" {
		return nil
	}
	if in.field.Multiple {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	return []string{text}
}

// askBundle shows the bundle's user_config as a form: defaults filled in,
// required fields marked, sensitive ones masked (stored as secrets),
// folders and files with a picker. Install checks the answers first and
// keeps the form open with what is wrong.
func (im *importer) askBundle(b *mcpbundle.Bundle, next func()) {
	fields := b.Fields(mcpbundle.UserFolders())
	inputs := make([]bundleInput, len(fields))
	form := widget.NewForm()
	for i, f := range fields {
		in := bundleInput{field: f}
		var obj fyne.CanvasObject
		switch {
		case f.Type == mcpbundle.TypeBoolean:
			in.check = newCheck("", nil)
			in.check.SetChecked(len(f.Defaults) > 0 && f.Defaults[0] == "true")
			obj = in.check
		case f.Sensitive:
			in.entry = newPasswordEntry()
			obj = in.entry
		case f.Multiple:
			in.entry = newMultiLineEntry()
			in.entry.SetMinRowsVisible(2)
			in.entry.SetText(strings.Join(f.Defaults, "\n"))
			obj = in.entry
		default:
			in.entry = newEntry()
			in.entry.SetText(strings.Join(f.Defaults, ""))
			obj = in.entry
		}
		if in.entry != nil && (f.Type == mcpbundle.TypeDirectory || f.Type == mcpbundle.TypeFile) {
			obj = container.NewBorder(nil, nil, nil, im.pickerFor(in), obj)
		}
		label := f.Title
		if f.Required {
			label += " *"
		}
		item := widget.NewFormItem(label, obj)
		item.HintText = bundleHint(f)
		form.AppendItem(item)
		inputs[i] = in
	}
	m := b.Manifest
	intro := widget.NewLabel(fmt.Sprintf("%s %s by %s: %s\nIt installs switched off; switch it on once you have read what it runs. Fields marked * are required; sensitive values are stored as secrets, never in its folder.",
		m.Name, m.Version, m.Author.Name, m.Description))
	intro.Wrapping = fyne.TextWrapWord
	problem := widget.NewLabel("")
	problem.Wrapping = fyne.TextWrapWord
	problem.Importance = widget.DangerImportance
	problem.Hide()
	var d *dialog.CustomDialog
	answers := func() mcpbundle.Answers {
		a := mcpbundle.Answers{}
		for _, in := range inputs {
			a[in.field.Key] = in.values()
		}
		return a
	}
	install := newButton("Install", func() {
		a := answers()
		if _, err := b.Plan(a, mcpbundle.UserFolders()); err != nil {
			problem.SetText(err.Error())
			problem.Show()
			return
		}
		d.Hide()
		im.installBundle(b, a, false, next)
	})
	install.Importance = widget.HighImportance
	cancel := newButton("Cancel", func() { d.Hide(); next() })
	scroll := container.NewVScroll(form)
	scroll.SetMinSize(fyne.NewSize(460, min(float32(len(fields))*70+20, 360)))
	content := container.NewBorder(intro, problem, nil, nil, scroll)
	d = dialog.NewCustomWithoutButtons("Install the MCP bundle "+filepath.Base(b.Path), content, im.env.Window)
	d.SetButtons([]fyne.CanvasObject{cancel, install})
	d.Resize(fyne.NewSize(540, 0))
	d.Show()
}

// bundleHint is a field's description with its type's rule.
func bundleHint(f mcpbundle.Field) string {
	h := f.Description
	add := func(s string) {
		if h != "" {
			h += " "
		}
		h += s
	}
	switch f.Type {
	case mcpbundle.TypeNumber:
		switch {
		case f.Min != nil && f.Max != nil:
			add(fmt.Sprintf("(a number from %v to %v)", *f.Min, *f.Max))
		case f.Min != nil:
			add(fmt.Sprintf("(a number, at least %v)", *f.Min))
		case f.Max != nil:
			add(fmt.Sprintf("(a number, at most %v)", *f.Max))
		default:
			add("(a number)")
		}
	case mcpbundle.TypeDirectory, mcpbundle.TypeFile:
		if f.Multiple {
			add("(one per line)")
		}
	}
	if f.Sensitive {
		add("(stored as a secret)")
	}
	return h
}

// pickerFor is the Choose… button of a folder or file field.
func (im *importer) pickerFor(in bundleInput) *escButton {
	set := func(p string) {
		if in.field.Multiple && strings.TrimSpace(in.entry.Text) != "" {
			in.entry.SetText(strings.TrimRight(in.entry.Text, "\n") + "\n" + p)
			return
		}
		in.entry.SetText(p)
	}
	return newButton("Choose…", func() {
		if in.field.Type == mcpbundle.TypeDirectory {
			dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
				if err == nil && l != nil {
					set(l.Path())
				}
			}, im.env.Window).Show()
			return
		}
		dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				set(r.URI().Path())
				r.Close()
			}
		}, im.env.Window).Show()
	})
}

// installBundle installs b with answers in the background and reports it
// as every import is; a clash with an installed capability offers to
// replace it with the same answers.
func (im *importer) installBundle(b *mcpbundle.Bundle, answers mcpbundle.Answers, replace bool, next func()) {
	im.env.Go(func() {
		res, err := im.env.Core.InstallBundle(context.Background(), b, answers, replace)
		var text string
		if err == nil {
			text = installedText(b.Path, res)
			if s, serr := im.env.Core.MCPServerOf(res.Name); serr == nil {
				text += "\n  It runs, in the MCP sandbox: " + s.Launch()
			}
		}
		im.env.Do(func() {
			if err != nil {
				im.show(importTitle(0, 1), rejectedText(b.Path, err))
				if !replace && errors.Is(err, cerebellum.ErrExists) {
					confirm.Show("Replace "+b.Name+"?",
						fmt.Sprintf("%s is installed already. Replace it with the version in %s? The installed one stays until the new one has validated.", b.Name, filepath.Base(b.Path)),
						"Yes", "No",
						func(yes bool) {
							if yes {
								im.installBundle(b, answers, true, next)
								return
							}
							next()
						}, im.env.Window)
					return
				}
				next()
				return
			}
			im.show(importTitle(1, 0), text)
			next()
		})
	})
}
