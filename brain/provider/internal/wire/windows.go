package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// failedWindowTTL is how long a discovery that failed for a passing
// reason (the server was down) is remembered before it is tried again; a
// definite answer, or "the server does not say", is kept for good.
const failedWindowTTL = time.Minute

// DiscoveryTimeout bounds each request that discovers a window, so a
// server that does not answer them costs a turn seconds at most, once.
const DiscoveryTimeout = 5 * time.Second

// WindowCache keeps each model's discovered context window for a
// provider's life: a turn after the first costs no request. Concurrent
// first asks for one model share one discovery. The zero value is not
// ready: use NewWindowCache.
type WindowCache struct {
	clock provider.Clock
	mu    sync.Mutex
	m     map[string]*windowEntry
	// requests counts discoveries run, for tests and wrasse-bench.
	requests int
}

type windowEntry struct {
	done   chan struct{}
	w      provider.Window
	err    error
	expiry time.Time // zero: for good
}

// NewWindowCache returns an empty cache on clock.
func NewWindowCache(clock provider.Clock) *WindowCache {
	if clock == nil {
		clock = provider.SystemClock()
	}
	return &WindowCache{clock: clock, m: map[string]*windowEntry{}}
}

// Get returns model's window, running discover when it is not known.
// discover's error is remembered for good when it is provider.ErrNoWindow,
// for failedWindowTTL otherwise.
func (c *WindowCache) Get(ctx context.Context, model string, discover func(context.Context) (provider.Window, error)) (provider.Window, error) {
	c.mu.Lock()
	e, ok := c.m[model]
	if ok && !e.expiry.IsZero() && !c.clock.Now().Before(e.expiry) {
		select {
		case <-e.done:
			ok = false // a failure that may have passed
		default:
		}
	}
	if ok {
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.w, e.err
		case <-ctx.Done():
			return provider.Window{}, ctx.Err()
		}
	}
	e = &windowEntry{done: make(chan struct{})}
	c.m[model] = e
	c.requests++
	c.mu.Unlock()

	w, err := discover(ctx)
	if err != nil && !errors.Is(err, provider.ErrNoWindow) {
		if ctx.Err() != nil {
			// Nobody learnt anything: the next ask tries at once.
			c.mu.Lock()
			delete(c.m, model)
			c.mu.Unlock()
			e.w, e.err = w, err
			close(e.done)
			return w, err
		}
		e.expiry = c.clock.Now().Add(failedWindowTTL)
	}
	e.w, e.err = w, err
	close(e.done)
	return w, err
}

// Discoveries returns how many discoveries the cache ran.
func (c *WindowCache) Discoveries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests
}

// GetJSON fetches url with client (headers added) and decodes its JSON
// body into v, within DiscoveryTimeout. A status other than 200 is an
// error naming it.
func GetJSON(ctx context.Context, client *http.Client, url string, header http.Header, v any) error {
	ctx, cancel := context.WithTimeout(ctx, DiscoveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxDiscoveryBody))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", url, res.StatusCode)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// maxDiscoveryBody bounds a discovery answer (OpenRouter's full model
// list is about 1 MB).
const maxDiscoveryBody = 16 << 20
