package wire

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Builder assembles a provider.Response from streamed pieces while passing
// each piece to the caller's onEvent, so the partial Response returned with
// an error holds exactly what the caller was shown.
type Builder struct {
	onEvent func(provider.Event) error
	text    strings.Builder
	resp    provider.Response
}

// NewBuilder returns a Builder that reports to onEvent (nil: no reports).
func NewBuilder(onEvent func(provider.Event) error) *Builder {
	return &Builder{onEvent: onEvent}
}

// CallbackError carries an error returned by the caller's onEvent, so the
// provider can hand it back unchanged rather than classify it.
type CallbackError struct{ Err error }

func (e *CallbackError) Error() string { return e.Err.Error() }
func (e *CallbackError) Unwrap() error { return e.Err }

func (b *Builder) emit(ev provider.Event) error {
	if b.onEvent == nil {
		return nil
	}
	if err := b.onEvent(ev); err != nil {
		return &CallbackError{Err: err}
	}
	return nil
}

// Text records and reports a piece of assistant text.
func (b *Builder) Text(s string) error {
	if s == "" {
		return nil
	}
	b.text.WriteString(s)
	return b.emit(provider.Event{Type: provider.EventText, Text: s})
}

// ToolCall records and reports one complete tool call.
func (b *Builder) ToolCall(tc provider.ToolCall) error {
	b.resp.ToolCalls = append(b.resp.ToolCalls, tc)
	ev := tc
	return b.emit(provider.Event{Type: provider.EventToolCall, ToolCall: &ev})
}

// SetUsage records usage without reporting it (the stream is not over).
func (b *Builder) SetUsage(u provider.Usage) { b.resp.Usage = u }

// Finish reports the usage and sets the stop reason.
func (b *Builder) Finish(stopReason string) error {
	b.resp.StopReason = stopReason
	u := b.resp.Usage
	return b.emit(provider.Event{Type: provider.EventUsage, Usage: &u})
}

// Response returns a copy of what has been assembled so far.
func (b *Builder) Response() *provider.Response {
	r := b.resp
	r.Text = b.text.String()
	r.ToolCalls = append([]provider.ToolCall(nil), b.resp.ToolCalls...)
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
