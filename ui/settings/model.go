package settings

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/modelfacts"
)

// thinkingChoices are the Thinking select's values (workspace.Thinking).
var thinkingChoices = []string{"auto", "on", "off", "low", "medium", "high"}

// modelPage is the Model page: provider, base URL, model (picked from the
// server's list, with what each can do, or typed), the model's thinking
// (and Anthropic's budget), API key (masked, stored as a secret), context
// window; Save writes config.json through the core, Test asks the model.
//
// Each provider keeps its own values while the page is open: switching
// provider shows that provider's URL, model and key state (the saved ones
// for the saved provider, else its defaults) and brings back what was
// typed for it before, never another provider's. Leaving the page with
// changes not saved asks what to do with them, and Save says so before
// saving a model that Test just found missing or the server does not
// list.
type modelPage struct {
	env *bridge.Env

	provider *escSelect
	baseURL  *escEntry
	model    *escSelectEntry
	key      *escEntry
	window   *escEntry
	thinking *escSelect
	budget   *escEntry

	keyStatus *widget.Label
	forget    *escButton
	listBtn   *escButton
	listNote  *widget.Label
	facts     *widget.Label
	budgetBox *fyne.Container
	unsaved   *widget.Label
	save      *escButton
	test      *escButton
	outcome   *problemLine
	pull      *pullPanel
	notice    *modelNotice
	// about holds facts and listNote, hidden when both are.
	about *fyne.Container

	// errs are the field errors shown under each field, by config key.
	errs map[string]*widget.Label
	page *pageScroll
	obj  fyne.CanvasObject
	// listed is the base URL the model list was last fetched for.
	listed string
	models []string
	infos  map[string]provider.ModelInfo
	// loaded is the form as load last filled it: edits are what differs.
	loaded modelForm
	// shown is the provider whose values the fields hold; drafts are the
	// values left in the others' fields this visit.
	shown  string
	drafts map[string]modelForm
	// filling is set while the page fills its own fields.
	filling bool
	// missing names the server and model Test last found missing.
	missing string
	// asking is set while the unsaved-changes question shows.
	asking bool
}

func newModelPage(env *bridge.Env) *modelPage {
	p := &modelPage{env: env, errs: map[string]*widget.Label{}, drafts: map[string]modelForm{}}
	p.provider = newSelect(workspace.Providers(), func(string) { p.providerChanged() })
	p.baseURL = newEntry()
	// A list or its failure was for the URL as it was.
	p.baseURL.OnChanged = func(string) {
		p.forgetStaleList()
		p.edited()
	}
	p.model = newSelectEntry(nil)
	p.model.SetPlaceHolder("model name")
	p.model.OnChanged = func(string) { p.modelChanged() }
	p.key = newPasswordEntry()
	p.key.SetPlaceHolder("paste a key to store it (never shown again)")
	p.key.OnChanged = func(string) { p.edited() }
	p.window = newEntry()
	p.window.OnChanged = func(string) { p.edited() }
	p.thinking = newSelect(thinkingChoices, func(string) { p.edited() })
	p.budget = newEntry()
	p.budget.SetPlaceHolder("4096")
	p.budget.OnChanged = func(string) { p.edited() }
	p.keyStatus = helpText("")
	p.forget = newButtonWithIcon("Forget stored key", theme.DeleteIcon(), p.forgetKey)
	p.forget.Importance = widget.LowImportance
	p.listBtn = newButtonWithIcon("Load models", theme.ViewRefreshIcon(), p.loadModels)
	p.listNote = helpText("")
	p.facts = helpText("")
	p.facts.Hide()
	p.listNote.Hide()
	p.about = container.New(layout.NewCustomPaddedVBoxLayout(0), p.facts, p.listNote)
	p.about.Hide()
	p.unsaved = widget.NewLabel("Not saved yet")
	p.unsaved.Importance = widget.WarningImportance
	p.unsaved.Hide()
	p.save = newButtonWithIcon("Save", theme.DocumentSaveIcon(), p.Save)
	p.save.Importance = widget.HighImportance
	p.test = newButtonWithIcon("Test", theme.MediaPlayIcon(), p.Test)
	p.outcome = newProblemLine(env.Show)
	p.outcome.Rewrite = onModelPage
	p.pull = newPullPanel(env)
	p.notice = newModelNotice(p)

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
	p.budgetBox = container.NewHBox(widget.NewLabel("budget"), container.NewGridWrap(fyne.NewSize(110, p.budget.MinSize().Height), p.budget),
		widget.NewLabel("tokens"))
	thinkingRow := container.NewBorder(nil, nil, nil, p.budgetBox, p.thinking)
	form := widget.NewForm(
		widget.NewFormItem("Provider", field("provider", p.provider,
			"ollama: Ollama's own API. openai: any OpenAI-compatible server (LM Studio, vLLM, OpenRouter, OpenAI). anthropic: Anthropic's Messages API.")),
		widget.NewFormItem("Base URL", field("baseURL", p.baseURL, "Leave empty for the provider's default.")),
		// What the model can do and the list's note sit under the field,
		// taking no room when both are empty (a form row of their own left
		// a blank line).
		widget.NewFormItem("Model", container.NewVBox(field("model", container.NewBorder(nil, nil, nil, p.listBtn, p.model), ""), p.about)),
		widget.NewFormItem("Thinking", field("thinkingBudget", thinkingRow,
			"Whether this model reasons before answering, where the server lets Wrasse choose: auto leaves it to the server; low, medium and high set the effort.")),
		widget.NewFormItem("API key", field("apiKey", p.key, "")),
		widget.NewFormItem("", container.NewBorder(nil, nil, nil, p.forget, p.keyStatus)),
		widget.NewFormItem("Context window", field("contextWindow", p.window, "The model's context size in tokens.")),
	)
	buttons := container.NewHBox(p.save, p.test, p.unsaved)
	p.page = newPageScroll(container.NewVBox(p.notice.Object(), form, buttons, p.outcome.Object(), p.pull.Object()))
	p.outcome.Changed = p.page.Relayout
	p.obj = p.page
	p.load()
	return p
}

func (p *modelPage) Object() fyne.CanvasObject { return p.obj }

// load fills the fields from config.json as written; the placeholders
// show the defaults that apply to what is left empty. What was typed for
// other providers is forgotten.
func (p *modelPage) load() {
	f := p.saved()
	p.drafts = map[string]modelForm{}
	p.shown = f.Provider
	p.fill(f)
	p.loaded = f
	p.forgetStaleList()
	p.edited()
	p.notice.refresh()
}

// fill puts f in the fields (the provider's own values).
func (p *modelPage) fill(f modelForm) {
	p.filling = true
	defer func() { p.filling = false }()
	p.provider.SetSelected(f.Provider)
	p.baseURL.SetText(f.BaseURL)
	p.model.SetText(f.Model)
	p.window.SetText(f.ContextWindow)
	p.thinking.SetSelected(orAuto(f.Thinking))
	p.budget.SetText(f.ThinkingBudget)
	p.key.SetText(f.Key)
	p.placeholders()
	p.keyChanged()
	p.showFacts()
	setShown(p.budgetBox, f.Provider == "anthropic")
}

func orAuto(mode string) string {
	if mode == "" {
		return "auto"
	}
	return mode
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
	p.infos = nil
	p.model.SetOptions(nil)
	p.note("")
	p.showFacts()
}

// note sets the line under the model picker.
func (p *modelPage) note(text string) {
	p.listNote.SetText(text)
	setShown(p.listNote, text != "")
	p.relayout()
}

func (p *modelPage) relayout() {
	if p.about != nil {
		setShown(p.about, p.facts.Visible() || p.listNote.Visible())
	}
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

// providerChanged keeps what was typed for the provider left and shows
// the chosen one's values: typed earlier this visit, else saved (when it
// is the saved provider), else none, so its defaults apply. No URL, model
// or key of one provider is carried over to another.
func (p *modelPage) providerChanged() {
	if p.filling {
		return
	}
	next := p.provider.Selected
	if p.shown != "" && p.shown != next {
		left := p.form()
		left.Provider = p.shown
		p.drafts[p.shown] = left
	}
	p.shown = next
	f, ok := p.drafts[next]
	if !ok {
		f = p.valuesFor(next)
	}
	p.fill(f)
	p.models, p.infos, p.listed = nil, nil, ""
	p.model.SetOptions(nil)
	p.note("")
	p.showFacts()
	p.edited()
}

// valuesFor is the provider's values as saved: config.json's when it is
// the saved provider; else only the settings that are no provider's own
// (the thinking budget).
func (p *modelPage) valuesFor(prov string) modelForm {
	s := p.saved()
	if s.Provider == prov {
		return s
	}
	raw := p.env.Core.Config()
	def := workspace.Config{Provider: prov}.WithDefaults()
	return modelForm{Provider: prov, Thinking: raw.Thinking.For(def.Model), ThinkingBudget: s.ThinkingBudget}
}

// modelChanged shows the typed model's thinking setting and abilities.
func (p *modelPage) modelChanged() {
	if p.filling {
		return
	}
	p.filling = true
	p.thinking.SetSelected(orAuto(p.env.Core.Config().Thinking.For(p.modelName(p.form()))))
	p.filling = false
	p.showFacts()
	p.edited()
}

// modelName is the form's model, or the provider's default.
func (p *modelPage) modelName(f modelForm) string {
	if f.Model != "" {
		return f.Model
	}
	return workspace.Config{Provider: f.Provider}.WithDefaults().Model
}

// showFacts says what the server lists for the typed model.
func (p *modelPage) showFacts() {
	text := ""
	if m, ok := p.infos[p.model.Text]; ok {
		text = p.model.Text + ": " + modelfacts.Summary(m)
		if modelfacts.Summary(m) == "" {
			text = ""
		}
	}
	if text == p.facts.Text {
		return
	}
	p.facts.SetText(text)
	setShown(p.facts, text != "")
	p.relayout()
}

// edited shows whether the form holds changes not saved.
func (p *modelPage) edited() {
	if p.filling || p.unsaved == nil {
		return
	}
	setShown(p.unsaved, p.Dirty())
}

// Dirty reports whether the form differs from what is saved (a typed key
// counts).
func (p *modelPage) Dirty() bool { return p.form() != p.loaded }

// keyChanged says whether a key is stored for the chosen provider, never
// what it is.
func (p *modelPage) keyChanged() {
	secret, env := assistant.KeyNames(p.provider.Selected)
	if p.provider.Selected == "ollama" {
		p.forget.Hide()
		p.keyStatus.SetText("No key is stored; Ollama takes none.")
		return
	}
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
	p.keyStatus.SetText("No key is stored. Local servers such as LM Studio need none; others read " + env + " if it is set.")
}

// ConfigChanged follows a change made elsewhere (the CLI, config.json by
// hand, the first-run page) unless the user is editing: unsaved edits are
// kept. Having looked at another provider and come back is no edit, so it
// does not stop the page following; what was typed for another provider
// stays for when the person switches to it again.
func (p *modelPage) ConfigChanged() {
	if !p.Dirty() {
		kept := p.drafts
		p.load()
		for prov, f := range kept {
			if prov != p.shown && f != p.valuesFor(prov) {
				p.drafts[prov] = f
			}
		}
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

// Leaving is called when the page goes out of sight (another tab, or
// back to the chat): changes not saved are not lost silently; the person
// saves, discards or goes back to them.
func (p *modelPage) Leaving() {
	if !p.Dirty() || p.asking || p.env.Window == nil {
		return
	}
	p.asking = true
	text := widget.NewLabel("You changed the model settings without saving them. The next message still uses the saved ones.")
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomWithoutButtons("Save the model settings?", text, p.env.Window)
	answer := func(fn func()) func() {
		return func() {
			p.asking = false
			d.Hide()
			fn()
		}
	}
	back := newButton("Keep editing", answer(func() {
		if p.env.Navigate != nil {
			p.env.Navigate(hint.PageModel, "")
		}
	}))
	discard := newButton("Discard", answer(p.load))
	save := newButtonWithIcon("Save", theme.DocumentSaveIcon(), answer(p.Save))
	save.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{back, discard, save})
	d.Resize(fyne.NewSize(520, 200))
	d.Show()
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
		ContextWindow: p.window.Text, Thinking: orAuto(p.thinking.Selected), ThinkingBudget: p.budget.Text, Key: p.key.Text}
}

// saved is the form as config.json has it.
func (p *modelPage) saved() modelForm {
	raw := p.env.Core.Config()
	prov := raw.Provider
	if prov == "" {
		prov = workspace.ImpliedProvider(raw.BaseURL)
	}
	f := modelForm{Provider: prov, BaseURL: raw.BaseURL, Model: raw.Model, ContextWindow: itoa(raw.ContextWindow),
		ThinkingBudget: itoa(raw.ThinkingBudget)}
	f.Thinking = orAuto(raw.Thinking.For(p.modelName(f)))
	return f
}

// fields are the config keys the page edits, with their values (the
// thinking mode is per model: apply sets it).
func (f modelForm) fields() [][2]string {
	return [][2]string{{"provider", f.Provider}, {"baseURL", f.BaseURL}, {"model", f.Model}, {"contextWindow", f.ContextWindow},
		{"thinkingBudget", f.ThinkingBudget}}
}

// apply writes f into c, the model's thinking mode included.
func (f modelForm) apply(c *workspace.Config, model string) error {
	for _, kv := range f.fields() {
		if err := c.Set(kv[0], kv[1]); err != nil {
			return err
		}
	}
	c.Thinking = c.Thinking.With(model, f.Thinking)
	return nil
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

// Save validates the fields, says so before saving a model the server
// does not have, asks before a stored key goes to a new host, then
// writes config.json and stores a typed key.
func (p *modelPage) Save() {
	f := p.form()
	p.outcome.Clear()
	if !p.check(f) {
		p.outcome.Info("Nothing was saved: fix the fields marked above.")
		return
	}
	if why := p.missingModel(f); why != "" {
		p.confirmMissing(f, why)
		return
	}
	p.saveChecked(f, nil)
}

// missingModel says why the form's model may not exist on its server:
// Test just found it missing, or the server's list (loaded for this
// server) does not have it. "" when nothing says so.
func (p *modelPage) missingModel(f modelForm) string {
	model := p.modelName(f)
	if p.missing == missingKey(f, model) {
		return "Test just reported that the server has no model " + model + "."
	}
	if p.listed == listKey(f) && len(p.models) > 0 && !listed(p.models, model) {
		return "The server's list of models has no " + model + "."
	}
	return ""
}

// listed reports whether model is among ids, Ollama's ":latest" tag
// being implied.
func listed(ids []string, model string) bool {
	for _, id := range ids {
		if id == model || id == model+":latest" || strings.TrimSuffix(id, ":latest") == model {
			return true
		}
	}
	return false
}

func missingKey(f modelForm, model string) string { return listKey(f) + "|" + model }

// confirmMissing asks before saving a model the server does not have;
// for Ollama it offers to download it after saving.
func (p *modelPage) confirmMissing(f modelForm, why string) {
	model := p.modelName(f)
	text := widget.NewLabel(why + " Saved as it is, the next message fails until the model is there.")
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomWithoutButtons("Save "+model+" anyway?", text, p.env.Window)
	cancel := newButton("Cancel", func() { d.Hide() })
	anyway := newButton("Save anyway", func() {
		d.Hide()
		p.saveChecked(f, nil)
	})
	buttons := []fyne.CanvasObject{cancel, anyway}
	if f.Provider == "ollama" {
		download := newButtonWithIcon("Save and download", theme.DownloadIcon(), func() {
			d.Hide()
			p.saveChecked(f, func() { p.download(model) })
		})
		download.Importance = widget.HighImportance
		buttons = append(buttons, download)
	}
	d.SetButtons(buttons)
	d.Resize(fyne.NewSize(560, 200))
	d.Show()
}

// download pulls model into the saved Ollama, with progress on the page.
func (p *modelPage) download(model string) {
	p.pull.Start(model, func(err error) {
		p.relayout()
		if err == nil {
			p.missing = ""
			p.listed = "" // the list has one more
			p.loadModels()
		}
	})
	p.relayout()
	p.page.ScrollToBottom()
}

// saveChecked asks about the key's host when the base URL moves, then
// saves; then runs after a successful save.
func (p *modelPage) saveChecked(f modelForm, then func()) {
	// A stored key goes only to the host it is kept for: moving the base
	// URL elsewhere asks first (a key typed now is for the new host).
	next := p.env.Core.Config()
	_ = f.apply(&next, p.modelName(f)) // checked above
	if move, moved := p.env.Core.KeyMoveFor(next); moved && f.Key == "" {
		text := widget.NewLabel(move.Question() + " If you keep it, the model cannot be asked until you save this again and send it.")
		text.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustomConfirm("Send your "+keyTitle(move.Provider)+" key to "+move.To+"?", "Send the key", "Keep it for "+keyFrom(move),
			text, func(send bool) { p.saveForm(f, send, then) }, p.env.Window)
		d.Resize(fyne.NewSize(560, 220))
		d.Show()
		return
	}
	p.saveForm(f, false, then)
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
// URL's host, as the person answered; then runs after a successful save.
func (p *modelPage) saveForm(f modelForm, sendKey bool, then func()) {
	p.save.Disable()
	model := p.modelName(f)
	p.env.Go(func() {
		_, err := p.env.Core.UpdateConfig(func(c *workspace.Config) error { return f.apply(c, model) })
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
			p.drafts = map[string]modelForm{}
			p.keyChanged()
			p.forgetStaleList()
			p.edited()
			p.notice.refresh()
			if errors.Is(problem, assistant.ErrKeyHost) {
				p.outcome.Error(problem)
				return
			}
			msg := "Saved. The next message uses " + f.Provider + " " + p.env.Core.Model().Model + "."
			if sentTo != "" {
				msg += " Your key is now sent to " + sentTo + "."
			}
			p.outcome.OK(msg)
			if then != nil {
				then()
			}
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
	model := p.modelName(f)
	p.env.Go(func() {
		text, err := "", error(nil)
		prov, err := formProvider(p.env.Core, f)
		if err == nil {
			text, err = probe(context.Background(), prov, model)
		}
		closeProvider(prov)
		p.env.Do(func() {
			p.test.Enable()
			// Save says so before saving a model Test found missing.
			if provider.KindOf(err) == provider.ErrNotFound {
				p.missing = missingKey(f, model)
			} else if p.missing == missingKey(f, model) {
				p.missing = ""
			}
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
			if p.listed != listKey(f) {
				return // the form moved on to another server meanwhile
			}
			switch {
			case errors.Is(err, provider.ErrNoModelList):
				p.note("This server cannot list its models: type the model name.")
				return
			case err != nil:
				p.listed = ""
				p.note(joinSentences("Could not list the server's models: "+onModelPage(plainError(err)), "You can still type a model name."))
				return
			}
			ids := make([]string, 0, len(models))
			p.infos = map[string]provider.ModelInfo{}
			tools := 0
			for _, m := range models {
				if !modelfacts.Chat(m) {
					continue // an embedding model cannot hold a conversation
				}
				ids = append(ids, m.ID)
				p.infos[m.ID] = m
				if m.Can(provider.AbilityTools) {
					tools++
				}
			}
			p.models = ids
			p.model.SetOptions(ids)
			note := plural(len(ids), "model", "models") + " on the server: pick one from the list or type a name."
			if len(ids) > 0 && tools == 0 && models[0].Abilities != nil {
				note = joinSentences(note, "None of them can use tools: the assistant answers without its tools.")
			}
			p.note(note)
			p.showFacts()
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

// setShown shows or hides o.
func setShown(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}
