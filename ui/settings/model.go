package settings

import (
	"context"
	"errors"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// modelPage is the Model page: provider, base URL, model (picked from the
// server's list or typed), API key (masked, stored as a secret), context
// window; Save writes config.json through the core, Test asks the model.
type modelPage struct {
	env *bridge.Env

	provider *widget.Select
	baseURL  *widget.Entry
	model    *widget.SelectEntry
	key      *widget.Entry
	window   *widget.Entry

	keyStatus *widget.Label
	forget    *widget.Button
	listBtn   *widget.Button
	listNote  *widget.Label
	save      *widget.Button
	test      *widget.Button
	outcome   *problemLine

	// errs are the field errors shown under each field, by config key.
	errs map[string]*widget.Label
	page *pageScroll
	obj  fyne.CanvasObject
	// listed is the base URL the model list was last fetched for.
	listed string
	models []string
	// loaded is the form as load last filled it: edits are what differs.
	loaded modelForm
}

func newModelPage(env *bridge.Env) *modelPage {
	p := &modelPage{env: env, errs: map[string]*widget.Label{}}
	p.provider = widget.NewSelect(workspace.Providers(), func(string) { p.providerChanged() })
	p.baseURL = widget.NewEntry()
	// A list or its failure was for the URL as it was.
	p.baseURL.OnChanged = func(string) { p.forgetStaleList() }
	p.model = widget.NewSelectEntry(nil)
	p.model.SetPlaceHolder("model name")
	p.key = widget.NewPasswordEntry()
	p.key.SetPlaceHolder("paste a key to store it (never shown again)")
	p.window = widget.NewEntry()
	p.keyStatus = helpText("")
	p.forget = widget.NewButtonWithIcon("Forget stored key", theme.DeleteIcon(), p.forgetKey)
	p.forget.Importance = widget.LowImportance
	p.listBtn = widget.NewButtonWithIcon("Load models", theme.ViewRefreshIcon(), p.loadModels)
	p.listNote = helpText("")
	p.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), p.Save)
	p.save.Importance = widget.HighImportance
	p.test = widget.NewButtonWithIcon("Test", theme.MediaPlayIcon(), p.Test)
	p.outcome = newProblemLine(env.Show)
	p.outcome.Rewrite = onModelPage

	field := func(key string, obj fyne.CanvasObject, help string) fyne.CanvasObject {
		e := widget.NewLabel("")
		e.Importance = widget.DangerImportance
		e.Wrapping = fyne.TextWrapWord
		e.Hide()
		p.errs[key] = e
		box := container.NewVBox(obj, e)
		if help != "" {
			box.Add(helpText(help))
		}
		return box
	}
	form := widget.NewForm(
		widget.NewFormItem("Provider", field("provider", p.provider,
			"ollama: Ollama's own API. openai: any OpenAI-compatible server (LM Studio, vLLM, OpenRouter, OpenAI). anthropic: Anthropic's Messages API.")),
		widget.NewFormItem("Base URL", field("baseURL", p.baseURL, "Leave empty for the provider's default.")),
		widget.NewFormItem("Model", field("model", container.NewBorder(nil, nil, nil, p.listBtn, p.model), "")),
		widget.NewFormItem("", p.listNote),
		widget.NewFormItem("API key", field("apiKey", p.key, "")),
		widget.NewFormItem("", container.NewBorder(nil, nil, nil, p.forget, p.keyStatus)),
		widget.NewFormItem("Context window", field("contextWindow", p.window, "The model's context size in tokens.")),
	)
	buttons := container.NewHBox(p.save, p.test)
	p.page = newPageScroll(container.NewVBox(form, buttons, p.outcome.Object()))
	p.outcome.Changed = p.page.Relayout
	p.obj = p.page
	p.load()
	return p
}

func (p *modelPage) Object() fyne.CanvasObject { return p.obj }

// load fills the fields from config.json as written; the placeholders
// show the defaults that apply to what is left empty.
func (p *modelPage) load() {
	raw := p.env.Core.Config()
	prov := raw.Provider
	if prov == "" {
		prov = workspace.ImpliedProvider(raw.BaseURL)
	}
	p.provider.OnChanged = nil
	p.provider.SetSelected(prov)
	p.provider.OnChanged = func(string) { p.providerChanged() }
	p.baseURL.SetText(raw.BaseURL)
	p.model.SetText(raw.Model)
	p.window.SetText(itoa(raw.ContextWindow))
	p.loaded = p.saved()
	p.placeholders()
	p.keyChanged()
	p.forgetStaleList()
}

// forgetStaleList drops the model list and its note when they were for
// another server than the form's (a failed listing is never current), so
// an old "Could not list the server's models" does not outlive a fix.
func (p *modelPage) forgetStaleList() {
	if p.listed != "" && p.listed == listKey(p.form()) {
		return
	}
	p.listed = ""
	p.models = nil
	p.model.SetOptions(nil)
	p.note("")
}

// note sets the line under the model picker.
func (p *modelPage) note(text string) {
	p.listNote.SetText(text)
	if p.page != nil {
		p.page.Relayout()
	}
}

// listKey names the server a model list is for.
func listKey(f modelForm) string { return f.BaseURL + "|" + f.Provider }

// placeholders show what an empty field means for the chosen provider.
func (p *modelPage) placeholders() {
	def := workspace.Config{Provider: p.provider.Selected}.WithDefaults()
	if def.BaseURL != "" {
		p.baseURL.SetPlaceHolder(def.BaseURL)
	} else {
		p.baseURL.SetPlaceHolder("the provider's own API (https://api.anthropic.com)")
	}
	p.model.SetPlaceHolder(def.Model)
	p.window.SetPlaceHolder("learnt from the server (" + strconv.Itoa(workspace.DefaultContextWindow) + " if it does not say)")
}

// providerChanged keeps a base URL that was only the other provider's
// default from following it.
func (p *modelPage) providerChanged() {
	if p.baseURL.Text == workspace.DefaultBaseURL && p.provider.Selected != workspace.DefaultProvider {
		p.baseURL.SetText("")
	}
	p.model.SetOptions(nil)
	p.models = nil
	p.listed = ""
	p.note("")
	p.placeholders()
	p.keyChanged()
}

// keyChanged says whether a key is stored for the chosen provider, never
// what it is.
func (p *modelPage) keyChanged() {
	secret, env := assistant.KeyNames(p.provider.Selected)
	if p.env.Core.HasSecret(secret) {
		p.keyStatus.SetText("A key is stored for " + p.provider.Selected + ". Paste a new one to replace it.")
		p.forget.Show()
		return
	}
	p.forget.Hide()
	if p.provider.Selected == "anthropic" {
		p.keyStatus.SetText("No key is stored. Anthropic needs one (or set " + env + " before starting Wrasse).")
		return
	}
	p.keyStatus.SetText("No key is stored. Local servers such as Ollama need none; others read " + env + " if it is set.")
}

// ConfigChanged follows a change made elsewhere (the CLI, config.json by
// hand) unless the user is editing: unsaved edits are kept.
func (p *modelPage) ConfigChanged() {
	f := p.form()
	f.Key = ""
	if f == p.loaded {
		p.load()
		return
	}
	p.keyChanged()
}

// Shown is called when the tab comes up: fill the model list once per
// base URL.
func (p *modelPage) Shown() {
	if p.listed != listKey(p.form()) {
		p.loadModels()
	}
}

// Focus puts the cursor in the field a hint named.
func (p *modelPage) Focus(target string) {
	c := p.env.Window.Canvas()
	switch target {
	case "apiKey":
		c.Focus(p.key)
	case "baseURL":
		c.Focus(p.baseURL)
	case "model":
		c.Focus(p.model)
	case "contextWindow":
		c.Focus(p.window)
	}
}

func (p *modelPage) form() modelForm {
	return modelForm{Provider: p.provider.Selected, BaseURL: p.baseURL.Text, Model: p.model.Text,
		ContextWindow: p.window.Text, Key: p.key.Text}
}

// saved is the form as config.json has it.
func (p *modelPage) saved() modelForm {
	raw := p.env.Core.Config()
	prov := raw.Provider
	if prov == "" {
		prov = workspace.ImpliedProvider(raw.BaseURL)
	}
	return modelForm{Provider: prov, BaseURL: raw.BaseURL, Model: raw.Model, ContextWindow: itoa(raw.ContextWindow)}
}

// fields are the config keys the page edits, with their values.
func (f modelForm) fields() [][2]string {
	return [][2]string{{"provider", f.Provider}, {"baseURL", f.BaseURL}, {"model", f.Model}, {"contextWindow", f.ContextWindow}}
}

// check validates each field as config.json's Set would, showing each
// error under its field; it reports whether all are fine.
func (p *modelPage) check(f modelForm) bool {
	ok := true
	for _, kv := range f.fields() {
		var scratch workspace.Config
		err := scratch.Set(kv[0], kv[1])
		if e := p.errs[kv[0]]; e != nil {
			if err != nil {
				e.SetText(errorText(err))
				e.Show()
				ok = false
			} else {
				e.Hide()
			}
		}
	}
	return ok
}

// Save validates the fields, writes config.json and stores a typed key.
func (p *modelPage) Save() {
	f := p.form()
	p.outcome.Clear()
	if !p.check(f) {
		p.outcome.Info("Nothing was saved: fix the fields marked above.")
		return
	}
	// A stored key goes only to the host it is kept for: moving the base
	// URL elsewhere asks first (a key typed now is for the new host).
	next := p.env.Core.Config()
	for _, kv := range f.fields() {
		_ = next.Set(kv[0], kv[1]) // checked above
	}
	if move, moved := p.env.Core.KeyMoveFor(next); moved && f.Key == "" {
		text := widget.NewLabel(move.Question() + " If you keep it, the model cannot be asked until you save this again and send it.")
		text.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustomConfirm("Send your "+keyTitle(move.Provider)+" key to "+move.To+"?", "Send the key", "Keep it for "+keyFrom(move),
			text, func(send bool) { p.saveForm(f, send) }, p.env.Window)
		d.Resize(fyne.NewSize(560, 220))
		d.Show()
		return
	}
	p.saveForm(f, false)
}

func keyTitle(providerName string) string {
	if providerName == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI"
}

func keyFrom(m assistant.KeyMove) string {
	if m.From == "" {
		return "no host"
	}
	return m.From
}

// saveForm writes f; sendKey binds the stored key to the saved base
// URL's host, as the person answered.
func (p *modelPage) saveForm(f modelForm, sendKey bool) {
	p.save.Disable()
	p.env.Go(func() {
		_, err := p.env.Core.UpdateConfig(func(c *workspace.Config) error {
			for _, kv := range f.fields() {
				if err := c.Set(kv[0], kv[1]); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil && f.Key != "" {
			err = p.env.Core.SetAPIKey(f.Provider, f.Key)
		}
		sentTo := ""
		if err == nil && sendKey {
			sentTo, err = p.env.Core.SendKeyTo(p.env.Core.Model().Provider)
		}
		problem := p.env.Core.ModelProblem()
		p.env.Do(func() {
			p.save.Enable()
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.key.SetText("")
			f.Key = ""
			p.loaded = f // what is saved is no longer an edit
			p.keyChanged()
			p.forgetStaleList()
			if errors.Is(problem, assistant.ErrKeyHost) {
				p.outcome.Error(problem)
				return
			}
			msg := "Saved. The next message uses " + f.Provider + " " + p.env.Core.Model().Model + "."
			if sentTo != "" {
				msg += " Your key is now sent to " + sentTo + "."
			}
			p.outcome.OK(msg)
		})
	})
}

// Test makes one real request with the form's values (saved or not) and
// says how it went.
func (p *modelPage) Test() {
	f := p.form()
	p.outcome.Clear()
	if !p.check(f) {
		p.outcome.Info("Fix the fields marked above first.")
		return
	}
	p.test.Disable()
	p.outcome.Info("Asking " + f.Provider + "…")
	p.env.Go(func() {
		text, err := "", error(nil)
		prov, err := formProvider(p.env.Core, f)
		if err == nil {
			model := f.Model
			if model == "" {
				model = workspace.Config{Provider: f.Provider}.WithDefaults().Model
			}
			text, err = probe(context.Background(), prov, model)
		}
		closeProvider(prov)
		p.env.Do(func() {
			p.test.Enable()
			if err != nil {
				if _, ok := hint.Of(err); !ok {
					err = fmtError{plainError(err), err}
				}
				p.outcome.Error(err)
				p.page.ScrollToBottom()
				return
			}
			p.outcome.OK(text)
			p.page.ScrollToBottom()
		})
	})
}

// loadModels fills the model picker from the server's list.
func (p *modelPage) loadModels() {
	f := p.form()
	if !p.check(f) {
		return
	}
	p.listed = listKey(f)
	p.note("Loading the server's models…")
	p.env.Go(func() {
		var models []provider.ModelInfo
		prov, err := formProvider(p.env.Core, f)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
			models, err = provider.ListModels(ctx, prov)
			cancel()
		}
		closeProvider(prov)
		p.env.Do(func() {
			switch {
			case errors.Is(err, provider.ErrNoModelList):
				p.note("This server cannot list its models: type the model name.")
				return
			case err != nil:
				p.listed = ""
				p.note(joinSentences("Could not list the server's models: "+onModelPage(plainError(err)), "You can still type a model name."))
				return
			}
			ids := make([]string, len(models))
			for i, m := range models {
				ids[i] = m.ID
			}
			p.models = ids
			p.model.SetOptions(ids)
			p.note(plural(len(ids), "model", "models") + " on the server: pick one from the list or type a name.")
		})
	})
}

// Models are the picker's options.
func (p *modelPage) Models() []string { return p.models }

// forgetKey deletes the stored key of the chosen provider.
func (p *modelPage) forgetKey() {
	secret, _ := assistant.KeyNames(p.provider.Selected)
	p.env.Go(func() {
		err := p.env.Core.DeleteSecret(secret)
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
			} else {
				p.outcome.OK("The stored key is forgotten.")
			}
			p.keyChanged()
		})
	})
}

// fmtError shows a plain sentence while keeping the original error (and
// its hint) underneath.
type fmtError struct {
	text string
	err  error
}

func (e fmtError) Error() string { return e.text }
func (e fmtError) Unwrap() error { return e.err }

func closeProvider(p provider.Provider) {
	if c, ok := p.(interface{ Close() error }); ok {
		c.Close()
	}
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
