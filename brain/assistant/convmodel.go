package assistant

import (
	"context"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A conversation's own model (the chat header's picker) and Continue after
// a reply that stopped at its length limit.

// SetConversationModel makes conversation id use model from its next
// turn, on the configured server; "" goes back to the default (the Model
// page's). The choice is kept with the conversation for the provider and
// base URL it was made on: once the configuration names another server,
// the conversation uses the configured model again, since a model name
// means nothing to another server.
func (a *App) SetConversationModel(id store.ID, model string) error {
	if _, err := a.db.GetConversation(id); err != nil {
		return a.noConversation(id, err)
	}
	if err := a.db.SetModelChoice(id, a.choiceFor(a.model.Load().cfg, model)); err != nil {
		return err
	}
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return nil
}

// ConversationModel returns the model a turn in conversation id uses (0:
// one not created yet, which uses the default) and whether it is the
// conversation's own choice rather than the configured model.
func (a *App) ConversationModel(id store.ID) (model string, chosen bool) {
	cfg := a.model.Load().cfg
	if id == 0 {
		return cfg.Model, false
	}
	c, err := a.db.GetConversation(id)
	if err != nil {
		return cfg.Model, false
	}
	return modelOf(c, cfg)
}

// modelOf is c's chosen model when it was chosen on cfg's server, else
// cfg's.
func modelOf(c store.Conversation, cfg workspace.Config) (string, bool) {
	ch := c.Choice
	if ch == nil || ch.Model == "" || ch.Provider != cfg.Provider || !sameBase(ch.BaseURL, cfg.BaseURL) {
		return cfg.Model, false
	}
	return ch.Model, true
}

func sameBase(a, b string) bool { return strings.TrimRight(a, "/") == strings.TrimRight(b, "/") }

// choiceFor is the record of model chosen on cfg's server (nil: none).
func (a *App) choiceFor(cfg workspace.Config, model string) *store.ModelChoice {
	model = strings.TrimSpace(model)
	if model == "" {
		return nil
	}
	return &store.ModelChoice{Provider: cfg.Provider, BaseURL: cfg.BaseURL, Model: model}
}

// turnModel is the model a turn in conversation c (nil: a new one) runs
// with on cfg: the one the turn's options choose, else the conversation's
// choice, else cfg's.
func turnModel(c *store.Conversation, cfg workspace.Config, opt TurnOptions) string {
	if m := strings.TrimSpace(opt.Model); m != "" {
		return m
	}
	if c == nil {
		return cfg.Model
	}
	m, _ := modelOf(*c, cfg)
	return m
}

// keepChoice stores the model a turn's options chose with its
// conversation.
func (a *App) keepChoice(id store.ID, cfg workspace.Config, opt TurnOptions) {
	if strings.TrimSpace(opt.Model) == "" || id == 0 {
		return
	}
	if err := a.db.SetModelChoice(id, a.choiceFor(cfg, opt.Model)); err != nil {
		a.log.Warn("keeping the conversation's model", "conversation", id.String(), "error", err)
	}
}

// ContinueText is the message Continue sends: a reply cut at the model's
// length limit is continued by asking for the rest, which every provider
// understands (prefilling the assistant's own turn is not portable).
const ContinueText = "Continue exactly where your last reply stopped."

// Continue asks the model for the rest of conversation id's last reply,
// which stopped at its length limit (store.StatusLength): a turn whose
// message is ContinueText, run like Turn. ErrNothingToContinue when the
// last reply did not stop for length.
func (a *App) Continue(ctx context.Context, id store.ID, opt TurnOptions) (store.ID, error) {
	events, err := a.db.PageBefore(id, 0, 256) // statuses only: no pictures' bytes
	if err != nil {
		return id, a.noConversation(id, err)
	}
	if !stoppedForLength(events) {
		return id, fmt.Errorf("%w: the last reply of %s did not stop at the length limit", ErrNothingToContinue, id)
	}
	return a.Turn(ctx, id, ContinueText, opt)
}

// stoppedForLength reports whether the last reply since the last user
// message stopped at the model's length limit.
func stoppedForLength(events []store.Event) bool {
	for i := len(events) - 1; i >= 0; i-- {
		switch e := events[i]; e.Type {
		case store.EventAssistantText:
			return e.Status == store.StatusLength
		case store.EventUserMessage:
			return false
		}
	}
	return false
}
