package provider

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// Retry defaults.
const (
	DefaultMaxRetries    = 3
	DefaultBaseDelay     = time.Second
	DefaultMaxDelay      = 30 * time.Second
	DefaultMaxRetryAfter = 60 * time.Second
)

// RetryOptions says how WithRetry retries. The zero value is the defaults.
type RetryOptions struct {
	// MaxRetries is how many times a failed request is tried again:
	// 0 means DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// BaseDelay is the first backoff; each retry doubles it. Default
	// DefaultBaseDelay.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. Default DefaultMaxDelay.
	MaxDelay time.Duration
	// MaxRetryAfter caps a server's Retry-After. A server asking for longer
	// (a spent daily quota) is not retried at all: trying earlier than it
	// allows would only fail again, and the user is better told at once.
	// Default DefaultMaxRetryAfter.
	MaxRetryAfter time.Duration
	// Rand is the jitter source, returning values in [0, 1). Default
	// math/rand/v2. Calls are serialised, so any source will do.
	Rand interface{ Float64() float64 }
	// Sleep waits d or until ctx ends, returning ctx's error then. Default
	// a timer; tests inject one that returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives one Info record per retry. Default discards.
	Logger *slog.Logger
	// Now stamps the PhaseRetrying statuses. Default time.Now.
	Now func() time.Time
}

// WithRetry returns p wrapped so that a failure classed as retryable
// (Error.Retryable: rate limit, overload, network, timeout, unavailable) is
// retried with exponential backoff and jitter, waiting exactly the server's
// Retry-After when it sent one. An attempt is retried only if it reported
// nothing to onEvent but statuses: text already shown is never shown
// twice. Before each wait it reports a PhaseRetrying status saying which
// retry, how long and why. Cancelling ctx ends a wait at once with an
// ErrCanceled error.
func WithRetry(p Provider, opts RetryOptions) Provider {
	if opts.MaxRetries == 0 {
		opts.MaxRetries = DefaultMaxRetries
	}
	if opts.BaseDelay <= 0 {
		opts.BaseDelay = DefaultBaseDelay
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if opts.Rand == nil {
		opts.Rand = globalRand{}
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &retrying{p: p, opts: opts}
}

type retrying struct {
	p      Provider
	opts   RetryOptions
	randMu sync.Mutex
}

func (r *retrying) Name() string { return r.p.Name() }

// Unwrap returns the wrapped provider, so ListModels and Probe see what it
// can do.
func (r *retrying) Unwrap() Provider { return r.p }

func (r *retrying) Stream(ctx context.Context, req Request, onEvent func(Event) error) (*Response, error) {
	for attempt := 0; ; attempt++ {
		reported := false
		resp, err := r.p.Stream(ctx, req, func(ev Event) error {
			if ev.Type != EventStatus && ev.Type != EventUsage && ev.Type != EventNotice {
				reported = true
			}
			if onEvent == nil {
				return nil
			}
			return onEvent(ev)
		})
		if err == nil {
			return resp, nil
		}
		var pe *Error
		if reported || attempt >= r.opts.MaxRetries || !errors.As(err, &pe) || !pe.Retryable() || ctx.Err() != nil {
			return resp, err
		}
		wait, ok := r.delay(attempt, pe.RetryAfter)
		if !ok {
			return resp, err
		}
		r.opts.Logger.InfoContext(ctx, "retrying model request", "provider", pe.Provider,
			"kind", pe.Kind, "status", pe.Status, "attempt", attempt+1, "wait", wait)
		if onEvent != nil {
			st := &Status{Phase: PhaseRetrying, Since: r.opts.Now(), Model: req.Model,
				Attempt: attempt + 1, Attempts: r.opts.MaxRetries, Delay: wait}
			st.Message = fmt.Sprintf("retrying (%d of %d) in %s: %s", st.Attempt, st.Attempts, seconds(wait), Reason(pe))
			if cerr := onEvent(Event{Type: EventStatus, Status: st}); cerr != nil {
				return resp, cerr
			}
		}
		if serr := r.opts.Sleep(ctx, wait); serr != nil {
			kind := ErrCanceled
			if errors.Is(serr, context.DeadlineExceeded) {
				kind = ErrTimeout
			}
			return resp, &Error{
				Kind:     kind,
				Provider: pe.Provider,
				Message:  "stopped waiting to try again after: " + pe.Message,
				Err:      fmt.Errorf("%w (last failure: %w)", serr, err),
			}
		}
	}
}

// delay is the wait before retry number attempt+1; ok is false when the
// server asked for more than MaxRetryAfter.
func (r *retrying) delay(attempt int, retryAfter time.Duration) (time.Duration, bool) {
	if retryAfter > 0 {
		return retryAfter, retryAfter <= r.opts.MaxRetryAfter
	}
	d := r.opts.BaseDelay
	for i := 0; i < attempt && d < r.opts.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, r.opts.MaxDelay)
	// Equal jitter: at least half the backoff, so clients that failed
	// together spread out without any retrying at once.
	r.randMu.Lock()
	f := min(max(r.opts.Rand.Float64(), 0), 1)
	r.randMu.Unlock()
	return d/2 + time.Duration(f*float64(d/2)), true
}

// Reason names a failure in a few words, for a status line: "connection
// refused", "server error (HTTP 502)", "rate limited".
func Reason(pe *Error) string {
	switch pe.Detail {
	case DetailRefused:
		return "connection refused"
	case DetailHostNotFound:
		return "host not found"
	case DetailNotAPI:
		return "a web page answered, not a model API"
	case DetailStalled:
		return "the answer stopped arriving"
	case DetailNoStart:
		return "no answer began"
	}
	withStatus := func(s string) string {
		if pe.Status != 0 {
			return fmt.Sprintf("%s (HTTP %d)", s, pe.Status)
		}
		return s
	}
	switch pe.Kind {
	case ErrRateLimit:
		return withStatus("rate limited")
	case ErrOverloaded:
		return withStatus("overloaded")
	case ErrTimeout:
		return withStatus("timed out")
	case ErrNetwork:
		return "connection failed"
	case ErrUnavailable:
		return withStatus("server error")
	}
	return withStatus(string(pe.Kind))
}

type globalRand struct{}

func (globalRand) Float64() float64 { return rand.Float64() }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
