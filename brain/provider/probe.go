package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// ProbePrompt is the message Probe sends, and ProbeMaxTokens caps its
// answer: enough for a word or two, cheap on any paid plan.
const (
	ProbePrompt    = "Reply with one word: ready"
	ProbeMaxTokens = 16
)

// maxProbeReply bounds the quoted first words.
const maxProbeReply = 80

// Settings a probe failure points at (hint.Hint Target on the Model page).
const (
	FieldAPIKey  = "apiKey"
	FieldBaseURL = "baseURL"
	FieldModel   = "model"
)

// ProbeResult is the outcome of a Probe in plain words.
type ProbeResult struct {
	// OK reports that the model answered.
	OK bool
	// Model is the model asked.
	Model string
	// Reply is the start of the model's answer, on one line (it may be
	// empty: a reasoning model can spend the tiny budget thinking).
	Reply string
	// Latency is the time until the answer began (the first text), or
	// until the request ended when nothing came.
	Latency time.Duration
	// Total is the time the whole request took.
	Total time.Duration
	// Kind is the failure's kind, "" when OK.
	Kind ErrorKind
	// Summary says in one sentence what happened: "Connected: … answered
	// in 0.4 s." or "The server refused the API key."
	Summary string
	// Hint says what to do about a failure (Action), and which setting of
	// the Model page it concerns (Target: FieldAPIKey, FieldBaseURL,
	// FieldModel, or "" when no setting is at fault).
	Hint hint.Hint
	// Err is the provider's error, whose Message has the details (the URL,
	// the server's own words).
	Err *Error
}

// Probe tests a configuration: it sends one tiny request (ProbePrompt,
// at most ProbeMaxTokens) for model to p, without retries, and says how it
// went. A provider failure is a result, not an error; the error is non-nil
// only when p is nil (ErrNoProvider) or ctx was canceled. Give ctx a
// deadline: a local server loading a large model can take minutes, and a
// deadline reached is reported as a timeout result.
func Probe(ctx context.Context, p Provider, model string) (ProbeResult, error) {
	if p == nil {
		return ProbeResult{}, fmt.Errorf("test the model: %w", ErrNoProvider)
	}
	// The settings page wants an answer now, not after retries.
	for {
		u, ok := p.(Unwrapper)
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	res := ProbeResult{Model: model}
	start := time.Now()
	var first time.Duration
	resp, err := p.Stream(ctx, Request{Model: model, MaxTokens: ProbeMaxTokens,
		Messages: []Message{{Role: RoleUser, Content: ProbePrompt}}},
		func(ev Event) error {
			if first == 0 && (ev.Type == EventText || ev.Type == EventToolCall) {
				first = time.Since(start)
			}
			return nil
		})
	res.Total = time.Since(start)
	res.Latency = first
	if first == 0 {
		res.Latency = res.Total
	}
	if resp != nil {
		res.Reply = firstWords(resp.Text)
	}
	if err == nil {
		res.OK = true
		res.Summary = fmt.Sprintf("Connected: %s answered in %s.", nameOf(model), seconds(res.Latency))
		if res.Reply == "" {
			res.Summary = fmt.Sprintf("Connected: %s answered in %s, without text within the %d-token test limit.", nameOf(model), seconds(res.Latency), ProbeMaxTokens)
		}
		return res, nil
	}
	if errors.Is(err, context.Canceled) || KindOf(err) == ErrCanceled {
		return res, fmt.Errorf("the model test was stopped: %w", err)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		// Providers return *Error; anything else is still shown, not lost.
		pe = &Error{Kind: ErrBadRequest, Provider: p.Name(), Message: err.Error(), Err: err}
	}
	res.Err, res.Kind = pe, pe.Kind
	res.Summary, res.Hint = explain(pe, model)
	res.Hint.Page = hint.PageModel
	return res, nil
}

// explain says what a failed probe means and what to do.
func explain(pe *Error, model string) (string, hint.Hint) {
	switch pe.Detail {
	case DetailHostNotFound:
		return "The base URL's host name is not known.", hint.Hint{Action: "Check the base URL", Target: FieldBaseURL}
	case DetailNotAPI:
		return "A web page answered at the base URL, not a model API.",
			hint.Hint{Action: "Correct the base URL (an OpenAI-compatible server's usually ends in /v1; Ollama's is http://localhost:11434)", Target: FieldBaseURL}
	case DetailBadURL:
		return "The base URL cannot be used.", hint.Hint{Action: "Correct the base URL", Target: FieldBaseURL}
	case DetailStalled, DetailNoStart:
		return "The server stopped answering in time.",
			hint.Hint{Action: "Test again; a local server loading a large model can take a minute the first time"}
	case DetailServer:
		return "The server had an error of its own.", hint.Hint{Action: "Test again in a moment"}
	}
	switch pe.Kind {
	case ErrAuth:
		return "The server refused the API key.",
			hint.Hint{Action: "Enter the API key again, or create a new one in the provider's console", Target: FieldAPIKey}
	case ErrNotFound:
		return fmt.Sprintf("The server does not know %s.", nameOf(model)),
			hint.Hint{Action: "Pick a model from the list or check its spelling (for Ollama, download it with ollama pull)", Target: FieldModel}
	case ErrRateLimit:
		wait := "a moment"
		if pe.RetryAfter > 0 {
			wait = seconds(pe.RetryAfter)
		}
		return "The server is limiting how fast requests may be sent, so the key works but is busy.",
			hint.Hint{Action: "Wait " + wait + " and test again; if it persists, check the plan's limits"}
	case ErrOverloaded:
		return "The server is overloaded right now.", hint.Hint{Action: "Test again in a moment"}
	case ErrTimeout:
		return "The server did not answer in time.",
			hint.Hint{Action: "Test again; a local server loading a large model can take minutes the first time"}
	case ErrNetwork:
		return "The connection to the server failed.",
			hint.Hint{Action: "Check the network and the base URL, then test again", Target: FieldBaseURL}
	case ErrUnavailable:
		if pe.Status == 0 {
			return "No server answered at the base URL.",
				hint.Hint{Action: "Check the base URL and that the server is running (for Ollama: ollama serve)", Target: FieldBaseURL}
		}
		return "The server had an error.", hint.Hint{Action: "Test again in a moment"}
	case ErrBadStream:
		return "Something answered, but not as a model server of this kind would.",
			hint.Hint{Action: "Check that the provider type (OpenAI-compatible or Anthropic) and the base URL match the server", Target: FieldBaseURL}
	default:
		return "The server rejected the test request.",
			hint.Hint{Action: "Read the server's reason below and check the model and the account"}
	}
}

func nameOf(model string) string {
	if model == "" {
		return "the default model"
	}
	return "the model " + model
}

// seconds renders d for people: "0.4 s", "12 s".
func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}

// firstWords is s on one line, cut at maxProbeReply runes.
func firstWords(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxProbeReply {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:maxProbeReply])) + "…"
}
