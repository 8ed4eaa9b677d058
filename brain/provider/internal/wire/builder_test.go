package wire

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestBuilder(t *testing.T) {
	var got []provider.Event
	stop := errors.New("stop")
	b := NewBuilder(func(ev provider.Event) error {
		got = append(got, ev)
		if ev.Type == provider.EventToolCall {
			return stop
		}
		return nil
	})
	if err := b.Text(""); err != nil || len(got) != 0 {
		t.Fatalf("empty text reported: %v %v", err, got)
	}
	_ = b.Text("Hel")
	_ = b.Text("lo")
	err := b.ToolCall(provider.ToolCall{ID: "1", Name: "f", Arguments: Arguments("")})
	var cb *CallbackError
	if !errors.As(err, &cb) || cb.Err != stop {
		t.Fatalf("callback error not carried: %v", err)
	}
	b.SetUsage(provider.Usage{InputTokens: 3})
	resp := b.Response()
	want := &provider.Response{Text: "Hello", ToolCalls: []provider.ToolCall{{ID: "1", Name: "f", Arguments: []byte("{}")}}, Usage: provider.Usage{InputTokens: 3}}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("response %+v, want %+v", resp, want)
	}
	// The snapshot is a copy.
	resp.ToolCalls[0].ID = "changed"
	if b.Response().ToolCalls[0].ID != "1" {
		t.Error("Response shares its slice")
	}
	if err := NewBuilder(nil).Text("x"); err != nil {
		t.Errorf("nil onEvent: %v", err)
	}
}

func TestArguments(t *testing.T) {
	for in, want := range map[string]string{"": "{}", "  \n": "{}", `{"a":1}`: `{"a":1}`, `{"a":`: `{"a":`} {
		if got := string(Arguments(in)); got != want {
			t.Errorf("Arguments(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFail(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	own := errors.New("window closed")
	b := NewBuilder(nil)
	_ = b.Text("so far")
	cls := testClassifier()

	resp, err := Fail(t.Context(), log, b, cls, &CallbackError{Err: own})
	if err != own || resp.Text != "so far" {
		t.Errorf("live ctx: got %v %q, want the callback's error and the partial text", err, resp.Text)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = Fail(ctx, log, b, cls, &CallbackError{Err: own})
	if provider.KindOf(err) != provider.ErrCanceled || !errors.Is(err, own) {
		t.Errorf("canceled ctx: got %v, want canceled wrapping the callback's error", err)
	}
	pe := &provider.Error{Kind: provider.ErrAuth}
	if _, err := Fail(t.Context(), log, b, cls, pe); err != pe {
		t.Errorf("provider error replaced: %v", err)
	}
}
