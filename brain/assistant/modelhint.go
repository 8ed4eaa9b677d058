package assistant

import (
	"errors"
	"fmt"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// modelHint is what a person can do about a failed model request with
// cfg, one hint per kind of failure: only a refused key points at the
// key; a refused connection at starting the server or the base URL; a
// server error at trying again; a web page at the base URL.
func modelHint(pe *provider.Error, cfg workspace.Config) hint.Hint {
	baseURL := hint.Hint{Command: []string{"config", "set", "baseURL", "URL"}, Page: hint.PageModel, Target: "baseURL"}
	with := func(h hint.Hint, action string) hint.Hint {
		h.Action = action
		return h
	}
	switch pe.Detail {
	case provider.DetailRefused:
		if usesLocalOllama(cfg) {
			return with(baseURL, "Start Ollama (ollama serve), or choose another model server")
		}
		if pe.Local {
			return with(baseURL, "Start the model server on this computer, or check the base URL")
		}
		return with(baseURL, "Check that the model server is running and the base URL is right")
	case provider.DetailHostNotFound:
		return with(baseURL, "Check the base URL: its host name is not known")
	case provider.DetailNotAPI:
		return with(baseURL, "Correct the base URL: it points at a web page, not a model API")
	case provider.DetailBadURL:
		return with(baseURL, "Correct the base URL")
	case provider.DetailStalled, provider.DetailNoStart:
		return hint.Hint{Action: "Try again; for a slow server, allow it longer",
			Command: []string{"config", "set", "streamIdleTimeout", longerWait(pe.Waited)}, Page: hint.PageModel, Target: "streamIdleTimeout"}
	case provider.DetailServer:
		return hint.Hint{Action: "Try again in a moment: the server had a problem of its own"}
	}
	switch pe.Kind {
	case provider.ErrAuth:
		secret, env := KeyNames(cfg.Provider)
		return hint.Hint{Action: "Save a valid API key (or set " + env + ")",
			Command: []string{"secrets", "set", secret}, Page: hint.PageModel, Target: "apiKey"}
	case provider.ErrNotFound:
		if cfg.Provider == "ollama" {
			return hint.Hint{Action: fmt.Sprintf("Download %s, or choose a model the server has", cfg.Model),
				Command: []string{"models", "pull", cfg.Model}, Page: hint.PageModel, Target: "model"}
		}
		return hint.Hint{Action: "Choose a model the server has",
			Command: []string{"config", "set", "model", "NAME"}, Page: hint.PageModel, Target: "model"}
	case provider.ErrContextLength:
		return hint.Hint{Action: "Start a new conversation or raise the context window",
			Command: []string{"config", "set", "contextWindow", "TOKENS"}, Page: hint.PageModel, Target: "contextWindow"}
	case provider.ErrRateLimit, provider.ErrOverloaded:
		return hint.Hint{Action: "Wait a moment and try again"}
	case provider.ErrNetwork:
		return hint.Hint{Action: "Check the network connection and try again"}
	case provider.ErrTimeout, provider.ErrUnavailable, provider.ErrBadStream:
		return hint.Hint{Action: "Try again"}
	}
	return hint.Hint{Action: "Read the server's reason above, and check the model settings", Command: []string{"config"}, Page: hint.PageModel}
}

// hintModelError attaches the model hint to err when it is a provider
// failure without a hint of its own.
func (a *App) hintModelError(err error, cfg workspace.Config) error {
	if _, ok := hint.Of(err); ok {
		return err
	}
	var pe *provider.Error
	if errors.As(err, &pe) && pe.Kind != provider.ErrCanceled {
		return hint.With(err, modelHint(pe, cfg))
	}
	return err
}

// longerWait is the streamIdleTimeout a hint suggests after a wait of
// waited ran out: 2m, or twice the wait in whole minutes where that was
// 2m or more already (a local server's 5 minutes to load a model), so
// the suggestion is never one that would have ended sooner.
func longerWait(waited time.Duration) string {
	if waited < 2*time.Minute {
		return "2m"
	}
	return fmt.Sprintf("%dm", int((2*waited+time.Minute-1)/time.Minute))
}
