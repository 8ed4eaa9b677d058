package settings

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// PageInstructions is the Instructions page's key for Show.
const PageInstructions hint.Page = "instructions"

// instructionsPage is Settings → Instructions: the identity and standing
// instructions every conversation starts with (brain/identity.md) in an
// editor, with Save, Undo changes and Reset to default, and the system
// prompt the model gets with the text as it stands in the editor. The
// core checks, writes and composes; the page shows.
type instructionsPage struct {
	env *bridge.Env

	editor  *escEntry
	size    *widget.Label
	where   *widget.Label
	save    *escButton
	undo    *escButton
	reset   *escButton
	outcome *problemLine
	preview *codeBlock
	page    *pageScroll

	// saved is the text as the core has it; the editor differs from it
	// while there are unsaved changes.
	saved string
	// gen numbers the previews asked for: one composed for older text
	// arrives too late to show.
	gen int
	// loaded: the text has been read once (the page was shown).
	loaded bool
}

func newInstructionsPage(env *bridge.Env) *instructionsPage {
	p := &instructionsPage{env: env}
	about := widget.NewLabel("Who the assistant is and how it works: the identity and standing instructions every conversation starts with. " +
		"The next turn of every conversation uses what you save here.")
	about.Wrapping = fyne.TextWrapWord
	p.editor = newMultiLineEntry()
	p.editor.Wrapping = fyne.TextWrapWord
	p.editor.SetMinRowsVisible(10)
	p.editor.SetPlaceHolder("You are Wrasse, a helpful desktop assistant…")
	p.editor.OnChanged = func(string) { p.edited() }
	p.size = helpText("")
	p.where = helpText("")
	p.save = newButtonWithIcon("Save", theme.DocumentSaveIcon(), p.Save)
	p.save.Importance = widget.HighImportance
	p.undo = newButtonWithIcon("Undo changes", theme.ContentUndoIcon(), p.Undo)
	p.reset = newButtonWithIcon("Reset to default…", theme.HistoryIcon(), p.confirmReset)
	p.outcome = newProblemLine(env.Show)
	p.preview = newCodeBlock(env.Copy, 320)
	previewHead := widget.NewLabelWithStyle("What the model gets", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	previewHelp := helpText("The system prompt of a new conversation with the text above: your instructions, then what Wrasse adds (the date, the computer, the granted folders, the capabilities the model can look up). Capabilities a conversation loads add their tools besides.")
	p.page = newPageScroll(container.NewVBox(about, p.editor, p.size,
		container.NewHBox(p.save, p.undo, p.reset), p.outcome.Object(), p.where,
		widget.NewSeparator(), previewHead, previewHelp, p.preview))
	p.outcome.Changed = p.page.Relayout
	p.showState()
	return p
}

// Object is the page.
func (p *instructionsPage) Object() fyne.CanvasObject { return p.page }

// Shown reads the text when the page is first shown; later, only an
// editor without unsaved changes follows the file.
func (p *instructionsPage) Shown() {
	if !p.loaded || !p.dirty() {
		p.load()
	}
}

// Changed follows a change made elsewhere (the CLI, another page): the
// editor takes it unless it holds unsaved changes.
func (p *instructionsPage) Changed() {
	if p.loaded && !p.dirty() {
		p.load()
	}
}

// dirty reports unsaved changes.
func (p *instructionsPage) dirty() bool { return p.loaded && p.editor.Text != p.saved }

// load reads the identity (off the UI goroutine: it reads a file) into
// the editor.
func (p *instructionsPage) load() {
	core := p.env.Core
	p.env.Go(func() {
		id, err := core.Identity()
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.loaded = true
			p.saved = id.Text
			p.where.SetText("Saved in " + id.Path + " (you can edit that file by hand too).")
			p.editor.SetText(id.Text) // OnChanged: the state and the preview follow
			p.edited()
		})
	})
}

// edited brings the size line, the buttons and the preview up to date
// with the editor.
func (p *instructionsPage) edited() {
	p.showState()
	p.gen++
	gen, text, core := p.gen, p.editor.Text, p.env.Core
	p.env.Go(func() {
		prompt := core.SystemPromptPreview(text)
		p.env.Do(func() {
			if gen != p.gen {
				return
			}
			p.preview.Set(fmt.Sprintf("System prompt, about %d tokens", cerebellum.EstimateTokens(prompt)), prompt)
			p.page.Relayout()
		})
	})
}

// showState says how the text stands: its size against the limit,
// whether it is saved, whether it is the default.
func (p *instructionsPage) showState() {
	text := p.editor.Text
	state := fmt.Sprintf("%.1f KB of %d KB", float64(len(text))/1024, assistant.MaxIdentityBytes/1024)
	p.size.Importance = widget.MediumImportance
	switch err := assistant.CheckIdentity(text); {
	case !p.loaded:
	case err != nil:
		state += " · " + errorText(err)
		p.size.Importance = widget.DangerImportance
	case p.dirty():
		state += " · unsaved changes"
		p.size.Importance = widget.WarningImportance
	case text == assistant.DefaultIdentity():
		state += " · saved · the default"
	default:
		state += " · saved"
	}
	p.size.SetText(state)
	if p.dirty() && assistant.CheckIdentity(text) == nil {
		p.save.Enable()
	} else {
		p.save.Disable()
	}
	if p.dirty() {
		p.undo.Enable()
	} else {
		p.undo.Disable()
	}
	if p.loaded && p.saved != assistant.DefaultIdentity() || p.dirty() {
		p.reset.Enable()
	} else {
		p.reset.Disable()
	}
}

// Save stores the editor's text through the core, which checks it.
func (p *instructionsPage) Save() {
	text, core := p.editor.Text, p.env.Core
	p.outcome.Clear()
	p.env.Go(func() {
		err := core.SetIdentity(text)
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.outcome.OK("Saved. The next turn of every conversation starts with these instructions.")
			p.load()
		})
	})
}

// Undo puts the saved text back in the editor.
func (p *instructionsPage) Undo() {
	p.outcome.Clear()
	p.editor.SetText(p.saved)
}

func (p *instructionsPage) confirmReset() {
	if p.env.Window == nil {
		p.Reset()
		return
	}
	confirm.Show("Reset to the default instructions?",
		"Your instructions are replaced by the ones that ship with Wrasse, unsaved changes included. The next turn of every conversation uses the default.",
		"Reset", "Cancel", func(ok bool) {
			if ok {
				p.Reset()
			}
		}, p.env.Window)
}

// Reset writes the default identity back through the core.
func (p *instructionsPage) Reset() {
	core := p.env.Core
	p.outcome.Clear()
	p.env.Go(func() {
		err := core.ResetIdentity()
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.outcome.OK("The default instructions are back.")
			p.load() // unsaved changes go too: the person said so
		})
	})
}
