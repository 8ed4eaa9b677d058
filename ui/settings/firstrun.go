package settings

import (
	"context"
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/modelfacts"
)

// FirstRunNeeded reports whether the window should open on the first-run
// page: config.json names no provider, base URL or model (the person
// never chose one) and the workspace has no conversation yet.
func FirstRunNeeded(core *assistant.App) bool {
	raw := core.Config()
	if raw.Provider != "" || raw.BaseURL != "" || raw.Model != "" {
		return false
	}
	convs, err := core.History().ListConversations()
	return err == nil && len(convs) == 0
}

// FirstRun is the page a new workspace opens on, in place of the chat,
// until a model is set up. It looks for a model server on this computer
// (Ollama and LM Studio on their usual addresses): when one answers it
// lists its models with what each can do and picks one that calls tools;
// when Ollama has none, it offers to download one with a progress bar;
// when nothing answers, a setup page offers installing Ollama or a cloud
// provider with its key, side by side (firstrunsetup.go). Whatever the
// person picks is saved to config.json through the core, so they reach a
// working chat without editing a file.
type FirstRun struct {
	// OnDone is called when a model is set up or the person skips the
	// page (on the UI goroutine).
	OnDone func()

	env  *bridge.Env
	find ServerFinder

	title   *widget.Label
	intro   *widget.Label
	body    *fyne.Container
	outcome *problemLine
	page    *pageScroll
	setup   *setupPage
	pull    *pullPanel
	// choices are the radio groups of the servers found, by server, with
	// their labels' model IDs.
	choices map[*widget.RadioGroup]serverChoice
	start   *escButton
	picked  serverChoice
	model   string
	done    bool
}

// ServerFinder looks for model servers on this computer
// (assistant.FindLocalServers; tests point it at fakes).
type ServerFinder func(ctx context.Context) []assistant.LocalServer

// serverChoice is a server found and its models by their labels.
type serverChoice struct {
	server assistant.LocalServer
	ids    map[string]string
}

// NewFirstRun builds the page; find looks for local servers
// (assistant.FindLocalServers). Call Start to begin looking.
func NewFirstRun(env *bridge.Env, find ServerFinder) *FirstRun {
	f := &FirstRun{env: env, find: find, choices: map[*widget.RadioGroup]serverChoice{}}
	f.title = widget.NewLabelWithStyle("Welcome to Wrasse", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	f.title.SizeName = theme.SizeNameHeadingText
	f.intro = widget.NewLabel("")
	f.intro.Wrapping = fyne.TextWrapWord
	f.body = container.NewVBox()
	f.outcome = newProblemLine(env.Show)
	f.pull = newPullPanel(env)
	f.setup = newSetupPage(env, f.finish, f.Start)
	skip := newButton("Skip: set it up later on the Model page", func() { f.finish() })
	skip.Importance = widget.LowImportance
	f.page = newPageScroll(container.NewVBox(f.title, f.intro, f.body, f.pull.Object(), f.outcome.Object(),
		container.NewHBox(skip)))
	f.outcome.Changed = f.page.Relayout
	return f
}

// Object is the page.
func (f *FirstRun) Object() fyne.CanvasObject { return f.page }

// Start looks for model servers on this computer in the background and
// shows what it found.
func (f *FirstRun) Start() {
	f.intro.SetText("Looking for a model server on this computer (Ollama on localhost:11434, LM Studio on localhost:1234)…")
	f.body.Objects = nil
	f.body.Refresh()
	f.outcome.Clear()
	f.page.Relayout()
	f.env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), findTimeout)
		found := f.find(ctx)
		cancel()
		f.env.Do(func() { f.found(found) })
	})
}

// findTimeout bounds the search for local servers.
const findTimeout = 10 * time.Second

// found shows the servers that answered, or the setup page.
func (f *FirstRun) found(servers []assistant.LocalServer) {
	if f.done {
		return
	}
	f.body.Objects = nil
	f.choices = map[*widget.RadioGroup]serverChoice{}
	if len(servers) == 0 {
		f.intro.SetText("No model server answered on this computer. Choose how Wrasse should reach a model:")
		f.body.Add(f.setup.Object())
		f.body.Refresh()
		f.page.Relayout()
		return
	}
	f.intro.SetText("Wrasse found a model server on this computer. Pick the model to chat with; one that uses tools lets the assistant act (read files, run commands, search the web).")
	f.start = newButtonWithIcon("", theme.ConfirmIcon(), f.useChoice)
	f.start.Importance = widget.HighImportance
	first := true
	for _, s := range servers {
		f.body.Add(f.serverCard(s, first))
		first = false
	}
	other := newButton("Other choices (a cloud provider, another server)…", func() {
		f.body.Objects = []fyne.CanvasObject{f.setup.Object()}
		f.body.Refresh()
		f.page.Relayout()
	})
	f.body.Add(container.NewHBox(f.start, other))
	f.refreshStart()
	f.body.Refresh()
	f.page.Relayout()
}

// serverCard lists one server's models to choose from, the suggested one
// chosen (on the first server); an Ollama without a model that calls
// tools offers downloads.
func (f *FirstRun) serverCard(s assistant.LocalServer, first bool) fyne.CanvasObject {
	title := s.Name + " at " + s.BaseURL
	if s.Version != "" {
		title = s.Name + " " + s.Version + " at " + s.BaseURL
	}
	ch := serverChoice{server: s, ids: map[string]string{}}
	var labels []string
	for _, m := range s.Models {
		if !modelfacts.Chat(m) {
			continue
		}
		label := m.ID
		if sum := modelfacts.Summary(m); sum != "" {
			label += "  —  " + sum
		}
		ch.ids[label] = m.ID
		labels = append(labels, label)
	}
	box := container.NewVBox()
	radio := widget.NewRadioGroup(labels, nil)
	radio.OnChanged = func(label string) {
		if label == "" {
			return
		}
		// One choice across all servers.
		for r := range f.choices {
			if r != radio && r.Selected != "" {
				r.SetSelected("")
			}
		}
		f.picked, f.model = ch, ch.ids[label]
		f.refreshStart()
	}
	f.choices[radio] = ch
	if len(labels) > 0 {
		box.Add(radio)
	}
	switch {
	case len(labels) == 0:
		box.Add(widget.NewLabel(s.Name + " has no model yet."))
	case s.Suggested == "":
		note := widget.NewLabel("None of these models can use tools, which the assistant needs to act: it would only chat.")
		note.Wrapping = fyne.TextWrapWord
		note.Importance = widget.WarningImportance
		box.Add(note)
	}
	if s.Provider == "ollama" && s.Suggested == "" {
		box.Add(f.downloads(s))
	}
	if first {
		for label, id := range ch.ids {
			if id == s.Suggested {
				radio.SetSelected(label)
			}
		}
	}
	return section(title, box)
}

// section is a card with a bold title of the text's size (a Card's own
// title is a heading, too loud for a page of choices).
func section(title string, content fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.Wrapping = fyne.TextWrapWord
	return widget.NewCard("", "", container.NewVBox(t, content))
}

// downloads offers the suggested models that call tools for download
// into Ollama, each a button.
func (f *FirstRun) downloads(s assistant.LocalServer) fyne.CanvasObject {
	text := widget.NewLabel("Download a model that uses tools (a few GB; Ollama keeps it for every later run):")
	text.Wrapping = fyne.TextWrapWord
	row := container.NewHBox()
	for _, name := range assistant.SuggestedModels {
		row.Add(newButtonWithIcon("Download "+name, theme.DownloadIcon(), func() { f.download(s, name) }))
	}
	return container.NewVBox(text, row)
}

// download saves Ollama as the provider, then pulls name into it and
// starts the chat with it once it is there.
func (f *FirstRun) download(s assistant.LocalServer, name string) {
	if f.pull.Running() {
		return
	}
	f.outcome.Clear()
	f.save(s.Provider, s.BaseURL, "", "", func() {
		f.pull.Start(name, func(err error) {
			f.page.Relayout()
			if err != nil {
				return // the panel says why; the buttons stay
			}
			f.save(s.Provider, s.BaseURL, name, "", f.finish)
		})
		f.page.Relayout()
		f.page.ScrollToBottom()
	})
}

// refreshStart names the chosen model on the start button.
func (f *FirstRun) refreshStart() {
	if f.start == nil {
		return
	}
	if f.model == "" {
		f.start.SetText("Choose a model above")
		f.start.Disable()
		return
	}
	f.start.SetText("Start chatting with " + f.model)
	f.start.Enable()
}

// useChoice saves the chosen server and model and opens the chat.
func (f *FirstRun) useChoice() {
	if f.model == "" {
		return
	}
	f.save(f.picked.server.Provider, f.picked.server.BaseURL, f.model, "", f.finish)
}

// save writes the provider, base URL (left out when it is the
// provider's default) and model to config.json, and the key, then runs
// then; a failure shows under the page.
func (f *FirstRun) save(prov, base, model, key string, then func()) {
	if base == (workspace.Config{Provider: prov}).WithDefaults().BaseURL {
		base = ""
	}
	f.env.Go(func() {
		_, err := f.env.Core.UpdateConfig(func(c *workspace.Config) error {
			for _, kv := range [][2]string{{"provider", prov}, {"baseURL", base}, {"model", model}} {
				if err := c.Set(kv[0], kv[1]); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil && key != "" {
			err = f.env.Core.SetAPIKey(prov, key)
		}
		if err == nil {
			err = f.env.Core.ModelProblem()
		}
		f.env.Do(func() {
			if err != nil {
				f.outcome.Error(err)
				f.page.ScrollToBottom()
				return
			}
			if then != nil {
				then()
			}
		})
	})
}

// finish leaves the page for the chat.
func (f *FirstRun) finish() {
	if f.done {
		return
	}
	f.done = true
	f.pull.Cancel()
	if f.OnDone != nil {
		f.OnDone()
	}
}

// ollamaDownload is where Ollama is downloaded from.
var ollamaDownload = &url.URL{Scheme: "https", Host: "ollama.com", Path: "/download"}

// localModelHint is the command that gets a model that calls tools.
func localModelHint() string {
	return "ollama pull " + assistant.SuggestedModels[0]
}

// ConfigChanged follows a change of config.json made elsewhere (the Model
// page, the CLI): once it names a model, the setup is done.
func (f *FirstRun) ConfigChanged() {
	if !f.pull.Running() && f.env.Core.Config().Model != "" {
		f.finish()
	}
}

// Close stops a download the page runs.
func (f *FirstRun) Close() { f.pull.Cancel() }
