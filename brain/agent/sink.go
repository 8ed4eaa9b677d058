package agent

import (
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// Sink receives a turn as it happens: the CLI prints it, the UI draws it.
// Its methods are called on the goroutine running Turn, in order, and
// should return quickly (a UI hands them to its own thread).
type Sink interface {
	// OnStep is called before each model request of the turn (1, 2, ...).
	OnStep(step int)
	// OnText is called with the streamed reply piece by piece, secrets
	// redacted; seq is the reply's event. An ending that may be the start
	// of a secret comes with the next piece, so the pieces join into the
	// stored text.
	OnText(seq uint64, delta string)
	// OnEvent is called with every event exactly as stored (secrets
	// redacted, Seq and Time set). A streamed reply arrives twice: when it
	// starts (StatusStreaming, no text) and when it ends (complete or
	// interrupted, with its whole text), under the same Seq.
	OnEvent(e store.Event)
}

// StatusSink is a Sink that also shows what a model request is doing
// while no answer arrives: connecting, loading the model, reading the
// prompt, thinking, retrying, a stall mid-answer (provider.Status; never
// stored). OnStatus may come from another goroutine than the other
// methods (a timer's, while the request waits), never at the same time
// as them and never after the step's request ended. A front end shows
// st.Message with the time elapsed since st.Since, and hides it when the
// reply's text (OnText), a tool call (OnEvent) or the next step (OnStep)
// arrives, or the turn ends.
type StatusSink interface {
	OnStatus(st provider.Status)
}

// ThinkingSink is a Sink that also sees the model's reasoning as it
// streams: seq is its thinking event, which OnEvent shows when it starts
// (StatusStreaming, no text) and when it ends (with its whole text, and
// its Signature or Redacted data), as for a reply.
type ThinkingSink interface {
	OnThinking(seq uint64, delta string)
}

// Funcs adapts functions to a Sink; nil functions are skipped.
type Funcs struct {
	Step     func(step int)
	Text     func(seq uint64, delta string)
	Event    func(e store.Event)
	Status   func(st provider.Status)
	Thinking func(seq uint64, delta string)
}

var (
	_ StatusSink   = Funcs{}
	_ ThinkingSink = Funcs{}
)

// OnStatus calls f.Status.
func (f Funcs) OnStatus(st provider.Status) {
	if f.Status != nil {
		f.Status(st)
	}
}

// OnThinking calls f.Thinking.
func (f Funcs) OnThinking(seq uint64, delta string) {
	if f.Thinking != nil {
		f.Thinking(seq, delta)
	}
}

// OnStep calls f.Step.
func (f Funcs) OnStep(step int) {
	if f.Step != nil {
		f.Step(step)
	}
}

// OnText calls f.Text.
func (f Funcs) OnText(seq uint64, delta string) {
	if f.Text != nil {
		f.Text(seq, delta)
	}
}

// OnEvent calls f.Event.
func (f Funcs) OnEvent(e store.Event) {
	if f.Event != nil {
		f.Event(e)
	}
}
