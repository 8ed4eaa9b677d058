package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// DefaultMaxSteps bounds model requests per turn.
const DefaultMaxSteps = 25

// DefaultSetupHint tells the user how to get a model when none answers.
const DefaultSetupHint = "Start a local model with Ollama (ollama serve, then ollama pull llama3.1), " +
	"or choose a provider, model and API key in the model settings."

// Streamed text is committed in batches, each one fsync: once the text
// waiting is at least flushBytes and an eighth (1/flushShare) of the reply
// so far, or flushEvery after the last commit. The share keeps a long,
// fast reply to a few dozen commits; the interval bounds what a crash can
// lose at ordinary speeds.
const (
	flushBytes = 512
	flushShare = 8
	flushEvery = 250 * time.Millisecond
)

// Options configure an Agent.
type Options struct {
	Registry *cerebellum.Registry
	Store    *store.DB
	// Provider answers; nil means no model is set up (each turn says so).
	Provider provider.Provider
	// Approver is asked about calls that need confirmation and hosts a
	// conversation has not used; nil denies them all (gate.DenyAll).
	Approver gate.Approver
	// GateEnv is what the gate knows about the computer: the home folder,
	// the granted folders, the workspace; called for every call (nil:
	// gate.DefaultEnv). The person's allowed commands and private paths
	// (the shell's settings) and trusted hosts (the web's) are read from
	// the registry.
	GateEnv func() gate.Env
	// Model is the model name sent with each request.
	Model string
	// Identity returns the identity prompt (re-read every turn, so edits
	// apply at once); nil or empty means workspace.DefaultIdentity.
	Identity func() string
	// Clock gives the date for the system prompt and times the commits of
	// streamed text; default time.Now.
	Clock func() time.Time
	// Facts describe the computer; see HostFacts.
	Facts Facts
	// MaxSteps bounds model requests per turn (default DefaultMaxSteps).
	MaxSteps int
	// ContextWindow is the model's window in tokens; 0 disables fitting.
	ContextWindow int
	// MaxTokens caps each answer (0: the provider's default).
	MaxTokens int
	// CountTokens estimates tokens (default cerebellum.EstimateTokens).
	CountTokens func(string) int
	// SetupHint ends the message shown when no model answers (default
	// DefaultSetupHint).
	SetupHint string
	// NoModelText, when set, is the whole message shown when Provider is
	// nil, in place of "No model is set up…" and SetupHint: for a model
	// that is set up but may not be asked yet (its key is kept for
	// another host and waits for the person's word).
	NoModelText string
	// Layout is how requests are laid out for the provider's prompt cache
	// (default LayoutStable; see layout.go).
	Layout Layout
	Logger *slog.Logger
	// AfterCall, when set, runs after each tool call that ran; what it
	// returns is appended to the call's result (the app's note that it
	// put back the modes of its files, say).
	AfterCall func(tool string) string
	// Memory, when set, carries a conversation's prepared history from
	// one turn to the next (memory.go); the agent is made for each turn,
	// so the app keeps one for all of them.
	Memory *Memory
	// Allowed, when set, says which capabilities the turn may use (a
	// scheduled task's list): the tools of others are not offered, and a
	// call of one does not run.
	Allowed func(capability string) bool
}

// Agent runs the turns of conversations for brain/assistant, whose
// App.Turn is the one entry point of a turn: it checks the message, finds
// or creates the conversation and claims it, so that one turn at a time
// runs in it. An Agent is safe for concurrent use on different
// conversations.
type Agent struct {
	opts Options
	log  *slog.Logger
}

// New checks opts and returns an Agent.
func New(opts Options) (*Agent, error) {
	if opts.Registry == nil || opts.Store == nil {
		return nil, fmt.Errorf("%w: Registry and Store are required", ErrConfig)
	}
	if opts.Approver == nil {
		opts.Approver = gate.DenyAll{}
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.CountTokens == nil {
		opts.CountTokens = cerebellum.EstimateTokens
	}
	if opts.SetupHint == "" {
		opts.SetupHint = DefaultSetupHint
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Agent{opts: opts, log: log}, nil
}

// Turn adds the user's message to conversation id and runs the loop until
// the model answers without calling tools, the step bound is hit, the
// model fails, or ctx is cancelled. Every event is stored as it happens
// and passed to sink (nil: none). It returns id.
//
// The caller made the checks of a turn's entry (App.Turn): the message is
// not blank, the conversation exists (it is created first for a first
// turn) and the caller holds it, so no other turn runs in it.
//
// Errors: ErrNoProvider, ErrModel (wrapping the *provider.Error),
// ErrMaxSteps, ErrInterrupted, or a store error (store.ErrNotFound for a
// conversation that does not exist). The first four are also written into
// the conversation as error events.
func (a *Agent) Turn(ctx context.Context, id store.ID, userText string, sink Sink) (store.ID, error) {
	c, err := a.opts.Store.GetConversation(id)
	if err != nil {
		return id, fmt.Errorf("continue conversation %s: %w", id, err)
	}
	return a.TurnIn(ctx, c, userText, nil, sink)
}

// TurnIn is Turn on the conversation whose record c the caller read when
// it entered the turn (App.Turn), so that a turn reads the record once:
// the agent uses its model and loaded capabilities as c has them. images
// are pictures the person attached to the message (checked types, raw
// bytes): stored with it and sent with it in every later request.
func (a *Agent) TurnIn(ctx context.Context, c store.Conversation, userText string, images []provider.Image, sink Sink) (store.ID, error) {
	if sink == nil {
		sink = Funcs{}
	}
	db := a.opts.Store
	id := c.ID
	loaded := c.Loaded
	if c.Model != a.opts.Model && a.opts.Model != "" {
		if err := db.SetModel(id, a.opts.Model); err != nil {
			a.log.Warn("recording the conversation's model", "conversation", id.String(), "error", err)
		}
	}
	hist, kept, tail := a.opts.Memory.take(id)
	var read []store.Event
	var epoch uint64
	var err error
	if tail.from > 0 {
		// Only the tail the last turn's requests could use, while the
		// events before it are as they were.
		var ok bool
		read, epoch, ok, err = db.SharedTail(id, tail.from)
		if err != nil {
			return id, err
		}
		if !ok || len(read) == 0 || read[0].Seq != tail.from || read[0].Type != store.EventUserMessage {
			hist, kept, tail = &requestHistory{}, keptEvents{}, histTail{}
		}
	}
	if tail.from == 0 {
		read, epoch, err = db.SharedEvents(id)
	}
	if err != nil {
		// What was kept is of no use once the history cannot be read (a
		// deleted conversation): forget it.
		return id, err
	}
	events := resumeEvents(kept, read, epoch)
	sess := a.opts.Registry.NewSession(id.String(), loaded)
	sess.OnChange(func(l []string) {
		if err := db.SetLoaded(id, l); err != nil {
			a.log.Warn("saving the loaded capabilities", "conversation", id.String(), "error", err)
		}
	})
	t := &turn{a: a, ctx: ctx, id: id, sink: sink, sess: sess, events: events, limit: Limit(a.opts.ContextWindow),
		hist: hist, read: len(read), epoch: epoch, tail: tail}
	defer t.keep()
	t.grants, t.hosts = rebuildGrants(tail.grants, events, a.opts.Registry.Snapshot(), a.gateEnv())
	if _, err := t.record(store.Event{Type: store.EventUserMessage, Text: userText, Images: images}); err != nil {
		return id, err
	}
	return id, t.run()
}

// rebuildGrants replays "approve for this conversation" answers: each
// such approval event is matched to its tool call, which is evaluated
// against the current patterns, and the hosts it allowed are remembered.
// An answer about hosts alone (HostsOnly) approves only them. before are
// the answers before events (histTail.grants), each after its call.
func rebuildGrants(before, events []store.Event, snap *cerebellum.Snapshot, env gate.Env) (gate.Grants, *hostSet) {
	var g gate.Grants
	hosts := &hostSet{}
	for _, evs := range [][]store.Event{before, events} {
		for i, e := range evs {
			if !grantEvent(&e) {
				continue
			}
			hosts.add(e.Decision.Hosts...)
			if e.Decision.HostsOnly {
				continue
			}
			if j := grantCall(evs, i); j >= 0 {
				if v := gate.CheckIn(snap, env, evs[j].ToolName, evs[j].Arguments); v.Decision == gate.Confirm {
					g.Add(v)
				}
			}
		}
	}
	return g, hosts
}

// grantEvent reports whether e is an "approve for this conversation" answer.
func grantEvent(e *store.Event) bool {
	return e.Type == store.EventApproval && e.Decision != nil && e.Decision.Kind == store.ApprovedConversation
}

// grantCall is the index of the call the answer events[i] is about (the
// nearest before it with its id), -1 when none is.
func grantCall(events []store.Event, i int) int {
	for j := i - 1; j >= 0; j-- {
		if c := &events[j]; c.Type == store.EventToolCall && c.ToolCallID == events[i].ToolCallID {
			return j
		}
	}
	return -1
}

// histTail says where the events a turn holds begin when they are a tail
// of its conversation (the requests can use only what fits the model's
// window), and what the turn needs of the events before: the zero value
// holds them all.
type histTail struct {
	// from is the Seq of the first event held (a user message); 0: all.
	from uint64
	// base describes the messages before it, for fitting.
	base *tailBase
	// grants are the "approve for this conversation" answers before it,
	// each after the call it is about (rebuildGrants).
	grants []store.Event
	// refs are the tools results before it made callable (namedTools).
	refs []string
}

// keep hands what the turn ended with to the Memory for the next turn,
// first dropping the events and messages before the tail its requests
// can use (requestHistory.cut), in the store's cache too (KeepTail): a
// long conversation then holds in memory only what a request can use.
func (t *turn) keep() {
	mem := t.a.opts.Memory
	if mem == nil {
		return
	}
	kept := keptEvents{events: t.events, lent: t.read, epoch: t.epoch}
	e, c, base := t.hist.cut(t.events, t.tail.base, Limit(t.a.opts.ContextWindow), t.a.opts.CountTokens)
	if e > 0 && t.a.opts.Store.KeepTail(t.id, t.events[e].Seq) {
		tail := histTail{from: t.events[e].Seq, base: &base, grants: slices.Clip(t.tail.grants), refs: slices.Clip(t.tail.refs)}
		for i := range t.events[:e] {
			ev := &t.events[i]
			for _, r := range ev.ToolRefs {
				if !slices.Contains(tail.refs, r) {
					tail.refs = append(tail.refs, r)
				}
			}
			if !grantEvent(ev) {
				continue
			}
			if j := grantCall(t.events[:e], i); j >= 0 && !ev.Decision.HostsOnly {
				tail.grants = append(tail.grants, t.events[j])
			}
			tail.grants = append(tail.grants, *ev)
		}
		events := append(make([]store.Event, 0, len(t.events)-e+spareTurnEvents), t.events[e:]...)
		t.hist.drop(e, c, events)
		t.tail, kept = tail, keptEvents{events: events}
	}
	mem.keep(t.id, t.hist, kept, t.tail)
}

// loadAll makes the turn hold the whole conversation, when the tail it
// holds is too short for a request (its limit grew, say): the request
// is then built from everything, as it would have been.
func (t *turn) loadAll() error {
	all, err := t.a.opts.Store.Events(t.id)
	if err != nil {
		return err
	}
	t.a.log.Debug("the request needs more than the tail held: read the whole conversation", "conversation", t.id.String(),
		"held", len(t.events), "events", len(all))
	t.events, t.read, t.epoch, t.tail, t.hist = all, 0, 0, histTail{}, &requestHistory{}
	return nil
}

// turn is the state of one running turn.
type turn struct {
	a      *Agent
	ctx    context.Context
	id     store.ID
	sink   Sink
	sess   *cerebellum.Session
	events []store.Event
	grants gate.Grants
	// hosts are the network hosts the conversation was allowed.
	hosts *hostSet
	limit int
	// read is how many of events the turn read from the store; it never
	// changes them in place (replace), so the next turn need not compare
	// them again while the store lent the same slice (resumeEvents),
	// lent under epoch.
	read  int
	epoch uint64
	// tail says where events begin in the conversation.
	tail histTail
	// parent is the call ID of the code-mode program whose inner call is
	// running ("" otherwise); record stamps it on the events (codemode.go).
	parent string

	// The system prompt and tools, rebuilt when the loaded set or the
	// registry changes.
	built       bool
	sessVersion uint64
	generation  uint64
	system      string
	tools       []provider.Tool
	deferrable  []provider.Tool
	fixed       int
	// hist keeps the history converted and counted for the next request.
	hist *requestHistory
	// noticed are the notices recorded this turn (stream.go).
	noticed map[string]bool
}

// record stores e, keeps it for the next request, and tells the sink.
func (t *turn) record(e store.Event) (store.Event, error) {
	if e.ParentCallID == "" {
		e.ParentCallID = t.parent
	}
	stored, err := t.a.opts.Store.AppendEvent(t.id, e)
	if err != nil {
		return store.Event{}, err
	}
	t.events = append(t.events, stored)
	t.sink.OnEvent(stored)
	return stored, nil
}

// replace swaps in the stored version of an event the turn recorded
// (only those: the events it read stay as the store lent them).
func (t *turn) replace(e store.Event) {
	for i := len(t.events) - 1; i >= t.read; i-- {
		if t.events[i].Seq == e.Seq {
			t.events[i] = e
			break
		}
	}
	t.sink.OnEvent(e)
}

// fail records an error event and returns err.
func (t *turn) fail(text string, err error) error {
	if _, rerr := t.record(store.Event{Type: store.EventError, Text: text, IsError: true}); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// interrupted records that the user stopped the turn. The event's status
// says so (StatusInterrupted), so a front end can show a stop as a stop
// without reading its text.
func (t *turn) interrupted() error {
	err := fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(t.ctx))
	if _, rerr := t.record(store.Event{Type: store.EventError, Text: "Stopped: the turn was interrupted before it finished.",
		IsError: true, Status: store.StatusInterrupted}); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

func (t *turn) run() error {
	opts := t.a.opts
	if opts.Provider == nil {
		text := "No model is set up, so nothing can answer. " + opts.SetupHint
		if opts.NoModelText != "" {
			text = opts.NoModelText
		}
		return t.fail(text, ErrNoProvider)
	}
	shrunk := false
	for step := 1; ; step++ {
		if t.ctx.Err() != nil {
			return t.interrupted()
		}
		if step > opts.MaxSteps {
			return t.fail(fmt.Sprintf("Stopped after %d model requests in this turn (the limit is maxSteps in config.json). "+
				"Send another message, such as \"continue\", to let it go on.", opts.MaxSteps),
				fmt.Errorf("%w (%d requests)", ErrMaxSteps, opts.MaxSteps))
		}
		t.sink.OnStep(step)
		done, err := t.step(step)
		var se *shrinkError
		if errors.As(err, &se) {
			if shrunk || t.limit == 0 {
				return t.fail(t.modelMessage(se.err), fmt.Errorf("%w: %w", ErrModel, se.err))
			}
			// The estimate was too generous for this model: fit into half
			// and try the same step again.
			shrunk = true
			t.limit /= 2
			step--
			continue
		}
		if err != nil || done {
			return err
		}
	}
}

// shrinkError reports that the request did not fit the model's context.
type shrinkError struct{ err error }

func (e *shrinkError) Error() string { return e.err.Error() }

// request assembles the next model request.
func (t *turn) request() (provider.Request, error) {
	opts := t.a.opts
	reg := opts.Registry
	snap := reg.Snapshot()
	if !t.built || t.sess.Version() != t.sessVersion || snap.Generation != t.generation {
		// Tools and Index may drop vanished capabilities from the session,
		// which moves its version: read the version after them.
		defs := t.codeModeDefs(t.allowedDefs(reg.Tools(t.sess)), snap)
		index := t.index()
		identity := ""
		if opts.Identity != nil {
			identity = opts.Identity()
		}
		if strings.TrimSpace(identity) == "" {
			identity = workspace.DefaultIdentity
		}
		t.system = SystemPrompt(identity, opts.Facts, opts.Clock(), index)
		t.tools = make([]provider.Tool, 0, len(defs))
		t.fixed = opts.CountTokens(t.system)
		for _, d := range defs {
			t.tools = append(t.tools, provider.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters,
				Loadable: !alwaysLoaded(snap, d.Capability)})
			t.fixed += opts.CountTokens(d.Name) + opts.CountTokens(d.Description) + opts.CountTokens(string(d.Parameters))
		}
		t.layoutTools(snap)
		t.sessVersion, t.generation, t.built = t.sess.Version(), snap.Generation, true
	}
	if t.hist == nil {
		t.hist = &requestHistory{}
	}
	msgs, rep, ok := t.hist.prepare(t.events, t.tail.base, t.limit, t.fixed, opts.CountTokens)
	if !ok {
		if err := t.loadAll(); err != nil {
			return provider.Request{}, err
		}
		msgs, rep, _ = t.hist.prepare(t.events, nil, t.limit, t.fixed, opts.CountTokens)
	}
	if rep.Trimmed > 0 || rep.Dropped > 0 {
		t.a.log.Info("fitted the history into the context window", "conversation", t.id.String(),
			"trimmed", rep.Trimmed, "dropped_turns", rep.Dropped, "tokens", rep.Tokens, "limit", t.limit, "over", rep.Over)
	}
	return provider.Request{Model: opts.Model, System: t.system, Messages: msgs, Tools: t.tools, Deferrable: t.deferrable, MaxTokens: opts.MaxTokens,
		EstimatedTokens: rep.Tokens}, nil
}

// reply tracks the streamed reply of one step.
type reply struct {
	t       *turn
	seq     uint64 // the assistant_text event, 0 until text arrives
	pending strings.Builder
	stored  int // bytes of the reply already committed
	// unshown is the end of the text so far that may be the start of a
	// secret: the sink gets it with the next piece, redacted.
	unshown string
	flushed time.Time
	calls   []provider.ToolCall
	ids     map[string]bool
	step    int
	// th is the reasoning being streamed (stream.go).
	th thoughts
	// fatal is a store failure while streaming.
	fatal error
}

func (r *reply) onEvent(ev provider.Event) error {
	var err error
	switch ev.Type {
	case provider.EventText:
		if err = r.endThinking(store.StatusComplete, nil); err == nil {
			err = r.text(ev.Text)
		}
	case provider.EventToolCall:
		if ev.ToolCall != nil {
			if err = r.endThinking(store.StatusComplete, nil); err == nil {
				err = r.call(*ev.ToolCall)
			}
		}
	default:
		err = r.other(ev)
	}
	if err != nil {
		r.fatal = err
	}
	return err
}

func (r *reply) text(s string) error {
	if s == "" {
		return nil
	}
	t := r.t
	if r.seq == 0 {
		e, err := t.record(store.Event{Type: store.EventAssistantText, Model: t.a.opts.Model, Status: store.StatusStreaming})
		if err != nil {
			return err
		}
		r.seq, r.flushed = e.Seq, t.a.opts.Clock()
	}
	r.pending.WriteString(s)
	show, held := t.a.opts.Store.Redactor().Hold(r.unshown + s)
	r.unshown = held
	if show != "" {
		t.sink.OnText(r.seq, show)
	}
	n := r.pending.Len()
	if n >= max(flushBytes, (r.stored+n)/flushShare) || t.a.opts.Clock().Sub(r.flushed) >= flushEvery {
		return r.flush()
	}
	return nil
}

func (r *reply) flush() error {
	if r.pending.Len() == 0 {
		return nil
	}
	err := r.t.a.opts.Store.AppendText(r.t.id, r.seq, r.pending.String())
	r.stored += r.pending.Len()
	r.pending.Reset()
	r.flushed = r.t.a.opts.Clock()
	return err
}

func (r *reply) call(c provider.ToolCall) error {
	if c.ID == "" || r.ids[c.ID] {
		// Some servers send no ids, or repeat them; results must name their call.
		c.ID = fmt.Sprintf("call_%d_%d", r.step, len(r.calls)+1)
	}
	r.ids[c.ID] = true
	if _, err := r.t.record(store.Event{Type: store.EventToolCall, ToolCallID: c.ID, ToolName: c.Name, Arguments: c.Arguments}); err != nil {
		return err
	}
	r.calls = append(r.calls, c)
	return nil
}

// finish commits the reply text with its final status.
func (r *reply) finish(status store.Status) error {
	thought := status
	if thought == store.StatusLength {
		thought = store.StatusComplete
	}
	if err := r.endThinking(thought, nil); err != nil {
		return err
	}
	if r.seq == 0 {
		return nil
	}
	db := r.t.a.opts.Store
	if r.unshown != "" {
		r.t.sink.OnText(r.seq, db.Redactor().String(r.unshown))
		r.unshown = ""
	}
	if err := r.flush(); err != nil {
		return err
	}
	if err := db.FinishEvent(r.t.id, r.seq, status); err != nil {
		return err
	}
	e, err := db.Event(r.t.id, r.seq)
	if err != nil {
		return err
	}
	r.t.replace(e)
	return nil
}

// step sends one request, records the reply and runs its tool calls.
func (t *turn) step(n int) (bool, error) {
	opts := t.a.opts
	req, err := t.request()
	if err != nil {
		return false, err
	}
	r := &reply{t: t, ids: map[string]bool{}, step: n}
	resp, err := opts.Provider.Stream(t.ctx, req, r.onEvent)
	if r.fatal != nil {
		// The store failed: nothing more can be recorded reliably.
		return false, r.fatal
	}
	status := store.StatusComplete
	if err != nil {
		status = store.StatusInterrupted
	} else if resp != nil && resp.StopReason == provider.StopMaxTokens {
		status = store.StatusLength
	}
	if ferr := r.finish(status); ferr != nil {
		return false, errors.Join(err, ferr)
	}
	if err == nil && resp != nil && r.seq == 0 && len(r.calls) == 0 {
		// A provider that only returned the whole response.
		if resp.Text != "" {
			if _, rerr := t.record(store.Event{Type: store.EventAssistantText, Model: opts.Model, Text: resp.Text, Status: lengthOnly(status)}); rerr != nil {
				return false, rerr
			}
		}
		for _, c := range resp.ToolCalls {
			if cerr := r.call(c); cerr != nil {
				return false, cerr
			}
		}
	}
	if status == store.StatusLength && r.seq == 0 && resp.Text == "" {
		if lerr := r.lengthStop(); lerr != nil {
			return false, lerr
		}
	}
	if resp != nil && (resp.Usage.InputTokens > 0 || resp.Usage.OutputTokens > 0) {
		u := resp.Usage
		if _, rerr := t.record(store.Event{Type: store.EventUsage, Usage: &u, Model: opts.Model}); rerr != nil {
			return false, rerr
		}
	}
	if err != nil {
		if t.ctx.Err() != nil {
			if rerr := t.unanswered(r.calls, interruptedBeforeRun); rerr != nil {
				return false, rerr
			}
			return false, t.interrupted()
		}
		if rerr := t.unanswered(r.calls, notRunBrokenOff); rerr != nil {
			return false, rerr
		}
		if provider.KindOf(err) == provider.ErrContextLength && r.seq == 0 && len(r.calls) == 0 {
			return false, &shrinkError{err}
		}
		t.a.log.Warn("model request failed", "conversation", t.id.String(), "step", n,
			"error", opts.Store.Redactor().String(err.Error()))
		return false, t.fail(t.modelMessage(err), fmt.Errorf("%w: %w", ErrModel, err))
	}
	if len(r.calls) == 0 {
		return true, nil
	}
	for i, c := range r.calls {
		if t.ctx.Err() != nil {
			if rerr := t.unanswered(r.calls[i:], interruptedBeforeRun); rerr != nil {
				return false, rerr
			}
			return false, t.interrupted()
		}
		if err := t.runCall(c); err != nil {
			return false, err
		}
	}
	if t.ctx.Err() != nil {
		return false, t.interrupted()
	}
	return false, nil
}

// modelMessage explains a provider failure in the conversation.
func (t *turn) modelMessage(err error) string {
	var pe *provider.Error
	if errors.As(err, &pe) {
		// The provider's message already says what to do; the front end
		// adds the fix as a button or a command from the error's hint.
		msg := fmt.Sprintf("The model could not answer (%s): %s", pe.Provider, pe.Message)
		if k := t.kept(); k != "" {
			msg += " " + k
		}
		return msg
	}
	return "The model could not answer: " + err.Error()
}

const (
	interruptedBeforeRun = "interrupted: the turn was stopped before this call ran; it did not run"
	interruptedWhileRun  = "interrupted: the turn was stopped while this call ran; its outcome is unknown"
	notRunBrokenOff      = "not run: the model's answer broke off before it was complete"
)

// unanswered gives each call a result saying why it did not run, so the
// history stays well-formed for the next turn.
func (t *turn) unanswered(calls []provider.ToolCall, why string) error {
	var status store.Status
	if why == interruptedBeforeRun {
		status = store.StatusInterrupted
	}
	for _, c := range calls {
		if _, err := t.record(store.Event{Type: store.EventToolResult, ToolCallID: c.ID, ToolName: c.Name, Text: why, IsError: true, Status: status}); err != nil {
			return err
		}
	}
	return nil
}

// runCall passes one call through the gate and runs it.
func (t *turn) runCall(c provider.ToolCall) error {
	opts := t.a.opts
	reg := opts.Registry
	snap := reg.Snapshot()
	// refs are the tools the call made callable (set once it ran).
	var refs []string
	// images are the pictures the tool returned (set once it ran).
	var images []provider.Image
	// fix is what the user can do about the call's failure, if anything.
	var fix *hint.Hint
	result := func(text string, isError bool) error {
		_, err := t.record(store.Event{Type: store.EventToolResult, ToolCallID: c.ID, ToolName: c.Name, Text: text, IsError: isError, Images: images,
			ToolRefs: refs, Fix: fix})
		return err
	}
	stopped := func(text string) error {
		_, err := t.record(store.Event{Type: store.EventToolResult, ToolCallID: c.ID, ToolName: c.Name, Text: text, IsError: true,
			Status: store.StatusInterrupted})
		return err
	}
	// asked are the new hosts the approval is about, hostsOnly whether
	// only they were.
	var asked []gate.Host
	hostsOnly := false
	approval := func(kind store.DecisionKind, reason string) error {
		d := &store.Decision{Kind: kind, Reason: reason}
		if len(asked) > 0 {
			d.Hosts, d.HostsOnly = hostNames(asked), hostsOnly
		}
		_, err := t.record(store.Event{Type: store.EventApproval, ToolCallID: c.ID, ToolName: c.Name, Decision: d})
		return err
	}
	red := opts.Store.Redactor()
	hg := &hostGate{approver: opts.Approver, conv: t.id.String(), call: c.ID, tool: c.Name, trusted: t.a.trustedHosts(),
		mem: t.hosts, redact: red.String}
	if _, owner, known := snap.Tool(c.Name); known && opts.Allowed != nil && !opts.Allowed(owner.Name) {
		return result("Not run: "+c.Name+" belongs to the capability "+owner.Name+", which this run may not use "+
			"(the scheduled task lists the capabilities it may use). Do without it, or say what it would have needed.", true)
	}
	// A call the registry will refuse (unknown tool, arguments that do not
	// match its schema) is not worth asking the user about: its checks are
	// made once, here, and Run reports what they found.
	call := reg.Prepare(c.Name, c.Arguments)
	if _, owner, known := snap.Tool(c.Name); known && call.Err() == nil {
		hg.cap = owner.Name
		v := gate.CheckIn(snap, t.a.gateEnv(), c.Name, c.Arguments)
		reasons := strings.Join(v.Reasons, "; ")
		if v.Decision == gate.Block {
			if err := approval(store.Blocked, reasons); err != nil {
				return err
			}
			return result("Blocked by the safety policy; it did not run: "+reasons+
				". Do not try to get the same effect another way: tell the user what you wanted to do and why it was blocked.", true)
		}
		asked = newHosts(v.Hosts, t.hosts, hg.trusted)
		needCall := v.Decision == gate.Confirm && !t.grants.Covers(v)
		switch {
		case v.Decision == gate.Confirm && !needCall && len(asked) == 0:
			if err := approval(store.ApprovedConversation, "approved earlier in this conversation: "+reasons); err != nil {
				return err
			}
		case needCall || len(asked) > 0:
			req := gate.NewRequest(v, red.JSON(c.Arguments))
			req.ConversationID, req.ToolCallID, req.Summary = t.id.String(), c.ID, red.String(req.Summary)
			for _, h := range asked {
				req.Hosts = append(req.Hosts, gate.Host{Name: h.Name, URL: red.String(h.URL)})
			}
			if !needCall {
				// The call itself would run: only the hosts are asked about.
				hostsOnly = true
				req.Reasons, req.Scope, req.OnceOnly, req.HostsOnly = nil, "", false, true
			}
			req.Reasons = append(req.Reasons, hostReasons(asked, red.String)...)
			reasons = strings.Join(req.Reasons, "; ")
			ans, err := opts.Approver.Approve(t.ctx, req)
			if t.ctx.Err() != nil {
				return stopped(interruptedBeforeRun)
			}
			if ans == gate.ApproveConversation && req.OnceOnly {
				ans = gate.ApproveOnce // nothing of it can be remembered
			}
			switch {
			case err == nil && ans == gate.ApproveOnce:
				if err := approval(store.ApprovedOnce, reasons); err != nil {
					return err
				}
			case err == nil && ans == gate.ApproveConversation:
				if err := approval(store.ApprovedConversation, reasons); err != nil {
					return err
				}
				if needCall {
					t.grants.Add(v)
				}
				t.hosts.add(hostNames(asked)...)
			case errors.Is(err, gate.ErrNoApprover):
				if err := approval(store.Denied, err.Error()); err != nil {
					return err
				}
				return result("Not run: this call needs the user's approval ("+reasons+"), and no one can approve it now "+
					"(Wrasse is running without a window or terminal). Tell the user what you wanted to run and why, "+
					"so they can do it themselves or approve it in an interactive session.", true)
			case err != nil:
				if err := approval(store.Denied, "asking for approval failed: "+err.Error()); err != nil {
					return err
				}
				return result("Not run: asking the user for approval failed ("+err.Error()+"), so it counts as denied.", true)
			default:
				if err := approval(store.Denied, "the user said no; it needed approval because: "+reasons); err != nil {
					return err
				}
				return result("Not run: the user denied this call (it needed approval because: "+reasons+
					"). Do not retry it; ask the user how they want to proceed.", true)
			}
		}
		// The call may reach the hosts its arguments name; others it
		// reaches in the middle of the call ask (hostGate).
		hg.allow(hostNames(v.Hosts)...)
	}
	start := time.Now()
	before := t.sess.LoadOrder()
	res, err := reg.Run(sdk.WithHostCheck(t.callContext(c), hg.check), t.sess, call)
	refs = t.newToolRefs(before)
	for _, e := range hg.finish() {
		// What the person answered about hosts the call reached.
		if _, rerr := t.record(e); rerr != nil {
			return rerr
		}
	}
	if t.ctx.Err() != nil {
		return stopped(interruptedWhileRun)
	}
	if err != nil {
		t.a.log.Info("tool call failed", "conversation", t.id.String(), "tool", c.Name, "error", red.String(err.Error()))
		if h, ok := hint.Of(err); ok {
			fix = &h
		}
	} else {
		t.a.log.Debug("tool call", "conversation", t.id.String(), "tool", c.Name, "is_error", res.IsError,
			"bytes", len(res.Content), "elapsed", time.Since(start))
	}
	images = resultImages(res.Images)
	if err == nil && !res.IsError {
		res.Content += t.codeModeLoadNote(c.Name, refs)
	}
	if opts.AfterCall != nil {
		res.Content += opts.AfterCall(c.Name)
	}
	return result(res.Content, res.IsError)
}

// allowedDefs drops the tools of capabilities the turn may not use.
func (t *turn) allowedDefs(defs []cerebellum.ToolDef) []cerebellum.ToolDef {
	if t.a.opts.Allowed == nil {
		return defs
	}
	out := defs[:0:0]
	for _, d := range defs {
		if t.a.opts.Allowed(d.Capability) {
			out = append(out, d)
		}
	}
	return out
}
