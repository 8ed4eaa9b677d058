package settings

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// cloudChoice is a model service the setup page offers, with the values
// that reach it.
type cloudChoice struct {
	Name     string
	Provider string
	BaseURL  string
	Model    string
	// Key: the service needs an API key (a local server does not).
	Key bool
}

// cloudChoices are the services the setup page offers: the big hosted
// APIs and the OpenAI-compatible servers people run themselves, each
// with its base URL filled in.
var cloudChoices = []cloudChoice{
	{"OpenAI", "openai", "https://api.openai.com/v1", "gpt-4.1-mini", true},
	{"Anthropic", "anthropic", "", "claude-sonnet-4-5", true},
	{"OpenRouter", "openai", "https://openrouter.ai/api/v1", "openai/gpt-4.1-mini", true},
	{"Groq", "openai", "https://api.groq.com/openai/v1", "llama-3.3-70b-versatile", true},
	{"Gemini", "openai", "https://generativelanguage.googleapis.com/v1beta/openai", "gemini-2.5-flash", true},
	{"Mistral", "openai", "https://api.mistral.ai/v1", "mistral-small-latest", true},
	{"DeepSeek", "openai", "https://api.deepseek.com/v1", "deepseek-chat", true},
	{"LM Studio", "openai", "http://localhost:1234/v1", "", false},
	{"llama.cpp server", "openai", "http://localhost:8080/v1", "", false},
	{"vLLM", "openai", "http://localhost:8000/v1", "", false},
	{"Other OpenAI-compatible server", "openai", "", "", false},
}

// setupPage is the first-run page when no model server answered: install
// Ollama (with the link, and Look again), or a service with its key,
// side by side; Test asks the model before anything is saved.
type setupPage struct {
	env    *bridge.Env
	done   func()
	choice *escSelect
	base   *escEntry
	model  *escEntry
	key    *escEntry
	keyRow *fyne.Container
	test   *escButton
	save   *escButton
	out    *problemLine
	obj    fyne.CanvasObject
}

func newSetupPage(env *bridge.Env, done, lookAgain func()) *setupPage {
	s := &setupPage{env: env, done: done}
	// Install Ollama.
	local := widget.NewLabel("Ollama runs models on this computer: private, free, and no key. Install it, download a model that uses tools (" +
		localModelHint() + "), then look again.")
	local.Wrapping = fyne.TextWrapWord
	link := widget.NewHyperlink("ollama.com/download", ollamaDownload)
	link.OnTapped = func() { env.OpenURL(ollamaDownload) }
	again := newButtonWithIcon("Look again", theme.ViewRefreshIcon(), lookAgain)
	left := section("Run models on this computer", container.NewVBox(local, link, container.NewHBox(again)))

	// A service with its key.
	names := make([]string, len(cloudChoices))
	for i, c := range cloudChoices {
		names[i] = c.Name
	}
	s.base = newEntry()
	s.model = newEntry()
	s.model.SetPlaceHolder("the model's name, as the server lists it")
	s.key = newPasswordEntry()
	s.key.SetPlaceHolder("paste the API key")
	s.choice = newSelect(names, func(string) { s.chosen() })
	s.test = newButtonWithIcon("Test", theme.MediaPlayIcon(), s.Test)
	s.save = newButtonWithIcon("Save and start", theme.ConfirmIcon(), s.Save)
	s.save.Importance = widget.HighImportance
	s.out = newProblemLine(env.Show)
	s.keyRow = container.NewVBox(widget.NewLabel("API key"), s.key, helpText("Kept in Wrasse's secrets and sent only to this base URL's host."))
	form := container.NewVBox(s.choice,
		widget.NewLabel("Base URL"), s.base,
		widget.NewLabel("Model"), s.model,
		s.keyRow,
		container.NewHBox(s.save, s.test), s.out.Object())
	right := section("Use a service or another server", form)
	s.obj = container.NewGridWithColumns(2, left, right)
	s.choice.SetSelected(cloudChoices[0].Name)
	return s
}

// Object is the two choices side by side.
func (s *setupPage) Object() fyne.CanvasObject { return s.obj }

// chosen fills the fields for the service chosen.
func (s *setupPage) chosen() {
	c := s.current()
	s.base.SetText(c.BaseURL)
	if c.BaseURL == "" && c.Provider == "anthropic" {
		s.base.SetPlaceHolder("https://api.anthropic.com (the default)")
	} else {
		s.base.SetPlaceHolder("the server's API root, such as http://localhost:1234/v1")
	}
	s.model.SetText(c.Model)
	setShown(s.keyRow, c.Key)
	s.out.Clear()
}

func (s *setupPage) current() cloudChoice {
	for _, c := range cloudChoices {
		if c.Name == s.choice.Selected {
			return c
		}
	}
	return cloudChoices[0]
}

// form is what the fields say.
func (s *setupPage) form() (workspace.Config, string) {
	c := s.current()
	key := ""
	if c.Key {
		key = s.key.Text
	}
	return workspace.Config{Provider: c.Provider, BaseURL: s.base.Text, Model: s.model.Text}, key
}

// Test asks the model with what the fields say, nothing saved.
func (s *setupPage) Test() {
	cfg, key := s.form()
	if err := workspace.CheckBaseURL(cfg.BaseURL); err != nil {
		s.out.Error(err)
		return
	}
	s.test.Disable()
	s.out.Info("Asking " + s.current().Name + "…")
	model := cfg.WithDefaults().Model
	s.env.Go(func() {
		prov, err := s.env.Core.ProviderFor(cfg, key)
		text := ""
		if err == nil {
			text, err = probe(context.Background(), prov, model)
		}
		closeProvider(prov)
		s.env.Do(func() {
			s.test.Enable()
			if err != nil {
				s.out.Error(fmtError{plainError(err), err})
				return
			}
			s.out.OK(text)
		})
	})
}

// Save writes the choice to config.json and the key to the secrets, then
// opens the chat.
func (s *setupPage) Save() {
	cfg, key := s.form()
	c := s.current()
	if c.Key && key == "" && !s.env.Core.HasSecret(secretOf(c.Provider)) {
		s.out.Info(c.Name + " needs an API key: paste it above.")
		return
	}
	if cfg.Model == "" {
		s.out.Info("Type the model's name, as the server lists it.")
		return
	}
	s.save.Disable()
	s.env.Go(func() {
		_, err := s.env.Core.UpdateConfig(func(w *workspace.Config) error {
			for _, kv := range [][2]string{{"provider", cfg.Provider}, {"baseURL", cfg.BaseURL}, {"model", cfg.Model}} {
				if err := w.Set(kv[0], kv[1]); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil && key != "" {
			// The key is kept for the base URL just saved.
			err = s.env.Core.SetAPIKey(cfg.Provider, key)
		}
		if err == nil {
			err = s.env.Core.ModelProblem()
		}
		s.env.Do(func() {
			s.save.Enable()
			if err != nil {
				s.out.Error(err)
				return
			}
			s.key.SetText("")
			s.done()
		})
	})
}

func secretOf(prov string) string {
	secret, _ := assistant.KeyNames(prov)
	return secret
}
