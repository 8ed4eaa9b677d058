package assistant

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// TurnOptions say who answers approvals and who sees the turn.
type TurnOptions struct {
	// Approver is asked about calls that need confirmation; nil denies
	// them (gate.DenyAll), as a headless run must.
	Approver gate.Approver
	// Sink sees the turn as it happens; nil sees nothing.
	Sink agent.Sink
	// Override changes the model for this turn only.
	Override Override
	// Started, when set, learns the conversation's id as soon as it exists
	// (a first turn creates it), before the turn's first event.
	Started func(id store.ID)
	// Model, when set, becomes the conversation's own model (as
	// SetConversationModel) and this turn uses it: the chat header's
	// picker on a conversation not created yet. Override wins over it.
	Model string
	// Instructions, on a first turn, become the new conversation's own
	// instructions (as SetConversationInstructions) before its first
	// request: the chat header's editor on a conversation not created
	// yet. Ignored when the conversation exists.
	Instructions string
	// Capabilities, when not nil, are the only capabilities the turn may
	// use (a scheduled task's list; tool discovery always).
	Capabilities []string
	// KeepUnanswered keeps the conversation a first turn made even when
	// no model answered and nothing but the message was stored: a front
	// end that goes on showing the message with its error and Retry (the
	// window) sets it, so the conversation it shows is also listed. Without
	// it such a conversation is removed (a one-off CLI chat leaves no
	// empty conversation behind).
	KeepUnanswered bool
	// Images are pictures attached to the message (AttachedMessage gives
	// them from attached resources): stored with it and sent to a model
	// that reads images, described to one that does not. Resend and
	// Regenerate keep the replaced message's images when this is nil.
	Images []provider.Image
	// Files are the paths of the files the person attached to the message
	// (attach.File.Path): recorded with the conversation, so that its
	// fs_read reads exactly them wherever they lie (attachread.go).
	// Wrasse's own data among them fails the turn.
	Files []string
}

// Turn adds text as the user's message to conversation id (0 starts a new
// one) and runs the turn to its end: see agent.Agent.Turn. It returns the
// conversation's id. A first turn that no model answered and that stored
// nothing but the message (no text, no tool call) leaves no empty
// conversation behind: it is deleted and the id returned is 0, unless
// opt.KeepUnanswered asks to keep it (the window shows it). One that
// stored any work keeps it, with its error. Errors carry a hint (hint.Of)
// when the fix is known, such as the Model page for a refused key.
func (a *App) Turn(ctx context.Context, id store.ID, text string, opt TurnOptions) (store.ID, error) {
	return a.enterTurn(ctx, id, text, opt, nil)
}

// enterTurn is the one entry of every turn (Turn, Resend, Regenerate,
// Continue, a scheduled task's run), and each check of it is made here
// once: the message is not blank; the conversation exists, or for id 0 is
// created (in runTurn, once the model state is known); and it is claimed
// (busy.go), so that one turn at a time runs in it and a delete can stop
// the turn and wait for it. prepare, when set, runs under the claim before
// the turn (Resend's truncation). The agent runs the turn on the
// conversation so entered and checks none of this again.
func (a *App) enterTurn(ctx context.Context, id store.ID, text string, opt TurnOptions, prepare func(*TurnOptions) error) (store.ID, error) {
	if strings.TrimSpace(text) == "" && len(opt.Images) == 0 {
		return id, agent.ErrEmptyMessage
	}
	if id == 0 {
		return a.runTurn(ctx, nil, text, opt)
	}
	// The record read here is the one the turn uses (its model, its
	// loaded capabilities): a turn reads it once.
	c, err := a.db.GetConversation(id)
	if err != nil {
		return id, a.noConversation(id, err)
	}
	ctx, ok := a.claimRun(ctx, id)
	if !ok {
		return id, fmt.Errorf("%s: %w", id, agent.ErrBusy)
	}
	defer a.release(id)
	if prepare != nil {
		if err := prepare(&opt); err != nil {
			return id, err
		}
		// What prepare changed, read under the claim.
		if c, err = a.db.GetConversation(id); err != nil {
			return id, a.noConversation(id, err)
		}
	}
	return a.runTurn(ctx, &c, text, opt)
}

// Resend replaces the user message at seq of conversation id with text
// (the same text regenerates) and runs the turn again. What it replaces,
// the message and everything after it, is kept as a version of that place
// (store.KeepVersion; SwitchVersion brings it back), so the turn answers
// the history before the message only; a retry of a message nothing
// answered keeps nothing (replaceFrom).
func (a *App) Resend(ctx context.Context, id store.ID, seq uint64, text string, opt TurnOptions) (store.ID, error) {
	return a.enterTurn(ctx, id, text, opt, func(opt *TurnOptions) error {
		e, err := a.db.Event(id, seq)
		if err != nil {
			return fmt.Errorf("message %d of %s: %w", seq, id, err)
		}
		if e.Type != store.EventUserMessage {
			return fmt.Errorf("%w: event %d of %s is a %s, not a message of yours", ErrNotUserMessage, seq, id, e.Type)
		}
		if opt.Images == nil {
			// An edited message keeps the pictures it was sent with.
			opt.Images = e.Images
		}
		if err := a.replaceFrom(id, e, text); err != nil {
			return err
		}
		a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
		return nil
	})
}

// Regenerate runs the last user message of conversation id again,
// replacing the reply (and tool calls) that followed it; the replaced
// answer is kept as a version, as Resend keeps it.
func (a *App) Regenerate(ctx context.Context, id store.ID, opt TurnOptions) (store.ID, error) {
	events, err := a.db.Events(id)
	if err != nil {
		return id, a.noConversation(id, err)
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == store.EventUserMessage {
			return a.Resend(ctx, id, events[i].Seq, events[i].Text, opt)
		}
	}
	return id, fmt.Errorf("%w: %s has no message to answer again", ErrNotUserMessage, id)
}

// runTurn runs one turn on the current model state in conversation c as
// enterTurn read it and holds it claimed; for a first turn (c nil)
// runTurn creates and claims the conversation.
func (a *App) runTurn(ctx context.Context, c *store.Conversation, text string, opt TurnOptions) (store.ID, error) {
	start := a.opts.Clock()
	id, err := a.turn(ctx, c, text, opt)
	// One line a turn: how long it took and how it ended, for a person
	// reading the log after a slow or failed day (and for wrasse-bench,
	// which waits for it to know the window's turn is over).
	a.log.Info("turn ended", "conversation", id.String(), "took", a.opts.Clock().Sub(start).Round(time.Millisecond), "ok", err == nil)
	return id, err
}

// turn is runTurn without its log line.
func (a *App) turn(ctx context.Context, c *store.Conversation, text string, opt TurnOptions) (store.ID, error) {
	first := c == nil
	var id store.ID
	if !first {
		id = c.ID
	}
	attached, err := a.attachedFiles(opt.Files)
	if err != nil {
		return id, err
	}
	st := a.model.Load()
	st.turns.Add(1)
	defer st.turns.Done()
	cfg, p, setupErr := st.cfg, st.provider, st.setupErr
	if !opt.Override.empty() {
		over := opt.Override.apply(st.cfg)
		if err := workspace.CheckBaseURL(over.BaseURL); err != nil {
			return id, err
		}
		cfg, p, setupErr = over, nil, nil
		if opt.Override.SendKey {
			a.log.Info("the API key is sent for one turn to a host it is not kept for, as asked", "host", KeyHost(baseURLOf(over)))
		}
		if raw, err := a.buildProviderSending(over, opt.Override.SendKey); err != nil {
			setupErr = err
		} else {
			p = provider.WithRetry(raw, provider.RetryOptions{MaxRetries: a.opts.Retries, Logger: a.log})
		}
	}
	if opt.Override.empty() {
		cfg.Model = turnModel(c, cfg, opt) // the conversation's own (convmodel.go)
	}
	// A first turn's instructions apply from its first request; the
	// record they are read again from gets its id once it is created.
	ident := c
	if first && strings.TrimSpace(opt.Instructions) != "" {
		ident = &store.Conversation{Instructions: opt.Instructions}
	}
	facts := agent.HostFacts(a.opts.Getenv)
	facts.Folders, facts.FoldersKnown = a.Folders(), true
	ag, err := agent.New(agent.Options{
		Registry: a.reg, Store: a.db, Provider: p, Approver: opt.Approver, GateEnv: a.gateEnv,
		Model: cfg.Model, MaxSteps: cfg.MaxSteps, ContextWindow: a.windowOf(ctx, st, cfg, p, cfg.Model).Tokens,
		Facts: facts, Logger: a.log, Clock: a.opts.Clock,
		Identity:    a.identityFor(ident), // with the conversation's own instructions (organise.go)
		SetupHint:   a.setupTextFor(cfg, setupErr),
		NoModelText: noModelText(setupErr),
		AfterCall:   a.afterToolCall,
		Memory:      a.memory,
		Allowed:     allowedCapabilities(opt.Capabilities),
	})
	if err != nil {
		return id, err
	}
	if first {
		// Create and claim the conversation here, so no other turn can
		// start in it before this one ends.
		created, err := a.db.CreateConversation(cfg.Model)
		if err != nil {
			return 0, err
		}
		if ident != nil {
			if err := a.db.SetInstructions(created.ID, opt.Instructions); err != nil {
				if derr := a.db.DeleteConversation(created.ID); derr != nil {
					a.log.Warn("removing a conversation whose instructions could not be kept", "conversation", created.ID.String(), "error", derr)
				}
				return 0, fmt.Errorf("keep the new conversation's instructions: %w", err)
			}
			created.Instructions, ident.ID = opt.Instructions, created.ID
		}
		c, id = &created, created.ID
		ctx, _ = a.claimRun(ctx, id)
		defer a.release(id)
		a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	}
	if opt.Override.empty() {
		a.keepChoice(id, cfg, opt)
	}
	if err := a.db.AddAttached(id, attached); err != nil {
		return id, err
	}
	if opt.Started != nil {
		opt.Started(id)
	}
	newID, err := ag.TurnIn(ctx, *c, text, opt.Images, opt.Sink)
	if err == nil {
		a.subs.publish(Event{Kind: EventConversations, Names: []string{newID.String()}})
		return newID, nil
	}
	err = a.hintTurnError(err, cfg, setupErr)
	if first && newID != 0 && !opt.KeepUnanswered && unanswered(err) && !a.storedWork(newID) {
		if derr := a.db.DeleteConversation(newID); derr != nil {
			a.log.Warn("removing a conversation no model answered", "conversation", newID.String(), "error", derr)
			return newID, err
		}
		a.subs.publish(Event{Kind: EventConversations, Names: []string{newID.String()}})
		return 0, err
	}
	return newID, err
}

// storedWork reports whether conversation id holds anything besides the
// person's messages and the failure notes (a reply, a tool call, an
// approval, a tool's result); when it cannot be read, it is assumed to,
// so nothing is deleted on a guess.
func (a *App) storedWork(id store.ID) bool {
	events, err := a.db.Events(id)
	if err != nil {
		return true
	}
	for _, e := range events {
		switch e.Type {
		case store.EventUserMessage, store.EventError, store.EventUsage:
		case store.EventAssistantText:
			if e.Text != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// unanswered reports whether err means no model answered at all.
func unanswered(err error) bool {
	return errors.Is(err, agent.ErrNoProvider) || errors.Is(err, agent.ErrModel)
}

// identity is the editable identity prompt, re-read every turn.
func (a *App) identity() string {
	data, err := os.ReadFile(a.ws.Identity())
	if err != nil {
		return ""
	}
	return string(data)
}

// setupTextFor ends the message shown in a conversation no model answered.
func (a *App) setupTextFor(cfg workspace.Config, setupErr error) string {
	if setupErr != nil {
		// Its own sentence, before the advice: "(…)" after a full stop
		// read as a fragment.
		return sentence(setupErr.Error()) + " " + setupText(cfg)
	}
	return setupText(cfg)
}

// noModelText is the message of a turn that has a model set up which may
// not be asked yet, "" for the usual "No model is set up…": a key kept
// for another host than the base URL's says so first, with what to do
// (the person's word), rather than that no model is set up.
func noModelText(setupErr error) string {
	if !errors.Is(setupErr, ErrKeyHost) {
		return ""
	}
	text := sentence(setupErr.Error())
	if h, ok := hint.Of(setupErr); ok && h.Action != "" {
		text += " " + sentence(h.Action)
	}
	return text
}

// hintTurnError attaches the fix a person can make to a turn's error.
func (a *App) hintTurnError(err error, cfg workspace.Config, setupErr error) error {
	if _, ok := hint.Of(err); ok {
		return err
	}
	switch {
	case errors.Is(err, agent.ErrNoProvider):
		if h, ok := hint.Of(setupErr); ok {
			return hint.With(err, h)
		}
		return hint.With(err, setupHint(cfg))
	case errors.Is(err, agent.ErrModel):
		// One hint per kind of failure (modelhint.go).
		return a.hintModelError(err, cfg)
	}
	return err
}

// noConversation turns a missing conversation into an error that says so.
func (a *App) noConversation(id store.ID, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return hint.With(fmt.Errorf("%w: there is no conversation %s", ErrNoConversation, id),
			hint.Hint{Action: "List the conversations", Command: []string{"conversations", "list"}})
	}
	return err
}

// sentence is s as a sentence of its own: its first letter in capitals,
// ending in a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}
