package providertest

import (
	"context"
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

// OllamaDefaultContext is the context a request runs in when it does not
// set num_ctx (and always on /v1): Ollama's default when its operator set
// no OLLAMA_CONTEXT_LENGTH.
const OllamaDefaultContext = 4096

// OllamaModel is a model installed in the fake Ollama.
type OllamaModel struct {
	// Name is what requests name ("llama3.1:8b"); a name without a tag
	// also answers to NAME:latest.
	Name string
	// Capabilities are /api/show's (default completion and tools).
	Capabilities []string
	// ContextLength is model_info.<arch>.context_length, the model's own
	// maximum (default 131072).
	ContextLength int
	// Family is details.family and the architecture (default "llama").
	Family string
	// Size is the bytes on disk /api/tags lists (default 4.9 GB).
	Size int64
}

func (m OllamaModel) withDefaults() OllamaModel {
	if m.Capabilities == nil {
		m.Capabilities = []string{"completion", "tools"}
	}
	if m.ContextLength == 0 {
		m.ContextLength = 131072
	}
	if m.Family == "" {
		m.Family = "llama"
	}
	if m.Size == 0 {
		m.Size = 4920753328
	}
	return m
}

func (m OllamaModel) can(c string) bool { return slices.Contains(m.Capabilities, c) }

// OllamaOption configures NewOllama.
type OllamaOption func(*Ollama)

// WithOllamaModels sets the installed models (default: one llama3.1:8b
// with tools).
func WithOllamaModels(models ...OllamaModel) OllamaOption {
	return func(o *Ollama) {
		o.models = nil
		for _, m := range models {
			o.models = append(o.models, m.withDefaults())
		}
	}
}

// WithDefaultContext sets the server's default context
// (OLLAMA_CONTEXT_LENGTH); default OllamaDefaultContext.
func WithDefaultContext(n int) OllamaOption { return func(o *Ollama) { o.defaultCtx = n } }

// WithOllamaClock sets the clock the server reads (for /api/ps expiry
// times); default the system clock.
func WithOllamaClock(c provider.Clock) OllamaOption { return func(o *Ollama) { o.clock = c } }

// WithPullable lets /api/pull download m, reporting total bytes in two
// steps; any other name is unknown to the registry.
func WithPullable(m OllamaModel, total int64) OllamaOption {
	return func(o *Ollama) { o.pullable[m.Name] = pullable{m.withDefaults(), total} }
}

// WithOllamaListener serves on l instead of a fresh loopback port: a
// smoke test of the real binary's first run listens on Ollama's usual
// address (127.0.0.1:11434). The fake closes it when it stops.
func WithOllamaListener(l net.Listener) OllamaOption { return func(o *Ollama) { o.listener = l } }

// WithPullGate makes /api/pull wait on gate after its first progress line
// with bytes, as a real download takes its time: until gate is closed
// (then it runs on to the end) or the client goes away. A UI test cancels
// a download there, and a screenshot catches its progress bar.
func WithPullGate(gate <-chan struct{}) OllamaOption { return func(o *Ollama) { o.pullGate = gate } }

// WithPullPace makes /api/pull report its bytes in steps, one every
// every, for a smoke test's picture of a download under way (speed, time
// left); no assertion should depend on it.
func WithPullPace(every time.Duration, steps int) OllamaOption {
	return func(o *Ollama) { o.pullEvery, o.pullSteps = every, steps }
}

type pullable struct {
	m     OllamaModel
	total int64
}

// Ollama is a fake Ollama server speaking both of its APIs the way the
// real one behaves:
//
//   - the native API: POST /api/chat streaming NDJSON (message.content,
//     message.thinking, tool_calls with arguments as objects, a last line
//     with done, done_reason, prompt_eval_count, eval_count), honouring
//     options.num_ctx, think (a model without the thinking capability
//     refuses it, and think:false leaves Thinking parts out), truncate and
//     keep_alive; refusing tools for a model without the tools capability;
//     POST /api/show (capabilities, model_info.<arch>.context_length),
//     GET /api/tags, GET /api/ps, POST /api/pull (progress lines),
//     GET /api/version and GET / ("Ollama is running");
//   - the OpenAI-compatible POST /v1/chat/completions, which ignores
//     options and runs every request in the server's default context.
//
// Whatever the endpoint, a prompt longer than its context is fitted the
// way Ollama fits it: whole old messages are dropped first (system
// messages and the last message kept), then, if it still does not fit,
// tokens are cut from the start after the first four. With truncate:false
// the request is refused instead ("the input length exceeds the context
// length"). Each request records what the model saw (OllamaRequest.Seen).
// The fake counts one token per four bytes of its rendered prompt.
//
// Replies are scripted with the same Parts as Model.
type Ollama struct {
	t       reporter
	url     string
	srv     *httptest.Server
	waiting chan struct{}
	done    chan struct{}
	close   sync.Once

	mu         sync.Mutex
	models     []OllamaModel
	defaultCtx int
	pullable   map[string]pullable
	pullGate   <-chan struct{}
	pullEvery  time.Duration
	pullSteps  int
	listener   net.Listener
	script     []reply
	next       int
	calls      int
	requests   []OllamaRequest
	// loaded maps a model to how it is loaded; loads counts (re)loads.
	loaded map[string]*loadedModel
	loads  int
	shows  int
	// others counts requests to any endpoint but the two chat ones.
	others int
	clock  provider.Clock
	// standalone is set by StartOllama.
	standalone *standalone
}

// loadedModel is a model in memory, as /api/ps shows it: Ollama lists a
// model from the moment it starts loading it, with no expiry until the
// request that loaded it ends (ps then reads now + keep_alive).
type loadedModel struct {
	numCtx  int
	session time.Duration
	expires time.Time
}

// OllamaRequest is one chat request the fake received.
type OllamaRequest struct {
	// Request has the decoded model, system prompt, messages and tools.
	Request
	// Endpoint is "/api/chat" or "/v1/chat/completions".
	Endpoint string
	// NumCtx is the context the request ran in: options.num_ctx, else the
	// server default (always the default on /v1).
	NumCtx int
	// Options are the request's options as sent (nil on /v1).
	Options map[string]any
	// Think is the think value sent (true, false, "high"…), nil for none.
	Think any
	// KeepAlive is keep_alive as sent ("" for none).
	KeepAlive string
	// Truncate is the truncate flag sent, nil for none (true by default).
	Truncate *bool
	// Seen is what the model saw once the prompt was fitted into NumCtx.
	Seen Seen
	// Received is when the whole request had arrived (the system clock).
	Received time.Time
}

// Seen is the prompt a model saw after the server fitted it.
type Seen struct {
	// Prompt is the rendered prompt the model read.
	Prompt string
	// Tokens is its length; Full the length before fitting.
	Tokens, Full int
	// DroppedMessages counts whole messages left out; CutTokens the
	// tokens cut from the start after that.
	DroppedMessages, CutTokens int
}

// Cut reports whether anything of the prompt was left out.
func (s Seen) Cut() bool { return s.DroppedMessages > 0 || s.CutTokens > 0 }

// NewOllama starts a fake Ollama on a loopback port; it stops when the
// test ends.
func NewOllama(t testing.TB, opts ...OllamaOption) *Ollama {
	t.Helper()
	return newOllama(t, opts...)
}

// StartOllama starts a fake Ollama outside a test, for a benchmark
// program: what would fail a test is kept for Err. The caller must Close
// it.
func StartOllama(opts ...OllamaOption) *Ollama {
	rep := &standalone{}
	o := newOllama(rep, opts...)
	o.standalone = rep
	return o
}

// Err returns what went wrong in an Ollama from StartOllama.
func (o *Ollama) Err() error {
	if o.standalone == nil {
		return nil
	}
	return o.standalone.err()
}

func newOllama(t reporter, opts ...OllamaOption) *Ollama {
	o := &Ollama{t: t, waiting: make(chan struct{}, waitingBuffer), done: make(chan struct{}),
		models: []OllamaModel{OllamaModel{Name: "llama3.1:8b"}.withDefaults()}, defaultCtx: OllamaDefaultContext,
		pullable: map[string]pullable{}, loaded: map[string]*loadedModel{}}
	for _, opt := range opts {
		opt(o)
	}
	if o.clock == nil {
		o.clock = provider.SystemClock()
	}
	o.srv = httptest.NewUnstartedServer(http.HandlerFunc(o.serve))
	if o.listener != nil {
		_ = o.srv.Listener.Close()
		o.srv.Listener = o.listener
	}
	o.srv.Start()
	o.url = o.srv.URL
	t.Cleanup(o.Close)
	return o
}

// Close stops the server, ending held responses first.
func (o *Ollama) Close() {
	o.close.Do(func() {
		close(o.done)
		o.srv.Close()
	})
}

// URL is the server's root, what the ollama provider's base URL is.
func (o *Ollama) URL() string { return o.url }

// V1 is the base URL of its OpenAI-compatible endpoint (URL()+"/v1").
func (o *Ollama) V1() string { return o.url + "/v1" }

// Waiting receives once each time a response reaches a Hold, Wait or
// Linger part.
func (o *Ollama) Waiting() <-chan struct{} { return o.waiting }

// Reply adds one response to the script (see Model.Reply). Tool calls
// without WithID get ids "call_1", "call_2"….
func (o *Ollama) Reply(parts ...Part) {
	o.t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	r, err := newReply(parts, true, func() string {
		o.calls++
		return "call_" + strconv.Itoa(o.calls)
	})
	if err != nil {
		o.t.Fatal(err)
		return
	}
	o.script = append(o.script, r)
}

// Pending returns how many Replies have not been played yet.
func (o *Ollama) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.script) - o.next
}

// Requests returns the chat requests received so far.
func (o *Ollama) Requests() []OllamaRequest {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.requests)
}

// Loads returns how many times a model was loaded (a new num_ctx reloads
// it); ShowRequests how many /api/show requests came.
func (o *Ollama) Loads() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.loads
}

// OtherRequests returns how many requests came to endpoints other than
// the chat ones (/api/show, /api/ps, /api/tags, /api/version, /v1/models…).
func (o *Ollama) OtherRequests() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.others
}

// ShowRequests returns how many /api/show requests came.
func (o *Ollama) ShowRequests() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.shows
}

// SetLoaded says which models /api/ps lists, as loaded earlier with
// num_ctx numCtx by another client (5 minutes to expiry); nothing else is
// loaded. A request with another num_ctx reloads the model.
func (o *Ollama) SetLoaded(numCtx int, names ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.loaded = map[string]*loadedModel{}
	for _, n := range names {
		o.loaded[n] = &loadedModel{numCtx: numCtx, session: 5 * time.Minute, expires: o.clock.Now().Add(5 * time.Minute)}
	}
}

func (o *Ollama) model(name string) (OllamaModel, bool) {
	for _, m := range o.models {
		if m.Name == name || m.Name == name+":latest" || strings.TrimSuffix(m.Name, ":latest") == name {
			return m, true
		}
	}
	return OllamaModel{}, false
}

func (o *Ollama) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	received := time.Now()
	if r.URL.Path != "/api/chat" && r.URL.Path != "/v1/chat/completions" {
		o.mu.Lock()
		o.others++
		o.mu.Unlock()
	}
	r = r.WithContext(context.WithValue(r.Context(), receivedKey{}, received))
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "Ollama is running")
	case r.Method == http.MethodGet && r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, map[string]any{"version": "0.17.4"})
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		o.serveTags(w)
	case r.Method == http.MethodGet && r.URL.Path == "/api/ps":
		o.servePS(w)
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		o.serveShow(w, body)
	case r.Method == http.MethodPost && r.URL.Path == "/api/pull":
		o.servePull(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
		o.serveChat(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		o.serveV1(w, r, body)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		o.mu.Lock()
		data := []any{}
		for _, m := range o.models {
			data = append(data, map[string]any{"id": m.Name, "object": "model", "created": created, "owned_by": "library"})
		}
		o.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "404 page not found")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, js(v))
}

func ollamaError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": msg})
}

func (o *Ollama) serveTags(w http.ResponseWriter) {
	o.mu.Lock()
	defer o.mu.Unlock()
	list := []any{}
	for _, m := range o.models {
		list = append(list, map[string]any{"name": m.Name, "model": m.Name, "modified_at": "2025-03-10T12:00:00Z", "size": m.Size,
			"digest":  "sha256:" + strings.Repeat("a", 64),
			"details": map[string]any{"format": "gguf", "family": m.Family, "families": []string{m.Family}, "parameter_size": "8.0B", "quantization_level": "Q4_K_M"}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

func (o *Ollama) servePS(w http.ResponseWriter) {
	o.mu.Lock()
	defer o.mu.Unlock()
	list := []any{}
	for _, m := range o.models {
		l, ok := o.loaded[m.Name]
		if !ok {
			continue
		}
		exp := l.expires
		if exp.IsZero() {
			exp = o.clock.Now().Add(l.session)
		}
		list = append(list, map[string]any{"name": m.Name, "model": m.Name, "size": m.Size, "size_vram": m.Size,
			"expires_at": exp.Format(time.RFC3339Nano), "context_length": l.numCtx, "details": map[string]any{"family": m.Family}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

func (o *Ollama) serveShow(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	_ = json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	o.mu.Lock()
	o.shows++
	m, ok := o.model(name)
	o.mu.Unlock()
	if !ok {
		ollamaError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", name))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"modelfile":    "FROM " + m.Name,
		"template":     "{{ .Prompt }}",
		"details":      map[string]any{"format": "gguf", "family": m.Family, "families": []string{m.Family}, "parameter_size": "8.0B", "quantization_level": "Q4_K_M"},
		"capabilities": m.Capabilities,
		"modified_at":  "2025-03-10T12:00:00Z",
		"model_info": map[string]any{
			"general.architecture":       m.Family,
			"general.parameter_count":    8030261248,
			m.Family + ".context_length": m.ContextLength,
			m.Family + ".block_count":    32,
		},
	})
}

func (o *Ollama) servePull(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	_ = json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	o.mu.Lock()
	pl, ok := o.pullable[name]
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	line := func(v map[string]any) bool {
		if _, err := io.WriteString(w, js(v)+"\n"); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return r.Context().Err() == nil
	}
	if !line(map[string]any{"status": "pulling manifest"}) {
		return
	}
	if !ok {
		// What the registry answers for a name it does not have.
		line(map[string]any{"error": "pull model manifest: file does not exist"})
		return
	}
	digest := "sha256:" + strings.Repeat("b", 64)
	steps := max(o.pullSteps, 2)
	for i := 0; i <= steps; i++ {
		done := pl.total * int64(i) / int64(steps)
		var gate <-chan struct{}
		if i == 1 {
			gate = o.pullGate
		}
		var pace <-chan time.Time
		if i > 0 && o.pullEvery > 0 {
			pace = time.After(o.pullEvery)
		}
		if gate != nil && !holdUntil(o, r, gate) {
			return
		}
		if pace != nil && !holdUntil(o, r, pace) {
			return
		}
		if !line(map[string]any{"status": "pulling " + digest[7:19], "digest": digest, "total": pl.total, "completed": done}) {
			return
		}
	}
	for _, s := range []string{"verifying sha256 digest", "writing manifest", "success"} {
		if !line(map[string]any{"status": s}) {
			return
		}
	}
	o.mu.Lock()
	if _, have := o.model(name); !have {
		o.models = append(o.models, pl.m)
	}
	o.mu.Unlock()
}

// holdUntil waits for ch; false when the client went away or the server
// stops first.
func holdUntil[T any](o *Ollama, r *http.Request, ch <-chan T) bool {
	select {
	case <-ch:
		return true
	case <-r.Context().Done():
	case <-o.done:
	}
	return false
}

// ollamaChat is /api/chat's request body.
type ollamaChat struct {
	Model    string          `json:"model"`
	Stream   *bool           `json:"stream"`
	Options  map[string]any  `json:"options"`
	Think    json.RawMessage `json:"think"`
	Truncate *bool           `json:"truncate"`
	Shift    *bool           `json:"shift"`
	Keep     json.RawMessage `json:"keep_alive"`
	Messages []struct {
		Role       string   `json:"role"`
		Content    string   `json:"content"`
		Thinking   string   `json:"thinking"`
		Images     []string `json:"images"`
		ToolName   string   `json:"tool_name"`
		ToolCallID string   `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// decodeOllama reads an /api/chat body into an OllamaRequest.
func decodeOllama(body []byte) (OllamaRequest, ollamaChat, error) {
	var in ollamaChat
	out := OllamaRequest{Request: Request{Body: body}, Endpoint: "/api/chat"}
	if err := json.Unmarshal(body, &in); err != nil {
		return out, in, err
	}
	out.Model, out.Options, out.Truncate = in.Model, in.Options, in.Truncate
	out.Stream = in.Stream == nil || *in.Stream
	if len(in.Think) > 0 {
		_ = json.Unmarshal(in.Think, &out.Think)
	}
	if len(in.Keep) > 0 {
		var s any
		_ = json.Unmarshal(in.Keep, &s)
		out.KeepAlive = fmt.Sprint(s)
	}
	if n, ok := in.Options["num_predict"].(float64); ok {
		out.MaxTokens = int(n)
	}
	var system []string
	for _, m := range in.Messages {
		switch m.Role {
		case "system":
			system = append(system, m.Content)
		case "tool":
			out.Messages = append(out.Messages, Message{Role: "tool", Content: m.Content, ToolCallID: m.ToolCallID})
		default:
			msg := Message{Role: m.Role, Content: m.Content}
			if m.Thinking != "" {
				msg.Thinking = append(msg.Thinking, provider.ThinkingBlock{Text: m.Thinking})
			}
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, Call{ID: c.ID, Name: c.Function.Name, Arguments: string(c.Function.Arguments)})
			}
			out.Messages = append(out.Messages, msg)
		}
	}
	out.System = strings.Join(system, "\n\n")
	for _, t := range in.Tools {
		out.Tools = append(out.Tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return out, in, nil
}

type receivedKey struct{}

func receivedAt(r *http.Request) time.Time {
	t, _ := r.Context().Value(receivedKey{}).(time.Time)
	return t
}

// serveChat answers /api/chat.
func (o *Ollama) serveChat(w http.ResponseWriter, r *http.Request, body []byte) {
	req, in, err := decodeOllama(body)
	req.Received = receivedAt(r)
	o.mu.Lock()
	n := len(o.requests) + 1
	m, known := o.model(req.Model)
	numCtx := o.defaultCtx
	if v, ok := in.Options["num_ctx"].(float64); ok && v > 0 {
		numCtx = int(v)
	}
	req.NumCtx = numCtx
	o.mu.Unlock()
	refuse := func(status int, msg string) {
		o.mu.Lock()
		o.requests = append(o.requests, req)
		o.mu.Unlock()
		ollamaError(w, status, msg)
	}
	switch {
	case err != nil:
		o.t.Errorf("providertest: Ollama request %d is not valid JSON: %v", n, err)
		refuse(http.StatusBadRequest, err.Error())
		return
	case !known:
		refuse(http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	case len(req.Tools) > 0 && !m.can("tools"):
		refuse(http.StatusBadRequest, fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Model))
		return
	case req.Think != nil && req.Think != false && !m.can("thinking"):
		refuse(http.StatusBadRequest, fmt.Sprintf("%q does not support thinking", req.Model))
		return
	}
	// The model is loaded before the prompt is read.
	o.load(m.Name, numCtx, keepAlive(req.KeepAlive))
	defer o.idle(m.Name)
	seen, ok := fit(render(req.Request), numCtx, req.Truncate == nil || *req.Truncate)
	req.Seen = seen
	if !ok {
		refuse(http.StatusBadRequest, "the input length exceeds the context length")
		return
	}
	rep, have := o.take(req, n)
	if !have {
		refuse(http.StatusBadRequest, fmt.Sprintf("providertest: the script ran out: request %d has no Reply; add one with Ollama.Reply", n))
		return
	}
	if rep.usage == defaultUsage() {
		rep.usage.InputTokens = seen.Tokens
	}
	thinks := req.Think != false && m.can("thinking")
	o.play(w, r, rep, &ndjsonEncoder{model: req.Model}, thinks)
}

// keepAlive reads keep_alive as sent ("30m0s", seconds), default 5 min.
func keepAlive(s string) time.Duration {
	if d, err := time.ParseDuration(s); err == nil {
		return d
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(n * float64(time.Second))
	}
	return 5 * time.Minute
}

// idle starts a loaded model's keep_alive once a request ends.
func (o *Ollama) idle(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if l := o.loaded[name]; l != nil {
		l.expires = o.clock.Now().Add(l.session)
	}
}

// take records req and hands out the next Reply.
func (o *Ollama) take(req OllamaRequest, n int) (reply, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests = append(o.requests, req)
	if o.next >= len(o.script) {
		o.t.Errorf("providertest: the script ran out: Ollama request %d (%s) has no Reply; add one with Ollama.Reply", n, req.Endpoint)
		return reply{}, false
	}
	rep := o.script[o.next]
	o.next++
	return rep, true
}

// load loads model with num_ctx n, unless it is loaded so already; the
// request's keep_alive applies from its end.
func (o *Ollama) load(name string, n int, keep time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if cur, ok := o.loaded[name]; !ok || cur.numCtx != n {
		o.loads++
		o.loaded[name] = &loadedModel{numCtx: n, session: keep}
		return
	}
	o.loaded[name].session = keep
}

// serveV1 answers the OpenAI-compatible endpoint: options are ignored and
// the request runs in the server's default context.
func (o *Ollama) serveV1(w http.ResponseWriter, r *http.Request, body []byte) {
	req := OllamaRequest{Request: Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}, Endpoint: "/v1/chat/completions",
		Received: receivedAt(r)}
	includeUsage, err := decodeOpenAI(&req.Request)
	o.mu.Lock()
	n := len(o.requests) + 1
	m, known := o.model(req.Model)
	req.NumCtx = o.defaultCtx
	o.mu.Unlock()
	if err != nil || !known {
		o.mu.Lock()
		o.requests = append(o.requests, req)
		o.mu.Unlock()
		msg := fmt.Sprintf("model %q not found, try pulling it first", req.Model)
		if err != nil {
			msg = err.Error()
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": msg, "type": "api_error", "param": nil, "code": nil}})
		return
	}
	seen, _ := fit(render(req.Request), req.NumCtx, true)
	req.Seen = seen
	rep, have := o.take(req, n)
	if !have {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "providertest: the script ran out", "type": "invalid_request_error"}})
		return
	}
	if rep.usage == defaultUsage() {
		rep.usage.InputTokens = seen.Tokens
	}
	o.load(m.Name, req.NumCtx, 5*time.Minute)
	defer o.idle(m.Name)
	o.play(w, r, rep, &openAIEncoder{id: fmt.Sprintf("chatcmpl-%d", n), model: req.Model, includeUsage: includeUsage, reasoning: Reasoning}, m.can("thinking"))
}

// play streams one reply (as Model.play, with NDJSON or SSE).
func (o *Ollama) play(w http.ResponseWriter, r *http.Request, rep reply, enc encoder, thinks bool) {
	flusher, _ := w.(http.Flusher)
	ctx := r.Context()
	started := false
	send := func(chunks []string) bool {
		if !started {
			started = true
			ct := "application/x-ndjson"
			if _, sse := enc.(*openAIEncoder); sse {
				ct = "text/event-stream"
			}
			w.Header().Set("Content-Type", ct)
			w.WriteHeader(http.StatusOK)
			chunks = append(enc.start(), chunks...)
		}
		for _, c := range chunks {
			if _, err := io.WriteString(w, c); err != nil {
				return false
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
		return true
	}
	wait := func(ch <-chan struct{}) bool {
		signal(o.waiting)
		select {
		case <-ch:
			return true
		case <-ctx.Done():
		case <-o.done:
		}
		return false
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
		case partCall:
			ok = send(enc.call(p.id, p.name, p.args))
			stop = stopTools
		case partWait:
			ok = wait(p.wait)
		case partHold:
			wait(nil)
			return
		case partCut:
			send(nil)
			return
		case partStatus:
			msg := p.body
			if msg == "" {
				msg = http.StatusText(p.status)
			}
			if strings.HasPrefix(strings.TrimSpace(msg), "{") || strings.HasPrefix(strings.TrimSpace(msg), "<") {
				ct := "application/json"
				if strings.HasPrefix(strings.TrimSpace(msg), "<") {
					ct = "text/html"
				}
				w.Header().Set("Content-Type", ct)
				w.WriteHeader(p.status)
				_, _ = io.WriteString(w, msg)
				return
			}
			ollamaError(w, p.status, msg)
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
		wait(nil)
		return
	}
	send(enc.close())
}

// ndjsonEncoder writes /api/chat's lines.
type ndjsonEncoder struct {
	model string
	calls int
}

func (e *ndjsonEncoder) line(msg map[string]any, done bool, extra map[string]any) string {
	v := map[string]any{"model": e.model, "created_at": "2025-03-10T12:00:00.000000Z", "message": msg, "done": done}
	for k, x := range extra {
		v[k] = x
	}
	return js(v) + "\n"
}

func (e *ndjsonEncoder) start() []string { return nil }

func (e *ndjsonEncoder) text(pieces []string) []string {
	var out []string
	for _, p := range pieces {
		out = append(out, e.line(map[string]any{"role": "assistant", "content": p}, false, nil))
	}
	return out
}

func (e *ndjsonEncoder) thinking(pieces []string) []string {
	var out []string
	for _, p := range pieces {
		out = append(out, e.line(map[string]any{"role": "assistant", "content": "", "thinking": p}, false, nil))
	}
	return out
}

func (e *ndjsonEncoder) redacted(string) []string { return nil }

// call sends the call whole, arguments as an object, as Ollama does.
func (e *ndjsonEncoder) call(id, name, args string) []string {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		obj = map[string]any{}
	}
	fn := map[string]any{"index": e.calls, "name": name, "arguments": obj}
	e.calls++
	tc := map[string]any{"function": fn}
	if id != "" {
		tc["id"] = id
	}
	return []string{e.line(map[string]any{"role": "assistant", "content": "", "tool_calls": []any{tc}}, false, nil)}
}

func (e *ndjsonEncoder) finish(stop string, u provider.Usage) []string {
	reason := "stop"
	if stop == stopMax {
		reason = "length"
	}
	return []string{e.line(map[string]any{"role": "assistant", "content": ""}, true, map[string]any{
		"done_reason": reason, "total_duration": int64(2 * time.Second), "load_duration": int64(30 * time.Millisecond),
		"prompt_eval_count": u.InputTokens, "prompt_eval_duration": int64(time.Second), "eval_count": u.OutputTokens,
		"eval_duration": int64(time.Second)})}
}

func (e *ndjsonEncoder) close() []string { return nil }
