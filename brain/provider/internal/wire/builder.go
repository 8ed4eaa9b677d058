package wire

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Builder assembles a provider.Response from streamed pieces while passing
// each piece to the caller's onEvent, so the partial Response returned with
// an error holds exactly what the caller was shown. Its methods may be
// called from several goroutines (a Watch reports statuses from timers):
// onEvent is never called concurrently.
type Builder struct {
	onEvent func(provider.Event) error
	// now stamps the statuses the Builder sends itself.
	now func() time.Time

	mu       sync.Mutex
	text     strings.Builder
	thinking strings.Builder
	resp     provider.Response
	// shown reports that text, reasoning or a call was reported;
	// answering that text or a call was.
	shown, answering bool
	phase            provider.Phase
	model            string
}

// NewBuilder returns a Builder that reports to onEvent (nil: no reports).
func NewBuilder(onEvent func(provider.Event) error) *Builder {
	return &Builder{onEvent: onEvent, now: time.Now}
}

// CallbackError carries an error returned by the caller's onEvent, so the
// provider can hand it back unchanged rather than classify it.
type CallbackError struct{ Err error }

func (e *CallbackError) Error() string { return e.Err.Error() }
func (e *CallbackError) Unwrap() error { return e.Err }

// emit reports ev; call with b.mu held.
func (b *Builder) emit(ev provider.Event) error {
	if b.onEvent == nil {
		return nil
	}
	if err := b.onEvent(ev); err != nil {
		return &CallbackError{Err: err}
	}
	return nil
}

// enter reports a Status when the stream moves to phase; call with b.mu
// held.
func (b *Builder) enter(phase provider.Phase, msg string) error {
	if b.phase == phase {
		return nil
	}
	b.phase = phase
	return b.emit(provider.Event{Type: provider.EventStatus, Status: &provider.Status{Phase: phase, Message: msg, Since: b.now(), Model: b.model}})
}

// Text records and reports a piece of assistant text.
func (b *Builder) Text(s string) error {
	if s == "" {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endThinking()
	b.answering, b.shown = true, true
	b.text.WriteString(s)
	return b.emit(provider.Event{Type: provider.EventText, Text: s})
}

// Thinking records and reports a piece of the model's reasoning.
func (b *Builder) Thinking(s string) error {
	if s == "" {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.enter(provider.PhaseThinking, "thinking…"); err != nil {
		return err
	}
	b.shown = true
	b.thinking.WriteString(s)
	return b.emit(provider.Event{Type: provider.EventThinking, Text: s})
}

// ThinkingBlock ends the reasoning reported so far as one block carrying
// the server's signature, or records a redacted block (blk.Redacted), and
// reports it so it can travel back unchanged.
func (b *Builder) ThinkingBlock(blk provider.ThinkingBlock) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	blk.Text = b.thinking.String()
	b.thinking.Reset()
	if blk.Redacted != "" {
		blk.Text = ""
	}
	b.resp.Thinking = append(b.resp.Thinking, blk)
	b.shown = true
	ev := blk
	return b.emit(provider.Event{Type: provider.EventThinkingBlock, Block: &ev})
}

// endThinking closes reasoning that came without blocks (Ollama,
// OpenAI-compatible servers) into one unsigned block; call with b.mu held.
func (b *Builder) endThinking() {
	if b.thinking.Len() > 0 {
		b.resp.Thinking = append(b.resp.Thinking, provider.ThinkingBlock{Text: b.thinking.String()})
		b.thinking.Reset()
	}
}

// ToolCall records and reports one complete tool call.
func (b *Builder) ToolCall(tc provider.ToolCall) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endThinking()
	b.answering, b.shown = true, true
	b.resp.ToolCalls = append(b.resp.ToolCalls, tc)
	ev := tc
	return b.emit(provider.Event{Type: provider.EventToolCall, ToolCall: &ev})
}

// Status reports st, unless the answer already streams (a status then
// says nothing new) and st is not a stall.
func (b *Builder) Status(st provider.Status) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answering && st.Phase != provider.PhaseStalled {
		return nil
	}
	if st.Model == "" {
		st.Model = b.model
	}
	if st.Phase != provider.PhaseStalled {
		b.phase = st.Phase
	}
	return b.emit(provider.Event{Type: provider.EventStatus, Status: &st})
}

// Notice reports a sentence for the person about this request.
func (b *Builder) Notice(s string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.emit(provider.Event{Type: provider.EventNotice, Text: s})
}

// Shown reports whether anything of the answer (text, reasoning, a call)
// was reported.
func (b *Builder) Shown() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.shown
}

// SetUsage records usage without reporting it (the stream is not over).
func (b *Builder) SetUsage(u provider.Usage) {
	b.mu.Lock()
	b.resp.Usage = u
	b.mu.Unlock()
}

// Finish reports the usage and sets the stop reason.
func (b *Builder) Finish(stopReason string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endThinking()
	b.resp.StopReason = stopReason
	u := b.resp.Usage
	return b.emit(provider.Event{Type: provider.EventUsage, Usage: &u})
}

// Response returns a copy of what has been assembled so far.
func (b *Builder) Response() *provider.Response {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.resp
	r.Text = b.text.String()
	r.ToolCalls = append([]provider.ToolCall(nil), b.resp.ToolCalls...)
	r.Thinking = append([]provider.ThinkingBlock(nil), b.resp.Thinking...)
	if b.thinking.Len() > 0 {
		r.Thinking = append(r.Thinking, provider.ThinkingBlock{Text: b.thinking.String()})
	}
	return &r
}

// Arguments normalises tool-call arguments: an empty string becomes {} (a
// call without parameters); anything else, valid JSON or not, is kept as the
// model wrote it so the conversation can report bad JSON back to the model.
func Arguments(s string) []byte {
	if strings.TrimSpace(s) == "" {
		return []byte("{}")
	}
	return []byte(s)
}

// Fail ends a Stream call that went wrong: it returns the partial response
// with err. An error from the caller's onEvent comes back unchanged, unless
// ctx ended meanwhile, which makes it a cancellation. Failures are logged at
// debug level with their (already redacted) message.
func Fail(ctx context.Context, log *slog.Logger, b *Builder, cls *Classifier, err error) (*provider.Response, error) {
	var cb *CallbackError
	if errors.As(err, &cb) {
		perr := cls.Context(ctx, cb.Err)
		if perr == nil {
			return b.Response(), cb.Err
		}
		err = perr
	}
	var pe *provider.Error
	if errors.As(err, &pe) {
		log.DebugContext(ctx, "model error", "kind", pe.Kind, "status", pe.Status, "message", pe.Message)
	}
	return b.Response(), err
}
