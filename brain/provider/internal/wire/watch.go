package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// A Watch guards one streamed request so that every wait has an end and
// the person waiting sees why:
//
//   - before the first byte of the answer, the server has Timeouts.Idle
//     (Load for a server on this computer, or one that says it loads the
//     model) to start;
//   - after it, each silence may last Idle;
//   - once the stream gave its finish reason it has AfterFinish to end,
//     and counts as complete when it does not (a server that never sends
//     [DONE] or closes the connection);
//   - statuses say what happens meanwhile: connecting, waiting, loading,
//     and a stall mid-answer (on which the agent commits what was shown).
//
// The answer's bytes are seen by the HTTP client's transport (Transport),
// which finds the Watch in the request's context: keep-alive comments a
// server sends while its model thinks count as life. Deadlines run on a
// provider.Clock, so tests step time instead of waiting for it.
type Watch struct {
	clock  provider.Clock
	t      provider.Timeouts
	b      *Builder
	model  string
	cancel context.CancelCauseFunc
	onSlow func()
	ctx    context.Context

	wg sync.WaitGroup
	mu sync.Mutex
	// stopped: no more callbacks may report anything.
	stopped bool
	// deadline, stall and slow are the timers; stallArmed says stall is
	// pending.
	deadline, stall, slow provider.Timer
	stallArmed            bool
	// start is when the request left (or the load began); last is the
	// last byte of the answer; finishedAt when the finish reason came.
	start, last, finishedAt time.Time
	gotHeaders, first       bool
	finished, loading       bool
	// fired is why the request was ended by the Watch (an *Expired, or a
	// CallbackError from a status reported on a timer).
	fired error
	// probing ends a Probe in flight (Stop waits for it otherwise).
	probing context.CancelFunc
	// status and contentType are the response's, when one came.
	status      int
	contentType string
}

// WatchConfig configures a Watch.
type WatchConfig struct {
	Clock    provider.Clock
	Timeouts provider.Timeouts
	Builder  *Builder
	// Model is the model asked, and Server names the server in statuses
	// ("Ollama", "api.openai.com").
	Model, Server string
	// Local: the server is on this computer, so before the first byte the
	// wait is Timeouts.Load (it may be loading the model).
	Local bool
	// OnSlow, when set, runs once if no byte came within
	// Timeouts.SlowStart, in a goroutine of its own: the provider finds
	// out why (Ollama: loading the model?) and says so with Loading or Say.
	// Any request it makes must not use the watched context.
	OnSlow func()
	// Probe, for a server on this computer and when OnSlow is not set,
	// asks the server something cheap once no byte came within
	// Timeouts.SlowStart. An answer of any kind says it is working on the
	// request (loading the model, reading a long prompt): the wait stays
	// Timeouts.Load. No answer within DiscoveryTimeout says it is stuck:
	// the wait becomes Timeouts.Idle from the request's start, as for a
	// server elsewhere, instead of minutes.
	Probe func(ctx context.Context) error
}

// ExpiredKind says which limit a Watch enforced.
type ExpiredKind string

const (
	// ExpiredNoStart: no byte of the answer came in time.
	ExpiredNoStart ExpiredKind = "no_start"
	// ExpiredStalled: the answer stopped arriving for the idle timeout.
	ExpiredStalled ExpiredKind = "stalled"
	// ExpiredAfterFinish: the stream gave its finish reason and then
	// neither ended nor sent more: it is complete.
	ExpiredAfterFinish ExpiredKind = "after_finish"
)

// Expired is the cause a Watch cancels its request with.
type Expired struct {
	Kind  ExpiredKind
	After time.Duration
}

func (e *Expired) Error() string {
	switch e.Kind {
	case ExpiredNoStart:
		return fmt.Sprintf("no answer began within %s", provider.Seconds(e.After))
	case ExpiredStalled:
		return fmt.Sprintf("the answer stopped arriving for %s", provider.Seconds(e.After))
	}
	return "the stream did not end after its finish reason"
}

type watchKey struct{}

// NewWatch starts watching a request: it reports the connecting status
// (on the calling goroutine) and returns the context to send the request
// with, which carries the Watch to Transport and is cancelled when a
// limit is reached. Call Stop when the request is over.
func NewWatch(ctx context.Context, cfg WatchConfig) (context.Context, *Watch) {
	if cfg.Clock == nil {
		cfg.Clock = provider.SystemClock()
	}
	w := &Watch{clock: cfg.Clock, t: cfg.Timeouts.WithDefaults(), b: cfg.Builder, model: cfg.Model, onSlow: cfg.OnSlow}
	w.loading = cfg.Local
	if cfg.Local && cfg.OnSlow == nil && cfg.Probe != nil {
		// On a goroutine of its own: the probe's limit runs on the
		// clock, whose timers may run on the goroutine that fired this.
		w.onSlow = func() {
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				w.probe(cfg.Probe)
			}()
		}
	}
	ctx, w.cancel = context.WithCancelCause(ctx)
	w.ctx = context.WithValue(ctx, watchKey{}, w)
	now := w.clock.Now()
	w.start = now
	if w.b != nil {
		w.b.mu.Lock()
		w.b.model, w.b.now = cfg.Model, w.clock.Now
		w.b.mu.Unlock()
		server := cfg.Server
		if server == "" {
			server = "the server"
		}
		// An error here is the caller's onEvent failing: the first Text
		// will report it again.
		_ = w.b.Status(provider.Status{Phase: provider.PhaseConnecting, Message: "connecting to " + server + "…", Since: now})
	}
	w.mu.Lock()
	w.deadline = w.clock.AfterFunc(w.dueLocked().Sub(now), w.onDeadline)
	if w.onSlow != nil {
		w.slow = w.clock.AfterFunc(w.t.SlowStart, w.onSlowStart)
	}
	w.mu.Unlock()
	return w.ctx, w
}

// dueLocked is when the current limit ends; call with w.mu held.
func (w *Watch) dueLocked() time.Time {
	switch {
	case w.finished:
		return w.finishedAt.Add(w.t.AfterFinish)
	case !w.first && w.loading:
		return w.start.Add(w.t.Load)
	case !w.first:
		return w.start.Add(w.t.Idle)
	}
	return w.last.Add(w.t.Idle)
}

func (w *Watch) onDeadline() {
	w.mu.Lock()
	if w.stopped || w.fired != nil {
		w.mu.Unlock()
		return
	}
	now := w.clock.Now()
	due := w.dueLocked()
	if now.Before(due) {
		// A byte came (or the limit moved) since the timer was set.
		w.deadline.Reset(due.Sub(now))
		w.mu.Unlock()
		return
	}
	var e *Expired
	switch {
	case w.finished:
		e = &Expired{Kind: ExpiredAfterFinish, After: w.t.AfterFinish}
	case !w.first && w.loading:
		e = &Expired{Kind: ExpiredNoStart, After: w.t.Load}
	case !w.first:
		e = &Expired{Kind: ExpiredNoStart, After: w.t.Idle}
	default:
		e = &Expired{Kind: ExpiredStalled, After: w.t.Idle}
	}
	w.fired = e
	w.mu.Unlock()
	w.cancel(e)
}

func (w *Watch) onSlowStart() {
	w.mu.Lock()
	if w.stopped || w.first || w.fired != nil {
		w.mu.Unlock()
		return
	}
	w.wg.Add(1)
	w.mu.Unlock()
	defer w.wg.Done()
	w.onSlow()
}

// probe asks a local server whether it answers at all (WatchConfig.Probe),
// on the slow-start timer's goroutine.
func (w *Watch) probe(ask func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	w.probing = cancel
	w.mu.Unlock()
	limit := w.clock.AfterFunc(DiscoveryTimeout, cancel)
	defer limit.Stop()
	if ask(ctx) == nil {
		w.Say(provider.PhaseWaiting, "the server is working on it (loading "+w.model+" or reading the prompt)…")
		return
	}
	w.mu.Lock()
	if w.stopped || w.first || w.fired != nil || !w.loading {
		w.mu.Unlock()
		return
	}
	w.loading = false
	now := w.clock.Now()
	due := w.dueLocked()
	late := !now.Before(due)
	if !late {
		w.deadline.Reset(due.Sub(now))
	}
	w.mu.Unlock()
	if late {
		w.onDeadline()
		return
	}
	w.Say(provider.PhaseWaiting, "the server on this computer is not answering; waiting "+provider.Seconds(due.Sub(now))+" more…")
}

func (w *Watch) onStall() {
	w.mu.Lock()
	if w.stopped || w.finished || w.fired != nil {
		w.stallArmed = false
		w.mu.Unlock()
		return
	}
	now := w.clock.Now()
	if quiet := now.Sub(w.last); quiet < w.t.StallNotice {
		w.stall.Reset(w.t.StallNotice - quiet)
		w.mu.Unlock()
		return
	}
	w.stallArmed = false
	since := w.last
	w.wg.Add(1)
	w.mu.Unlock()
	defer w.wg.Done()
	w.report(provider.Status{Phase: provider.PhaseStalled, Message: "waiting for more from " + w.model + "…", Since: since})
}

// report sends a status from a timer's goroutine; a failure of the
// caller's onEvent ends the request with it.
func (w *Watch) report(st provider.Status) {
	if w.b == nil {
		return
	}
	if err := w.b.Status(st); err != nil {
		w.mu.Lock()
		if w.fired == nil {
			w.fired = err
		}
		w.mu.Unlock()
		w.cancel(err)
	}
}

// Say reports a status while the request waits (from OnSlow).
func (w *Watch) Say(phase provider.Phase, message string) {
	w.mu.Lock()
	if w.stopped || w.first {
		w.mu.Unlock()
		return
	}
	w.wg.Add(1)
	w.mu.Unlock()
	defer w.wg.Done()
	w.report(provider.Status{Phase: phase, Message: message, Since: w.clock.Now()})
}

// Loading records that the server is loading the model (from OnSlow):
// the first byte may now take Timeouts.Load from here, and the person is
// told.
func (w *Watch) Loading() {
	w.mu.Lock()
	if w.stopped || w.first {
		w.mu.Unlock()
		return
	}
	now := w.clock.Now()
	w.loading, w.start = true, now
	w.wg.Add(1)
	w.mu.Unlock()
	defer w.wg.Done()
	w.report(provider.Status{Phase: provider.PhaseLoading, Message: "loading " + w.model + " into memory…", Since: now})
}

// Finished records that the stream gave its finish reason: it has
// Timeouts.AfterFinish left to end.
func (w *Watch) Finished() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished || w.stopped {
		return
	}
	w.finished, w.finishedAt = true, w.clock.Now()
	w.deadline.Reset(w.t.AfterFinish)
}

// Complete reports whether the Watch ended a stream that had given its
// finish reason: the answer is whole.
func (w *Watch) Complete() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	var e *Expired
	return errors.As(w.fired, &e) && e.Kind == ExpiredAfterFinish
}

// Fired returns why the Watch ended the request (an *Expired, or a
// *CallbackError from a status), or nil.
func (w *Watch) Fired() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

// Response returns the status and content type of the response, 0 and ""
// before one came.
func (w *Watch) Response() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status, w.contentType
}

// Stop ends the watch: timers stop and no status is reported after it
// returns. It releases the request's context.
func (w *Watch) Stop() {
	w.mu.Lock()
	w.stopped = true
	if w.probing != nil {
		w.probing()
	}
	w.deadline.Stop()
	if w.stall != nil {
		w.stall.Stop()
	}
	if w.slow != nil {
		w.slow.Stop()
	}
	w.mu.Unlock()
	w.wg.Wait()
	w.cancel(context.Canceled)
}

// responded records the response's headers; a server elsewhere has
// started, and the person is told the model is on it.
func (w *Watch) responded(res *http.Response) {
	w.mu.Lock()
	w.status, w.contentType = res.StatusCode, res.Header.Get("Content-Type")
	say := !w.gotHeaders && !w.first && !w.stopped
	w.gotHeaders = true
	w.mu.Unlock()
	if say && res.StatusCode < 300 {
		w.Say(provider.PhaseWaiting, "waiting for "+w.model+" to start answering…")
	}
}

// read records that n bytes of the answer arrived.
func (w *Watch) read(n int) {
	if n <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if !w.first && !w.finished {
		// The limit shrinks from the wait for a start to the idle one.
		w.deadline.Reset(w.t.Idle)
	}
	w.first, w.last = true, w.clock.Now()
	if !w.stallArmed && !w.finished {
		w.stallArmed = true
		if w.stall == nil {
			w.stall = w.clock.AfterFunc(w.t.StallNotice, w.onStall)
		} else {
			w.stall.Reset(w.t.StallNotice)
		}
	}
}

func watchOf(ctx context.Context) *Watch {
	w, _ := ctx.Value(watchKey{}).(*Watch)
	return w
}

// Transport wraps base (nil: http.DefaultTransport) so that the Watch of
// a request's context sees its response and every byte of its body, and
// its Exchange (WithExchange) records the response.
func Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if _, ok := base.(watchTransport); ok {
		return base
	}
	return watchTransport{base: base}
}

type watchTransport struct{ base http.RoundTripper }

func (t watchTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(r)
	if x := exchangeOf(r.Context()); x != nil {
		x.record(res)
	}
	w := watchOf(r.Context())
	if w == nil || res == nil {
		return res, err
	}
	w.responded(res)
	if res.Body != nil {
		res.Body = &watchedBody{ReadCloser: res.Body, w: w}
	}
	return res, err
}

type watchedBody struct {
	io.ReadCloser
	w *Watch
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.w.read(n)
	return n, err
}

// HTTPClient returns the client a provider sends with: c's transport
// wrapped by Transport, or, when c is nil, a client of its own on a clone
// of http.DefaultTransport that connects within t.Connect and waits at
// most t.Load for any response to start (streams are watched closer).
func HTTPClient(c *http.Client, t provider.Timeouts) *http.Client {
	t = t.WithDefaults()
	if c != nil {
		cp := *c
		cp.Transport = Transport(c.Transport)
		return &cp
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = (&net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}).DialContext
	tr.TLSHandshakeTimeout = t.Connect
	tr.ResponseHeaderTimeout = t.Load
	return &http.Client{Transport: Transport(tr)}
}

// IsLocal reports whether base's host is this computer (a loopback name
// or address).
func IsLocal(base string) bool {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// IsHTML reports whether a content type, or the start of a body, says a
// web page answered.
func IsHTML(contentType string, body []byte) bool {
	ct := strings.ToLower(contentType)
	if strings.Contains(ct, "text/html") || strings.Contains(ct, "application/xhtml") {
		return true
	}
	s := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html")
}
