package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// The one model GET /v1/models lists until WithModels or SetModels says
// otherwise.
const (
	DefaultModelID   = "test-model"
	DefaultModelName = "Test Model"
)

func defaultModels() []provider.ModelInfo {
	return []provider.ModelInfo{{ID: DefaultModelID, DisplayName: DefaultModelName}}
}

// Option configures NewModel.
type Option func(*modelConfig)

type modelConfig struct {
	listener   net.Listener
	addr       string
	apiKey     string
	knownOnly  bool
	models     []provider.ModelInfo
	chunkDelay time.Duration
	// promptCache makes usage come from a simulated prompt cache (see
	// WithPromptCache).
	promptCache bool
	// reasoning is the delta field of OpenAI-format reasoning.
	reasoning string
	// kind is the server the OpenAI format imitates.
	kind ServerKind
}

// ServerKind is an OpenAI-compatible server whose own endpoints a Model
// serves besides the common ones (WithServer).
type ServerKind string

const (
	// VLLM lists each model's max_model_len in /v1/models.
	VLLM ServerKind = "vllm"
	// OpenRouter lists context_length, supported_parameters ("tools",
	// "reasoning") and architecture.input_modalities in /v1/models.
	OpenRouter ServerKind = "openrouter"
	// LMStudio serves /api/v0/models and /api/v0/models/{id} with type
	// (llm, vlm, embeddings), capabilities (tool_use), state,
	// max_context_length and, for a loaded model, loaded_context_length.
	LMStudio ServerKind = "lmstudio"
	// LlamaCpp serves /props with default_generation_settings.n_ctx (the
	// first model's ContextWindow).
	LlamaCpp ServerKind = "llamacpp"
)

// WithServer makes an OpenAI-format Model also speak kind's endpoints,
// from each model's ContextWindow and Abilities.
func WithServer(kind ServerKind) Option { return func(c *modelConfig) { c.kind = kind } }

// WithReasoningField sets the delta field an OpenAI-format Model streams
// Thinking in: ReasoningContent (the default) or Reasoning.
func WithReasoningField(field string) Option { return func(c *modelConfig) { c.reasoning = field } }

// WithListener serves on l instead of a fresh loopback port; the Model
// closes it when the test ends.
func WithListener(l net.Listener) Option { return func(c *modelConfig) { c.listener = l } }

// WithAddr listens on addr ("127.0.0.1:8089"), for a smoke test that
// points a separately started wrasse at a fixed address.
func WithAddr(addr string) Option { return func(c *modelConfig) { c.addr = addr } }

// WithAPIKey makes the Model accept only requests carrying key
// (Authorization: Bearer for OpenAI, x-api-key for Anthropic); others get
// the format's 401 and use no Reply.
func WithAPIKey(key string) Option { return func(c *modelConfig) { c.apiKey = key } }

// WithKnownModelsOnly makes the Model answer a chat request naming a model
// it does not list with the format's 404 (model not found), using no Reply.
func WithKnownModelsOnly() Option { return func(c *modelConfig) { c.knownOnly = true } }

// WithModels sets what GET /v1/models lists (see SetModels).
func WithModels(models ...provider.ModelInfo) Option {
	return func(c *modelConfig) { c.models = slices.Clone(models) }
}

// WithChunkDelay spaces streamed chunks out (see SetChunkDelay).
func WithChunkDelay(d time.Duration) Option { return func(c *modelConfig) { c.chunkDelay = d } }

// Model is a fake model server speaking one Format, scripted by Reply.
type Model struct {
	t       reporter
	format  Format
	url     string
	srv     *httptest.Server
	waiting chan struct{}
	done    chan struct{}
	close   sync.Once

	mu           sync.Mutex
	cfg          modelConfig
	script       []reply
	next         int // index in script of the next reply to play
	calls        int // tool-call IDs generated so far
	requests     []Request
	listRequests []Request
	listStatus   int
	listBody     string
	cache        *PromptCache
	// standalone is set by StartModel.
	standalone *standalone
}

// NewModel starts a fake model server of format f on a loopback port (or
// where WithListener or WithAddr says). It stops when the test ends.
func NewModel(t testing.TB, f Format, opts ...Option) *Model {
	t.Helper()
	if f != OpenAI && f != Anthropic {
		t.Fatalf("providertest: unknown format %q (use providertest.OpenAI or providertest.Anthropic)", f)
	}
	return newModel(t, f, opts...)
}

func newModel(t reporter, f Format, opts ...Option) *Model {
	t.Helper()
	cfg := modelConfig{models: defaultModels()}
	for _, o := range opts {
		o(&cfg)
	}
	m := &Model{t: t, format: f, cfg: cfg, waiting: make(chan struct{}, waitingBuffer), done: make(chan struct{})}
	if cfg.promptCache {
		m.cache = NewPromptCache(f)
	}
	m.srv = httptest.NewUnstartedServer(http.HandlerFunc(m.serve))
	l := cfg.listener
	if l == nil && cfg.addr != "" {
		var err error
		if l, err = net.Listen("tcp", cfg.addr); err != nil {
			t.Fatalf("providertest: listen on %s: %v", cfg.addr, err)
		}
	}
	if l != nil {
		_ = m.srv.Listener.Close()
		m.srv.Listener = l
	}
	m.srv.Start()
	m.url = m.srv.URL
	t.Cleanup(m.Close)
	return m
}

// Close stops the server at once, ending held responses first; later
// requests are refused (an unreachable server). It is safe to call twice.
func (m *Model) Close() {
	m.close.Do(func() {
		close(m.done)
		m.srv.Close()
	})
}

// Format returns the wire format the Model speaks.
func (m *Model) Format() Format { return m.format }

// URL is the server's root, "http://127.0.0.1:PORT".
func (m *Model) URL() string { return m.url }

// BaseURL is what a provider's (or wrasse's) base URL setting should be:
// URL()+"/v1" for OpenAI, URL() for Anthropic.
func (m *Model) BaseURL() string {
	if m.format == OpenAI {
		return m.url + "/v1"
	}
	return m.url
}

// Waiting receives once each time a response reaches a Hold or Wait part.
// Up to 64 unread signals are kept; more are dropped.
func (m *Model) Waiting() <-chan struct{} { return m.waiting }

// Reply adds one model response to the script: the next chat request that
// finds no earlier Reply unplayed gets it. Call it from the test goroutine:
// an invalid combination of parts fails the test at once.
func (m *Model) Reply(parts ...Part) {
	m.t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	prefix := "call_"
	if m.format == Anthropic {
		prefix = "toolu_"
	}
	r, err := newReply(parts, true, func() string {
		m.calls++
		return prefix + strconv.Itoa(m.calls)
	})
	if err != nil {
		m.t.Fatal(err)
		return
	}
	m.script = append(m.script, r)
}

// Pending returns how many Replies have not been played yet.
func (m *Model) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.script) - m.next
}

// Requests returns the chat requests received so far, in order of arrival,
// including those refused by WithAPIKey, WithKnownModelsOnly or a script
// that ran out.
func (m *Model) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// ModelListRequests returns the GET /v1/models requests received so far.
func (m *Model) ModelListRequests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.listRequests)
}

// SetModels sets what GET /v1/models lists, in that order. An empty
// DisplayName is sent as the ID in the Anthropic format (OpenAI's has no
// display name).
func (m *Model) SetModels(models ...provider.ModelInfo) {
	m.mu.Lock()
	m.cfg.models = slices.Clone(models)
	m.mu.Unlock()
}

// FailModels makes GET /v1/models answer with status and body (""
// for the format's usual error body); status 0 lists models again.
func (m *Model) FailModels(status int, body string) {
	m.mu.Lock()
	m.listStatus, m.listBody = status, body
	m.mu.Unlock()
}

// SetChunkDelay makes every streamed chunk after the first wait d, so a
// window shows text arriving piece by piece. Tests must not assert on it.
func (m *Model) SetChunkDelay(d time.Duration) {
	m.mu.Lock()
	m.cfg.chunkDelay = d
	m.mu.Unlock()
}

func (m *Model) chatPath() string {
	if m.format == OpenAI {
		return "/v1/chat/completions"
	}
	return "/v1/messages"
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == m.chatPath():
		m.serveChat(w, r, req)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		m.serveList(w, r, req)
	case r.Method == http.MethodGet && m.format == OpenAI && m.serveServer(w, r):
	case r.Method == http.MethodGet && m.format == Anthropic && strings.HasPrefix(r.URL.Path, "/v1/models/"):
		m.serveAnthropicModel(w, r, strings.TrimPrefix(r.URL.Path, "/v1/models/"))
	default:
		m.writeError(w, http.StatusNotFound, "", nil,
			fmt.Sprintf("providertest: no endpoint %s %s: this fake speaks %s (%s and GET /v1/models)", r.Method, r.URL.Path, m.format, m.chatPath()))
	}
}

// authorised checks the key when WithAPIKey set one.
func (m *Model) authorised(r *http.Request, key string) bool {
	if key == "" {
		return true
	}
	if m.format == Anthropic {
		return r.Header.Get("X-Api-Key") == key
	}
	return r.Header.Get("Authorization") == "Bearer "+key
}

func (m *Model) serveChat(w http.ResponseWriter, r *http.Request, req Request) {
	var includeUsage bool
	var err error
	if m.format == OpenAI {
		includeUsage, err = decodeOpenAI(&req)
	} else {
		err = decodeAnthropic(&req)
	}
	if err == nil {
		req.JSON = map[string]any{}
		err = json.Unmarshal(req.Body, &req.JSON)
	}

	m.mu.Lock()
	m.requests = append(m.requests, req)
	n := len(m.requests)
	cfg := m.cfg
	var rep reply
	refused, refusal := true, ""
	status := http.StatusBadRequest
	switch {
	case err != nil:
		refusal = fmt.Sprintf("providertest: request %d is not valid JSON: %v", n, err)
		m.t.Errorf("%s", refusal)
	case !m.authorised(r, cfg.apiKey):
		status = http.StatusUnauthorized
	case !req.Stream:
		refusal = fmt.Sprintf("providertest: request %d did not ask for a stream; this fake answers streamed requests only", n)
		m.t.Errorf("%s", refusal)
	case m.format == Anthropic && checkThinking(req) != "":
		// What the real API says; a test of passing blocks back expects
		// no such refusal.
		refusal = checkThinking(req)
	case cfg.knownOnly && !slices.ContainsFunc(cfg.models, func(mi provider.ModelInfo) bool { return mi.ID == req.Model }):
		status, refusal = http.StatusNotFound, fmt.Sprintf("model %q not found", req.Model)
		if m.format == OpenAI {
			refusal = fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model)
		}
	case m.next >= len(m.script):
		refusal = fmt.Sprintf("providertest: the script ran out: request %d (%s %s) has no Reply; add one with Model.Reply", n, r.Method, r.URL.Path)
		m.t.Errorf("%s", refusal)
	default:
		rep = m.script[m.next]
		m.next++
		refused = false
		if m.cache != nil {
			// The usage a real server would report for this request.
			cu, cerr := m.cache.Serve(req.Body)
			if cerr != nil {
				m.t.Errorf("providertest: prompt cache: %v", cerr)
			}
			rep.usage.InputTokens, rep.usage.CachedTokens, rep.usage.CacheWriteTokens = cu.Input, cu.Read, cu.Write
		}
	}
	m.mu.Unlock()
	if refused {
		m.writeError(w, status, "", nil, refusal)
		return
	}

	var enc encoder
	thinks := true
	if m.format == OpenAI {
		enc = &openAIEncoder{id: fmt.Sprintf("chatcmpl-%d", n), model: req.Model, includeUsage: includeUsage, reasoning: cfg.reasoning}
	} else {
		enc = &anthropicEncoder{id: fmt.Sprintf("msg_%d", n), model: req.Model, usage: rep.usage}
		// Claude thinks only when asked to.
		thinks = req.ThinkingBudget > 0
	}
	m.play(w, r, rep, enc, cfg.chunkDelay, thinks)
}

// play streams one reply; thinks says whether Thinking parts are sent.
func (m *Model) play(w http.ResponseWriter, r *http.Request, rep reply, enc encoder, delay time.Duration, thinks bool) {
	flusher, _ := w.(http.Flusher)
	ctx := r.Context()
	started, sent := false, 0
	// send writes chunks, opening the stream first; false means the client
	// left.
	send := func(chunks []string) bool {
		if !started {
			started = true
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
			chunks = append(enc.start(), chunks...)
		}
		for _, c := range chunks {
			if sent > 0 && delay > 0 {
				t := time.NewTimer(delay)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return false
				case <-m.done:
					t.Stop()
					return false
				}
			}
			if _, err := io.WriteString(w, c); err != nil {
				return false
			}
			if flusher != nil {
				flusher.Flush()
			}
			sent++
		}
		return true
	}
	stop := stopEnd
	for _, p := range rep.parts {
		ok := true
		switch p.kind {
		case partText:
			ok = send(enc.text(p.pieces))
		case partThinking:
			if thinks {
				ok = send(enc.thinking(p.pieces))
			}
		case partRedacted:
			if thinks {
				ok = send(enc.redacted(p.body))
			}
		case partCall:
			ok = send(enc.call(p.id, p.name, p.args))
			stop = stopTools
		case partWait:
			signal(m.waiting)
			select {
			case <-p.wait:
			case <-ctx.Done():
				return
			case <-m.done:
				return
			}
		case partHold:
			signal(m.waiting)
			select {
			case <-ctx.Done():
			case <-m.done:
			}
			return
		case partCut:
			send(nil)
			return
		case partStatus:
			m.writeError(w, p.status, p.body, p.header, "")
			return
		}
		if !ok {
			return
		}
	}
	if rep.max {
		stop = stopMax
	}
	if !send(enc.finish(stop, rep.usage)) {
		return
	}
	if rep.linger {
		signal(m.waiting)
		select {
		case <-ctx.Done():
		case <-m.done:
		}
		return
	}
	send(enc.close())
}

// writeError sends an error response: body as given, or the format's error
// body with msg ("" for the status's usual sentence).
func (m *Model) writeError(w http.ResponseWriter, status int, body string, header http.Header, msg string) {
	if body == "" {
		body = errorBody(m.format, status, msg)
	}
	for k, vs := range header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	ct := "text/plain; charset=utf-8"
	if t := strings.TrimSpace(body); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func (m *Model) serveList(w http.ResponseWriter, r *http.Request, req Request) {
	m.mu.Lock()
	m.listRequests = append(m.listRequests, req)
	models := slices.Clone(m.cfg.models)
	key, status, body, kind := m.cfg.apiKey, m.listStatus, m.listBody, m.cfg.kind
	m.mu.Unlock()
	if !m.authorised(r, key) {
		m.writeError(w, http.StatusUnauthorized, "", nil, "")
		return
	}
	if status != 0 {
		m.writeError(w, status, body, nil, "")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if m.format == OpenAI {
		data := make([]any, 0, len(models))
		for _, mi := range models {
			entry := map[string]any{"id": mi.ID, "object": "model", "created": created, "owned_by": "providertest"}
			for k, v := range listExtras(kind, mi) {
				entry[k] = v
			}
			data = append(data, entry)
		}
		_, _ = io.WriteString(w, js(map[string]any{"object": "list", "data": data}))
		return
	}
	// Anthropic pages with limit (default 20) and after_id.
	limit := 20
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
		limit = n
	}
	if after := r.URL.Query().Get("after_id"); after != "" {
		i := slices.IndexFunc(models, func(mi provider.ModelInfo) bool { return mi.ID == after })
		models = models[i+1:] // i == -1: from the start, as for an unknown cursor
	}
	more := len(models) > limit
	if more {
		models = models[:limit]
	}
	data := make([]any, 0, len(models))
	for _, mi := range models {
		name := mi.DisplayName
		if name == "" {
			name = mi.ID
		}
		data = append(data, map[string]any{"type": "model", "id": mi.ID, "display_name": name, "created_at": "2025-01-01T00:00:00Z"})
	}
	page := map[string]any{"data": data, "has_more": more, "first_id": nil, "last_id": nil}
	if len(models) > 0 {
		page["first_id"], page["last_id"] = models[0].ID, models[len(models)-1].ID
	}
	_, _ = io.WriteString(w, js(page))
}
