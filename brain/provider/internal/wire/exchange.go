package wire

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// maxErrorBody bounds how much of an error body is kept: enough for any real
// error message, small enough that a misbehaving server cannot make us hold
// a large page in memory.
const maxErrorBody = 64 << 10

// Exchange records the HTTP response of one request. Use one per request:
// pass Middleware to the SDK call, then read the fields once it returned.
// The SDKs run middlewares on the calling goroutine before the call returns,
// so no locking is needed.
type Exchange struct {
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// Header is a copy of the response headers.
	Header http.Header
	// Body is a bounded copy of the body of an error response (status >= 400).
	Body []byte
}

// Responded reports whether the server answered at all.
func (x *Exchange) Responded() bool { return x.Status != 0 }

// Middleware has the signature of both SDKs' option.Middleware.
func (x *Exchange) Middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	x.record(res)
	return res, err
}

// ContentType is the response's Content-Type, "" before one came.
func (x *Exchange) ContentType() string {
	if x.Header == nil {
		return ""
	}
	return x.Header.Get("Content-Type")
}

type exchangeKey struct{}

// WithExchange returns ctx carrying x: a request sent with it through
// Transport is recorded in x, for clients that take no middleware (the
// Ollama client). One request per Exchange.
func WithExchange(ctx context.Context, x *Exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

func exchangeOf(ctx context.Context) *Exchange {
	x, _ := ctx.Value(exchangeKey{}).(*Exchange)
	return x
}

func (x *Exchange) record(res *http.Response) {
	if res == nil {
		return
	}
	x.Status = res.StatusCode
	x.Header = res.Header.Clone()
	if res.StatusCode >= 400 && res.Body != nil {
		// A read error leaves a partial body; the status still classifies.
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		_ = res.Body.Close()
		x.Body = body
		res.Body = io.NopCloser(bytes.NewReader(body))
	}
}
