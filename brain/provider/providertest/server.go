package providertest

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
)

// Raw is one scripted answer of a Server, sent byte for byte.
type Raw struct {
	// Status defaults to 200.
	Status int
	// Header is sent as is (Retry-After, retry-after-ms).
	Header map[string]string
	// ContentType defaults to text/event-stream for 2xx, application/json
	// otherwise.
	ContentType string
	Body        []byte
	// Hold makes the server wait before sending anything until the client
	// goes away.
	Hold bool
	// Block makes the server, once Body is sent and flushed, wait until the
	// client goes away.
	Block bool
}

// Server plays Raw replies in order, one per request, whatever the path,
// and records the requests. It is the fake for testing a provider's
// decoding of exact transcripts; Model is the fake for everything else.
type Server struct {
	url     string
	waiting chan struct{}

	t        testing.TB
	mu       sync.Mutex
	replies  []Raw
	requests []Request
	done     chan struct{}
}

// NewServer starts a Server; it stops when the test ends.
func NewServer(t testing.TB, replies ...Raw) *Server {
	t.Helper()
	s := &Server{t: t, replies: replies, waiting: make(chan struct{}, waitingBuffer), done: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	// Registered after srv.Close, so it runs first and frees waiting handlers.
	t.Cleanup(func() { close(s.done) })
	s.url = srv.URL
	return s
}

// URL is the server's root, "http://127.0.0.1:PORT".
func (s *Server) URL() string { return s.url }

// Waiting receives once each time a Hold or Block reply starts waiting.
func (s *Server) Waiting() <-chan struct{} { return s.waiting }

// Requests returns the requests received so far (Method, Path, Header and
// Body only).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var rep Raw
	ok := n < len(s.replies)
	if ok {
		rep = s.replies[n]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("providertest: unexpected request %d to %s: the Server has no reply left", n+1, r.URL.Path)
		http.Error(w, "providertest: no scripted reply", http.StatusTeapot)
		return
	}
	if rep.Hold {
		s.wait(r)
		return
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	ct := rep.ContentType
	if ct == "" {
		ct = "application/json"
		if status < 300 {
			ct = "text/event-stream"
		}
	}
	w.Header().Set("Content-Type", ct)
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	if !rep.Block {
		w.Header().Set("Content-Length", strconv.Itoa(len(rep.Body)))
	}
	w.WriteHeader(status)
	_, _ = w.Write(rep.Body)
	if rep.Block {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		s.wait(r)
	}
}

func (s *Server) wait(r *http.Request) {
	signal(s.waiting)
	select {
	case <-r.Context().Done():
	case <-s.done:
	}
}

// File reads a test fixture or fails the test.
func File(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	return b
}

// ClosedURL returns the URL of a local port nothing listens on, so a
// connection to it is refused.
func ClosedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	return "http://" + addr
}

// Transport answers every request with status 200 and Body, in memory:
// for fuzzing the stream decoders without sockets.
type Transport struct {
	ContentType string
	Body        []byte
}

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {t.ContentType}},
		Body:          io.NopCloser(bytes.NewReader(t.Body)),
		ContentLength: int64(len(t.Body)),
		Request:       r,
	}, nil
}
