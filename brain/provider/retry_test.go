package provider_test

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// scripted is a Provider that plays one outcome per call.
type scripted struct {
	outcomes []outcome
	calls    int
}

type outcome struct {
	text string // reported before failing or succeeding
	err  error
}

func (s *scripted) Name() string { return "fake" }

func (s *scripted) Stream(_ context.Context, _ provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	o := s.outcomes[min(s.calls, len(s.outcomes)-1)]
	s.calls++
	if o.text != "" {
		if err := onEvent(provider.Event{Type: provider.EventText, Text: o.text}); err != nil {
			return &provider.Response{}, err
		}
	}
	return &provider.Response{Text: o.text}, o.err
}

func perr(kind provider.ErrorKind, retryAfter time.Duration) error {
	return &provider.Error{Kind: kind, Provider: "fake", Message: string(kind), RetryAfter: retryAfter}
}

type fixedRand float64

func (f fixedRand) Float64() float64 { return float64(f) }

func TestWithRetry(t *testing.T) {
	ok := outcome{text: "hi"}
	tests := []struct {
		name     string
		opts     provider.RetryOptions
		outcomes []outcome
		calls    int
		slept    []time.Duration
		kind     provider.ErrorKind // "" for success
		errText  string             // for an error that is not an *Error
	}{
		{name: "success", outcomes: []outcome{ok}, calls: 1},
		{name: "overloaded then success", outcomes: []outcome{{err: perr(provider.ErrOverloaded, 0)}, ok},
			calls: 2, slept: []time.Duration{750 * time.Millisecond}},
		{name: "retry-after honoured exactly", outcomes: []outcome{{err: perr(provider.ErrRateLimit, 42*time.Second)}, ok},
			calls: 2, slept: []time.Duration{42 * time.Second}},
		{name: "retry-after above cap: give up at once", outcomes: []outcome{{err: perr(provider.ErrRateLimit, 61*time.Second)}, ok},
			calls: 1, kind: provider.ErrRateLimit},
		{name: "custom cap", opts: provider.RetryOptions{MaxRetryAfter: 2 * time.Hour},
			outcomes: []outcome{{err: perr(provider.ErrRateLimit, time.Hour)}, ok}, calls: 2, slept: []time.Duration{time.Hour}},
		{name: "exhausted: exponential backoff", outcomes: []outcome{{err: perr(provider.ErrNetwork, 0)}},
			calls: 4, kind: provider.ErrNetwork,
			slept: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second}},
		{name: "backoff capped by MaxDelay", opts: provider.RetryOptions{MaxRetries: 5, BaseDelay: 10 * time.Second, MaxDelay: 20 * time.Second},
			outcomes: []outcome{{err: perr(provider.ErrTimeout, 0)}}, calls: 6, kind: provider.ErrTimeout,
			slept: []time.Duration{7500 * time.Millisecond, 15 * time.Second, 15 * time.Second, 15 * time.Second, 15 * time.Second}},
		{name: "not retryable", outcomes: []outcome{{err: perr(provider.ErrAuth, 0)}, ok}, calls: 1, kind: provider.ErrAuth},
		{name: "bad stream not retried", outcomes: []outcome{{err: perr(provider.ErrBadStream, 0)}, ok}, calls: 1, kind: provider.ErrBadStream},
		{name: "plain error not retried", outcomes: []outcome{{err: errors.New("boom")}, ok}, calls: 1, errText: "boom"},
		{name: "text already shown: never retried", outcomes: []outcome{{text: "partial", err: perr(provider.ErrOverloaded, 0)}, ok},
			calls: 1, kind: provider.ErrOverloaded},
		{name: "retries disabled", opts: provider.RetryOptions{MaxRetries: -1},
			outcomes: []outcome{{err: perr(provider.ErrOverloaded, 0)}, ok}, calls: 1, kind: provider.ErrOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &scripted{outcomes: tt.outcomes}
			var slept []time.Duration
			pol := tt.opts
			if pol.Rand == nil {
				pol.Rand = fixedRand(0.5)
			}
			pol.Sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
			p := provider.WithRetry(fake, pol)
			if p.Name() != "fake" {
				t.Errorf("Name = %q", p.Name())
			}
			var shown []string
			resp, err := p.Stream(t.Context(), provider.Request{}, func(ev provider.Event) error {
				if ev.Type == provider.EventText {
					shown = append(shown, ev.Text)
				}
				return nil
			})
			if fake.calls != tt.calls || !reflect.DeepEqual(slept, tt.slept) {
				t.Errorf("calls %d slept %v, want %d %v", fake.calls, slept, tt.calls, tt.slept)
			}
			if tt.kind != "" && provider.KindOf(err) != tt.kind {
				t.Errorf("err = %v, want kind %q", err, tt.kind)
			}
			if tt.errText != "" && (err == nil || err.Error() != tt.errText) {
				t.Errorf("err = %v, want %q unchanged", err, tt.errText)
			}
			if tt.kind == "" && tt.errText == "" && err != nil {
				t.Errorf("err = %v, want success", err)
			}
			if resp == nil {
				t.Fatal("nil response")
			}
			if len(shown) > 1 {
				t.Errorf("text shown %d times: %v", len(shown), shown)
			}
		})
	}
}

func TestWithRetryJitterRange(t *testing.T) {
	for _, f := range []float64{0, 0.999999} {
		fake := &scripted{outcomes: []outcome{{err: perr(provider.ErrOverloaded, 0)}, {}}}
		var slept time.Duration
		p := provider.WithRetry(fake, provider.RetryOptions{Rand: fixedRand(f),
			Sleep: func(_ context.Context, d time.Duration) error { slept = d; return nil }})
		if _, err := p.Stream(t.Context(), provider.Request{}, nil); err != nil {
			t.Fatal(err)
		}
		if slept < 500*time.Millisecond || slept >= time.Second {
			t.Errorf("rand %v: slept %v, want within [0.5s, 1s)", f, slept)
		}
	}
}

func TestWithRetryCanceledWhileWaiting(t *testing.T) {
	fake := &scripted{outcomes: []outcome{{err: perr(provider.ErrOverloaded, 0)}, {}}}
	ctx, cancel := context.WithCancel(t.Context())
	p := provider.WithRetry(fake, provider.RetryOptions{
		// Cancel as the wait starts, then wait as the real sleep would.
		Sleep: func(ctx context.Context, _ time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() },
	})
	resp, err := p.Stream(ctx, provider.Request{}, nil)
	if provider.KindOf(err) != provider.ErrCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	var pe *provider.Error
	if errors.As(err, &pe) && pe.Provider != "fake" {
		t.Errorf("provider = %q", pe.Provider)
	}
	var last *provider.Error
	if !errors.As(errors.Unwrap(err), &last) || last.Kind != provider.ErrOverloaded {
		t.Errorf("last failure not kept in the chain: %v", err)
	}
	if resp == nil || fake.calls != 1 {
		t.Errorf("resp %v calls %d", resp, fake.calls)
	}
}

// The default sleep must end at once when ctx is canceled: this test would
// hang for most of an hour otherwise. The cancel comes from the retry's log
// record, written just before the wait begins.
func TestDefaultSleepStopsOnCancel(t *testing.T) {
	fake := &scripted{outcomes: []outcome{{err: perr(provider.ErrRateLimit, 59*time.Minute)}, {}}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := provider.WithRetry(fake, provider.RetryOptions{MaxRetryAfter: time.Hour, Logger: slog.New(cancelHandler{cancel})})
	_, err := p.Stream(ctx, provider.Request{}, nil)
	if provider.KindOf(err) != provider.ErrCanceled || fake.calls != 1 {
		t.Errorf("err = %v after %d calls, want canceled after 1", err, fake.calls)
	}
}

type cancelHandler struct{ cancel context.CancelFunc }

func (h cancelHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelHandler) Handle(context.Context, slog.Record) error {
	h.cancel()
	return nil
}
func (h cancelHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h cancelHandler) WithGroup(string) slog.Handler      { return h }

// Each wait before a retry is announced as a status, which does not count
// as something shown: the request is still retried.
func TestWithRetryReportsStatus(t *testing.T) {
	refused := &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Message: "no", Detail: provider.DetailRefused}
	fake := &statusFirst{scripted: scripted{outcomes: []outcome{{err: refused}, {err: perr(provider.ErrUnavailable, 0)}, {}}}}
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	p := provider.WithRetry(fake, provider.RetryOptions{Rand: fixedRand(0.5), Now: func() time.Time { return now },
		Sleep: func(context.Context, time.Duration) error { return nil }})
	var got []string
	if _, err := p.Stream(t.Context(), provider.Request{Model: "m"}, func(ev provider.Event) error {
		if ev.Type == provider.EventStatus && ev.Status.Phase == provider.PhaseRetrying {
			if !ev.Status.Since.Equal(now) || ev.Status.Model != "m" {
				t.Errorf("status %+v", ev.Status)
			}
			got = append(got, ev.Status.Message)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"retrying (1 of 3) in 0.8 s: connection refused", "retrying (2 of 3) in 1.5 s: server error"}
	if !reflect.DeepEqual(got, want) || fake.calls != 3 {
		t.Errorf("statuses %q after %d calls, want %q after 3", got, fake.calls, want)
	}
}

// statusFirst reports a connecting status before each outcome, as the
// real providers do.
type statusFirst struct{ scripted }

func (s *statusFirst) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	if err := onEvent(provider.Event{Type: provider.EventStatus, Status: &provider.Status{Phase: provider.PhaseConnecting}}); err != nil {
		return &provider.Response{}, err
	}
	return s.scripted.Stream(ctx, req, onEvent)
}

// A server on this computer that refuses the connection is not running:
// the failure comes at once, not after seconds of retries. A stall or a
// web page answering is not retried either.
func TestWithRetryGivesUpAtOnce(t *testing.T) {
	tests := []struct {
		name  string
		err   *provider.Error
		calls int
	}{
		{"local refused", &provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailRefused, Local: true}, 1},
		{"remote refused", &provider.Error{Kind: provider.ErrUnavailable, Detail: provider.DetailRefused}, 4},
		{"stalled", &provider.Error{Kind: provider.ErrTimeout, Detail: provider.DetailStalled}, 1},
		{"no start", &provider.Error{Kind: provider.ErrTimeout, Detail: provider.DetailNoStart}, 1},
		{"web page", &provider.Error{Kind: provider.ErrBadStream, Detail: provider.DetailNotAPI}, 1},
		{"server error", &provider.Error{Kind: provider.ErrUnavailable, Status: 502, Detail: provider.DetailServer}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &scripted{outcomes: []outcome{{err: tt.err}}}
			p := provider.WithRetry(fake, provider.RetryOptions{Sleep: func(context.Context, time.Duration) error { return nil }})
			_, _ = p.Stream(t.Context(), provider.Request{}, nil)
			if fake.calls != tt.calls {
				t.Errorf("calls %d, want %d", fake.calls, tt.calls)
			}
		})
	}
}
