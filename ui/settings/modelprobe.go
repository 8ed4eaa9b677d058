package settings

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// modelForm is what the Model page's fields say, unsaved.
type modelForm struct {
	Provider      string
	BaseURL       string
	Model         string
	ContextWindow string
	// Thinking is the model's thinking setting (auto, on, off, low,
	// medium, high); ThinkingBudget Anthropic's budget in tokens.
	Thinking       string
	ThinkingBudget string
	// Key is a key typed but not saved yet ("" uses the stored one).
	Key string
}

// probeTimeout bounds Test and the model list: a server that does not
// answer in this time is reported as not answering.
const probeTimeout = 30 * time.Second

// formProvider builds a provider for the form's values, so Test and the
// model list try what the user typed before it is saved. The key is the
// one typed, else the stored or environment one, as a turn would use.
func formProvider(core *assistant.App, f modelForm) (provider.Provider, error) {
	return core.ProviderFor(workspace.Config{Provider: f.Provider, BaseURL: f.BaseURL, Model: f.Model}, f.Key)
}

// probe makes one real, tiny request (provider.Probe) and says in plain
// words how it went: the summary, and for a failure an error carrying
// what to do (its hint points at the field at fault).
func probe(ctx context.Context, p provider.Provider, model string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	res, err := provider.Probe(ctx, p, model)
	if err != nil {
		return "", err
	}
	if res.OK {
		if res.Reply != "" {
			// Plain quotes: the reply is for reading, not a Go string.
			return res.Summary + " It said: “" + res.Reply + "”", nil
		}
		return res.Summary, nil
	}
	text := res.Summary
	if res.Err != nil && res.Err.Message != "" {
		text = joinSentences(res.Summary, res.Err.Message)
	}
	var cause error = res.Err
	if res.Err == nil {
		cause = errors.New(res.Summary)
	}
	return "", hint.With(fmtError{text, cause}, res.Hint)
}

// plainError is a failed Test or model list in words: the provider's own
// sentence when it has one.
func plainError(err error) string {
	var pe *provider.Error
	if errors.As(err, &pe) && pe.Message != "" {
		if pe.Status != 0 {
			return fmt.Sprintf("%s (HTTP %d)", pe.Message, pe.Status)
		}
		return pe.Message
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("The server did not answer within %s.", probeTimeout)
	}
	return err.Error()
}

// elsewhereAdvice matches an alternative "…, or choose another model in
// the model settings" at the end of a clause.
var elsewhereAdvice = regexp.MustCompile(`,? or [^.:;]*?\bin the model settings`)

// onModelPage rewords an error shown on the Model page itself: the page
// is the model settings, so advice to go there is dropped when it is an
// alternative and otherwise points at the fields above. Only the words
// change; what the page does never depends on them.
func onModelPage(text string) string {
	text = elsewhereAdvice.ReplaceAllString(text, "")
	return strings.ReplaceAll(text, "in the model settings", "in the fields above")
}

func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}
