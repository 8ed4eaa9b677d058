package openai_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// A server on this computer that has not started answering after a
// second is asked for its front page. One that answers is working on the
// request (loading the model, reading a long prompt) and may take the
// load timeout (5 min); one that answers nothing is stuck, and the turn
// ends at the idle timeout (60 s) as for a server elsewhere, not after
// minutes. Fake clock throughout.
func TestLocalServerSlowToStart(t *testing.T) {
	t.Run("alive", func(t *testing.T) {
		m := providertest.NewModel(t, providertest.OpenAI)
		m.Reply(providertest.Hold())
		clock := providertest.NewClock(t0)
		p := onModel(t, m.BaseURL(), "qwen3", func(c *openai.Config) { c.Clock = clock })
		st := newStatuses()
		done, result := stream(p, st.on)
		<-m.Waiting()
		clock.Advance(provider.DefaultSlowStart)
		st.await(t, "the server is working on it")
		clock.Advance(provider.DefaultIdleTimeout)
		select {
		case <-done:
			t.Fatalf("a local server that answers was given up on at the idle timeout: %v", result())
		default:
		}
		clock.Advance(provider.DefaultLoadTimeout - provider.DefaultIdleTimeout - provider.DefaultSlowStart)
		<-done
		pe := asError(t, result())
		if pe.Kind != provider.ErrTimeout || pe.Detail != provider.DetailNoStart || !strings.Contains(pe.Message, "within 5 min") {
			t.Errorf("got %q %q %q", pe.Kind, pe.Detail, pe.Message)
		}
	})
	t.Run("front page redirects elsewhere", func(t *testing.T) {
		// The front page sends the browser to another origin (a web UI on
		// another port): an answer all the same, which is not followed.
		release := make(chan struct{})
		var followed atomic.Bool
		other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { followed.Store(true) }))
		t.Cleanup(other.Close)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" {
				http.Redirect(w, r, other.URL+"/ui", http.StatusFound)
				return
			}
			select { // the chat request: working on it
			case <-release:
			case <-r.Context().Done():
			}
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(release) })
		clock := providertest.NewClock(t0)
		p := onModel(t, srv.URL+"/v1", "qwen3", func(c *openai.Config) { c.Clock = clock })
		st := newStatuses()
		done, _ := stream(p, st.on)
		clock.AwaitTimer(provider.DefaultSlowStart)
		clock.Advance(provider.DefaultSlowStart)
		st.await(t, "the server is working on it")
		if followed.Load() {
			t.Error("the probe followed the redirect to another origin")
		}
		clock.Advance(provider.DefaultLoadTimeout)
		<-done
	})
	t.Run("stuck", func(t *testing.T) {
		// Accepts connections and never answers anything.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var conns sync.WaitGroup
		stop := make(chan struct{})
		t.Cleanup(func() {
			l.Close() // no accept after this
			close(stop)
			conns.Wait()
		})
		conns.Add(1) // the accept loop itself, so no Add comes after Wait
		go func() {
			defer conns.Done()
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				conns.Add(1)
				go func() {
					defer conns.Done()
					<-stop
					c.Close()
				}()
			}
		}()
		clock := providertest.NewClock(t0)
		p := onModel(t, "http://"+l.Addr().String()+"/v1", "qwen3", func(c *openai.Config) { c.Clock = clock })
		st := newStatuses()
		done, result := stream(p, st.on)
		clock.AwaitTimer(provider.DefaultSlowStart)
		clock.Advance(provider.DefaultSlowStart)
		clock.AwaitTimer(wire.DiscoveryTimeout)
		clock.Advance(wire.DiscoveryTimeout)
		st.await(t, "not answering")
		clock.Advance(provider.DefaultIdleTimeout - provider.DefaultSlowStart - wire.DiscoveryTimeout)
		<-done
		pe := asError(t, result())
		if pe.Kind != provider.ErrTimeout || pe.Detail != provider.DetailNoStart || !strings.Contains(pe.Message, "within 60 s") {
			t.Errorf("got %q %q %q", pe.Kind, pe.Detail, pe.Message)
		}
	})
}

// stream runs p.Stream on its own goroutine; result is its error once
// done is closed.
func stream(p *openai.Provider, on func(provider.Event) error) (done chan struct{}, result func() error) {
	done = make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, err = p.Stream(context.Background(), userRequest(), on)
	}()
	return done, func() error { return err }
}

// statuses collects a stream's status messages for a test to wait on.
type statuses struct {
	mu   sync.Mutex
	seen []string
	more chan struct{}
}

func newStatuses() *statuses { return &statuses{more: make(chan struct{}, 64)} }

func (s *statuses) on(ev provider.Event) error {
	if ev.Type == provider.EventStatus {
		s.mu.Lock()
		s.seen = append(s.seen, ev.Status.Message)
		s.mu.Unlock()
		s.more <- struct{}{}
	}
	return nil
}

// await waits for a status containing want.
func (s *statuses) await(t *testing.T, want string) {
	t.Helper()
	for {
		s.mu.Lock()
		for _, m := range s.seen {
			if strings.Contains(m, want) {
				s.mu.Unlock()
				return
			}
		}
		s.mu.Unlock()
		select {
		case <-s.more:
		case <-time.After(30 * time.Second): // a guard, not a measure
			s.mu.Lock()
			seen := append([]string(nil), s.seen...)
			s.mu.Unlock()
			t.Fatalf("no status saying %q; saw %q", want, seen)
		}
	}
}
