package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// chooseModel is how to point Wrasse at another model. It names no API
// key: nothing answered, so no key was refused (only a 401 or 403 points
// at the key).
const chooseModel = "choose another provider, base URL or model in the model settings"

// SetupHint tells a user whose local Ollama (the default endpoint) did not
// answer what to do. It ends the "nothing answered" messages for that
// endpoint only.
const SetupHint = "start Ollama (ollama serve, then pull a model with ollama pull), or " + chooseModel

// ServerHint ends the "nothing answered" messages for any other endpoint:
// the user configured that server, so Ollama is beside the point.
const ServerHint = "check that the server there is running and that the base URL is right, or " + chooseModel

// IsLocalOllama reports whether base is the default local Ollama endpoint
// (localhost, 127.0.0.1 or ::1 on port 11434, path /v1 or none), where
// advice to start Ollama is right.
func IsLocalOllama(base string) bool {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Scheme != "http" || u.Port() != "11434" {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
	default:
		return false
	}
	p := strings.TrimRight(u.Path, "/")
	return p == "" || p == "/v1"
}

// setupHint is the advice for an endpoint that did not answer.
func (c *Classifier) setupHint() string {
	if IsLocalOllama(c.BaseURL) {
		return SetupHint
	}
	return ServerHint
}

// Classifier turns failures into *provider.Error. One is built per request.
type Classifier struct {
	// Provider names the provider in messages ("openai", "anthropic").
	Provider string
	// BaseURL is where requests go, quoted when nothing answers.
	BaseURL string
	// Model is the model asked for, quoted when it is unknown.
	Model string
	// Secrets are removed from every message and wrapped error text.
	Secrets []string
	// Now reads the clock for HTTP-date Retry-After values.
	Now func() time.Time
}

// Context returns the error for a done ctx (canceled or past its deadline),
// or nil when ctx is still live. cause is what the SDK reported.
func (c *Classifier) Context(ctx context.Context, cause error) *provider.Error {
	switch ctx.Err() {
	case nil:
		return nil
	case context.DeadlineExceeded:
		return c.wrap(provider.ErrTimeout, 0, "the model did not finish in the time allowed; try again, or ask for a shorter answer", cause)
	default:
		return c.wrap(provider.ErrCanceled, 0, "the request was canceled", cause)
	}
}

// Status classifies an HTTP error response.
func (c *Classifier) Status(status int, header http.Header, body []byte, cause error) *provider.Error {
	if IsHTML(header.Get("Content-Type"), body) && status != 429 && status != 401 && status != 403 {
		// A web server's page (a proxy's 502 page aside, which says the
		// server behind it failed): the base URL is not the API.
		if status < 500 {
			return c.NotAPI(status, cause)
		}
		msg := fmt.Sprintf("the server at %s had an error (HTTP %d); try again in a moment", c.BaseURL, status)
		if title := htmlTitle(body); title != "" {
			msg = fmt.Sprintf("the server at %s had an error (HTTP %d, its page says %q); try again in a moment", c.BaseURL, status, c.redact(title))
		}
		e := c.wrap(provider.ErrUnavailable, status, msg, cause)
		e.Detail = provider.DetailServer
		return e
	}
	api := ParseErrorBody(body)
	kind := c.kindOf(status, api)
	e := c.wrap(kind, status, c.message(kind, api), cause)
	e.RetryAfter = ParseRetryAfter(header, c.now())
	if kind == provider.ErrRateLimit && e.RetryAfter > 0 {
		e.Message = sentence(fmt.Sprintf("%s; try again in %s", strings.TrimSuffix(e.Message, "."), roundUp(e.RetryAfter)))
	}
	if status >= 500 && kind != provider.ErrOverloaded {
		e.Detail = provider.DetailServer
	}
	return e
}

// htmlTitle is the text of a page's <title>, cut short; "" for none.
func htmlTitle(body []byte) string {
	s := string(body[:min(len(body), 4096)])
	low := strings.ToLower(s)
	i := strings.Index(low, "<title>")
	if i < 0 {
		return ""
	}
	rest := s[i+len("<title>"):]
	j := strings.Index(strings.ToLower(rest), "</title>")
	if j < 0 {
		return ""
	}
	return clip(rest[:j])
}

// NotAPI reports a web page (HTML) where a model API should answer:
// status is its HTTP status.
func (c *Classifier) NotAPI(status int, cause error) *provider.Error {
	e := c.wrap(provider.ErrBadStream, status, fmt.Sprintf("%s answered with a web page (HTML), not a model API: the base URL points at the wrong place; check it (an OpenAI-compatible server's usually ends in /v1)", c.BaseURL), cause)
	e.Detail = provider.DetailNotAPI
	return e
}

// Expired reports a request a Watch ended: the server did not start, or
// stopped sending. shown says whether part of the answer arrived.
func (c *Classifier) Expired(e *Expired, shown bool) *provider.Error {
	model := c.Model
	if model == "" {
		model = "the model"
	}
	var pe *provider.Error
	switch e.Kind {
	case ExpiredNoStart:
		pe = c.wrap(provider.ErrTimeout, 0, fmt.Sprintf("%s did not start answering within %s; try again (a slow server may need a longer streamIdleTimeout)", model, provider.Seconds(e.After)), e)
		pe.Detail = provider.DetailNoStart
	default:
		// What was kept is the turn's to say, exactly (agent's kept):
		// said here too, the message said it twice.
		pe = c.wrap(provider.ErrTimeout, 0, fmt.Sprintf("the model stopped sending for %s; try again", provider.Seconds(e.After)), e)
		pe.Detail = provider.DetailStalled
	}
	pe.Waited = e.After
	return pe
}

// Event classifies an error event sent inside a stream that began with
// HTTP 200 (Anthropic's "event: error", OpenRouter's {"error":{…}} chunk).
// The error's type says what happened; there is no status.
func (c *Classifier) Event(body []byte, cause error) *provider.Error {
	api := ParseErrorBody(body)
	// OpenRouter puts the upstream HTTP status in "code".
	status := 0
	if n, err := strconv.Atoi(api.Code); err == nil && n >= 400 && n <= 599 {
		status = n
	}
	kind := c.kindOf(status, api)
	if kind == provider.ErrBadRequest && status == 0 && api.Type == "" && api.Code == "" {
		// An unexplained error mid-stream is the server failing, not us.
		kind = provider.ErrUnavailable
	}
	return c.wrap(kind, 0, c.message(kind, api), cause)
}

// BadStream reports a stream that broke the protocol: invalid JSON, or an
// end before the model said it had finished. shown says whether part of
// the answer arrived (the turn says what it kept).
func (c *Classifier) BadStream(detail string, shown bool, cause error) *provider.Error {
	if !shown {
		return c.wrap(provider.ErrBadStream, 0,
			fmt.Sprintf("the answer from %s broke off before anything arrived (%s); try again", c.Provider, detail), cause)
	}
	// What arrived is kept, and the turn says exactly what (agent's kept).
	return c.wrap(provider.ErrBadStream, 0,
		fmt.Sprintf("the answer from %s broke off (%s); try again", c.Provider, detail), cause)
}

// Transport classifies an error that came without an HTTP error status:
// a connection that failed, or a stream that broke after a 2xx response
// (responded).
func (c *Classifier) Transport(err error, responded bool) *provider.Error {
	var dnsErr *net.DNSError
	var netErr net.Error
	var syntaxErr *json.SyntaxError
	var addrErr *net.AddrError
	switch {
	case errors.Is(err, provider.ErrCrossOriginRedirect):
		// Not a fault to retry: the server sends every request elsewhere.
		msg, ue := err.Error(), (*url.Error)(nil)
		if errors.As(err, &ue) {
			msg = ue.Err.Error()
		}
		return c.wrap(provider.ErrBadRequest, 0, c.redact(msg), err)
	case errors.As(err, &addrErr):
		e := c.wrap(provider.ErrBadRequest, 0,
			fmt.Sprintf("the base URL %s has no usable address (%s): correct it in the model settings", c.BaseURL, addrErr.Err), err)
		e.Detail = provider.DetailBadURL
		return e
	case errors.Is(err, syscall.ECONNREFUSED):
		e := c.wrap(provider.ErrUnavailable, 0,
			fmt.Sprintf("no model answered at %s (connection refused): %s", c.BaseURL, c.setupHint()), err)
		e.Detail, e.Local = provider.DetailRefused, IsLocal(c.BaseURL)
		return e
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		hint := chooseModel
		if IsLocalOllama(c.BaseURL) {
			hint = SetupHint
		}
		e := c.wrap(provider.ErrUnavailable, 0,
			fmt.Sprintf("no model answered at %s (host %q not found): check the base URL, or %s", c.BaseURL, dnsErr.Name, hint), err)
		e.Detail = provider.DetailHostNotFound
		return e
	case errors.As(err, &netErr) && netErr.Timeout():
		return c.wrap(provider.ErrTimeout, 0,
			fmt.Sprintf("%s at %s took too long to answer; try again", c.Provider, c.BaseURL), err)
	case responded && errors.As(err, &syntaxErr):
		return c.BadStream("an event was not valid JSON", true, err)
	case responded && errors.Is(err, io.ErrUnexpectedEOF):
		return c.BadStream("the connection closed mid-event", true, err)
	case isConnectionError(err):
		return c.wrap(provider.ErrNetwork, 0,
			fmt.Sprintf("the connection to %s failed; check the network and try again", c.BaseURL), err)
	case responded:
		return c.BadStream("the stream could not be read", true, err)
	default:
		// No response and no network fault: the SDK refused to build the
		// request (bad base URL, unencodable parameters).
		return c.wrap(provider.ErrBadRequest, 0,
			fmt.Sprintf("could not send the request to %s: %s", c.BaseURL, c.redact(err.Error())), err)
	}
}

func isConnectionError(err error) bool {
	var urlErr *url.Error
	var opErr *net.OpError
	return errors.As(err, &urlErr) || errors.As(err, &opErr) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed)
}

// contextSignals are phrases servers use for an input that does not fit the
// model's context window (OpenAI, Anthropic, vLLM, llama.cpp, LM Studio,
// OpenRouter).
var contextSignals = []string{
	"context_length_exceeded",
	"exceed_context_size",
	"maximum context length",
	"context length",
	"context window",
	"context size",
	"prompt is too long",
	"input is too long",
	"too many tokens",
	"reduce the length",
}

func isContextLength(api APIError) bool {
	text := strings.ToLower(api.Type + " " + api.Code + " " + api.Message)
	for _, s := range contextSignals {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

func (c *Classifier) kindOf(status int, api APIError) provider.ErrorKind {
	typ := strings.ToLower(api.Type + " " + api.Code)
	switch {
	case strings.Contains(typ, "overloaded"):
		return provider.ErrOverloaded
	case strings.Contains(typ, "insufficient_quota"), strings.Contains(typ, "billing"):
		// A spent quota is not cured by waiting: no retry.
		return provider.ErrBadRequest
	case strings.Contains(typ, "rate_limit"):
		return provider.ErrRateLimit
	case isContextLength(api) && (status == 0 || status == 400 || status == 413 || status == 422):
		return provider.ErrContextLength
	}
	switch {
	case status == 401 || status == 403:
		return provider.ErrAuth
	case status == 404:
		return provider.ErrNotFound
	case status == 413:
		// Anthropic's request_too_large: the input is bigger than any
		// context, so it is the same advice.
		return provider.ErrContextLength
	case status == 429:
		return provider.ErrRateLimit
	case status == 529 || status == 503:
		return provider.ErrOverloaded
	case status == 408 || status == 504:
		return provider.ErrTimeout
	case status >= 500:
		return provider.ErrUnavailable
	case status == 0:
		switch {
		case strings.Contains(typ, "authentication"), strings.Contains(typ, "permission"):
			return provider.ErrAuth
		case strings.Contains(typ, "not_found"):
			return provider.ErrNotFound
		case strings.Contains(typ, "timeout"):
			return provider.ErrTimeout
		case strings.Contains(typ, "api_error"), strings.Contains(typ, "server"):
			return provider.ErrUnavailable
		}
	}
	return provider.ErrBadRequest
}

func (c *Classifier) message(kind provider.ErrorKind, api APIError) string {
	var msg string
	switch kind {
	case provider.ErrAuth:
		msg = fmt.Sprintf("%s refused the API key: save the right one in the model settings, or check %s", c.Provider, keyEnv(c.Provider))
	case provider.ErrRateLimit:
		msg = fmt.Sprintf("%s is limiting how fast requests may be sent", c.Provider)
	case provider.ErrOverloaded:
		msg = fmt.Sprintf("%s is overloaded right now; try again in a moment", c.Provider)
	case provider.ErrContextLength:
		msg = fmt.Sprintf("the conversation is too long for model %q: start a new conversation or remove large pastes and tool output", c.Model)
	case provider.ErrNotFound:
		msg = fmt.Sprintf("model %q was not found at %s: check the model name (for Ollama, ollama pull %s) and that the base URL is right", c.Model, c.BaseURL, c.Model)
	case provider.ErrTimeout:
		msg = fmt.Sprintf("%s took too long to answer; try again", c.Provider)
	case provider.ErrUnavailable:
		msg = fmt.Sprintf("%s had a server error; try again in a moment", c.Provider)
	default:
		if strings.Contains(strings.ToLower(api.Type+api.Code), "quota") || strings.Contains(strings.ToLower(api.Type), "billing") {
			msg = fmt.Sprintf("%s says the account is out of quota or credit: check the plan and billing", c.Provider)
		} else {
			msg = fmt.Sprintf("%s rejected the request", c.Provider)
		}
	}
	if said := c.redact(api.Message); said != "" {
		msg = fmt.Sprintf("%s (server said: %s)", msg, said)
	}
	return msg
}

func (c *Classifier) wrap(kind provider.ErrorKind, status int, msg string, cause error) *provider.Error {
	e := &provider.Error{Kind: kind, Provider: c.Provider, Status: status, Message: sentence(msg)}
	if cause != nil {
		e.Err = &redactedError{msg: c.redact(cause.Error()), err: cause}
	}
	return e
}

func (c *Classifier) redact(s string) string { return Redact(s, c.Secrets...) }

func (c *Classifier) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// sentence ends msg with a full stop unless it ends with other
// punctuation, so a message followed by another sentence reads as two
// ("try again. What it had written so far is kept.").
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return msg
	}
	switch msg[len(msg)-1] {
	case '.', '!', '?':
		return msg
	}
	if strings.HasSuffix(msg, "…") {
		return msg
	}
	return msg + "."
}

// roundUp renders d in whole seconds, at least one.
func roundUp(d time.Duration) time.Duration {
	s := (d + time.Second - 1) / time.Second
	return max(s, 1) * time.Second
}

// redactedError keeps the SDK's error reachable through errors.As while its
// text, which some SDKs build from the raw response body, has the secrets
// removed.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// keyEnv is the environment variable a provider's API key may come from,
// as the app reads them (assistant.KeyNames): Anthropic's own, and
// OpenAI's for every OpenAI-compatible server, Ollama's included.
func keyEnv(providerName string) string {
	if providerName == "anthropic" {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}
