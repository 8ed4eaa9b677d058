package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// Name is the capability this package serves.
const Name = "history"

// Limits of the tools.
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 20
	DefaultReadLimit   = 40
	MaxReadLimit       = 200
	// EventChars caps one event's text in history_read.
	EventChars = 1500
	// MaxOutputBytes caps one history_read answer; the rest is paged.
	MaxOutputBytes = 24 << 10
)

// Runtime serves history_search and history_read from a store.
type Runtime struct {
	db *store.DB
}

var _ cerebellum.Runtime = (*Runtime)(nil)

// New returns the history runtime over db.
func New(db *store.DB) *Runtime { return &Runtime{db: db} }

// Close does nothing: the store belongs to the caller.
func (r *Runtime) Close() error { return nil }

// Call runs one tool. Failures the model can fix are error Results.
func (r *Runtime) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	current := ""
	if s := cerebellum.SessionFrom(ctx); s != nil {
		current = s.ID()
	}
	switch tool {
	case "history_search":
		var a struct {
			Query string `json:"query"`
			Limit int    `json:"limit"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return toolError("arguments must be a JSON object like {\"query\":\"invoice template\"}: " + err.Error()), nil
		}
		return r.search(a.Query, a.Limit, current), nil
	case "history_read":
		var a struct {
			Conversation string `json:"conversation"`
			From         uint64 `json:"from"`
			Limit        int    `json:"limit"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return toolError("arguments must be a JSON object like {\"conversation\":\"c12\"}: " + err.Error()), nil
		}
		return r.read(a.Conversation, a.From, a.Limit, current), nil
	}
	return cerebellum.Result{}, fmt.Errorf("%w: history has no tool %q", cerebellum.ErrUnknownTool, tool)
}

func toolError(msg string) cerebellum.Result { return cerebellum.Result{Content: msg, IsError: true} }

func (r *Runtime) search(query string, limit int, current string) cerebellum.Result {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	hits, err := r.db.Search(query, limit)
	if errors.Is(err, store.ErrEmptyQuery) {
		return toolError("say what to look for: words such as names, file names or error text, e.g. {\"query\":\"invoice template\"}")
	}
	if err != nil {
		return toolError("could not search the history: " + err.Error())
	}
	if len(hits) == 0 {
		return cerebellum.Result{Content: fmt.Sprintf("No past conversation mentions %q. Try other words (a synonym, a file name).", query)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s match %q (best first):\n", len(hits), plural(len(hits), "conversation", "conversations"), query)
	for i, h := range hits {
		title := h.Title
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(&b, "%d. %s %q, updated %s", i+1, h.Conversation, title, h.Updated.UTC().Format("2006-01-02 15:04 UTC"))
		if h.Conversation.String() == current {
			b.WriteString(" (this conversation)")
		}
		if h.Seq > 0 {
			fmt.Fprintf(&b, " — event %d (%s)", h.Seq, who(h.Type))
		}
		fmt.Fprintf(&b, ": %s\n", h.Snippet)
	}
	b.WriteString(`Read one with history_read(conversation="cN", from=<event - 3>).`)
	return cerebellum.Result{Content: b.String()}
}

func (r *Runtime) read(conv string, from uint64, limit int, current string) cerebellum.Result {
	id, err := store.ParseID(conv)
	if err != nil {
		return toolError(fmt.Sprintf("%q is not a conversation id; use an id such as \"c12\" from history_search", conv))
	}
	c, err := r.db.GetConversation(id)
	if errors.Is(err, store.ErrNotFound) {
		return toolError(fmt.Sprintf("there is no conversation %s (it may have been deleted); use history_search to find one", id))
	}
	if err != nil {
		return toolError("could not read the history: " + err.Error())
	}
	events, err := r.db.Events(id)
	if err != nil {
		return toolError("could not read the history: " + err.Error())
	}
	if from == 0 {
		from = 1
	}
	if limit <= 0 {
		limit = DefaultReadLimit
	}
	limit = min(limit, MaxReadLimit)
	var page []store.Event
	for _, e := range events {
		if e.Seq >= from && e.Type != store.EventUsage {
			page = append(page, e)
		}
	}
	more := false
	if len(page) > limit {
		page, more = page[:limit], true
	}
	var b strings.Builder
	title := c.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(&b, "Conversation %s %q, started %s, %d events", id, title, c.Created.UTC().Format("2006-01-02 15:04 UTC"), len(events))
	if id.String() == current {
		b.WriteString(" (this conversation)")
	}
	b.WriteString(".\n")
	if len(page) == 0 {
		fmt.Fprintf(&b, "No events from %d on.", from)
		return cerebellum.Result{Content: b.String()}
	}
	next := uint64(0)
	for i, e := range page {
		line := RenderEvent(e, EventChars) + "\n"
		if b.Len()+len(line) > MaxOutputBytes && i > 0 {
			more, next = true, e.Seq
			break
		}
		b.WriteString(line)
		next = e.Seq + 1
	}
	if more {
		fmt.Fprintf(&b, "More: history_read(conversation=%q, from=%d)", id.String(), next)
	} else {
		b.WriteString("(end of conversation)")
	}
	return cerebellum.Result{Content: b.String()}
}

func who(t store.EventType) string {
	switch t {
	case store.EventUserMessage:
		return "user"
	case store.EventAssistantText:
		return "assistant"
	case store.EventToolResult:
		return "tool result"
	}
	return string(t)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Render writes events as numbered lines, one per event, each event's text
// cut to maxChars characters (0: no cut). Usage events are left out.
func Render(events []store.Event, maxChars int) string {
	var b strings.Builder
	for _, e := range events {
		if e.Type == store.EventUsage {
			continue
		}
		b.WriteString(RenderEvent(e, maxChars))
		b.WriteByte('\n')
	}
	return b.String()
}

// RenderEvent is one line (or paragraph) for an event: "[seq] who: text".
func RenderEvent(e store.Event, maxChars int) string {
	status := ""
	if e.Status == store.StatusInterrupted {
		status = " (interrupted)"
	} else if e.Status == store.StatusStreaming {
		status = " (still streaming)"
	}
	var head, body string
	switch e.Type {
	case store.EventUserMessage:
		head, body = "user", e.Text
	case store.EventAssistantText:
		head, body = "assistant"+status, e.Text
	case store.EventToolCall:
		head, body = "tool call "+e.ToolName, string(e.Arguments)
		var prog struct {
			Program string `json:"program"`
		}
		// run_go (code mode): the program itself, as a code block.
		if e.ToolName == "run_go" && json.Unmarshal(e.Arguments, &prog) == nil && prog.Program != "" {
			body = "\n```go\n" + strings.TrimRight(prog.Program, "\n") + "\n```"
		}
	case store.EventToolResult:
		head = "tool result " + e.ToolName
		if e.IsError {
			head += " (error)"
		}
		body = e.Text
	case store.EventApproval:
		head = "approval " + e.ToolName
		if e.Decision != nil {
			body = strings.ReplaceAll(string(e.Decision.Kind), "_", " ")
			if e.Decision.Reason != "" {
				body += ": " + e.Decision.Reason
			}
		}
	case store.EventError:
		head, body = "error", e.Text
	case store.EventUsage:
		head = "usage"
		if e.Usage != nil {
			body = fmt.Sprintf("%d in, %d out", e.Usage.InputTokens, e.Usage.OutputTokens)
		}
	default:
		head, body = string(e.Type), e.Text
	}
	line := fmt.Sprintf("[%d] %s: %s", e.Seq, head, cut(strings.TrimSpace(body), maxChars))
	if e.ParentCallID != "" {
		// A call a code-mode program made, nested under the program's.
		line = "    " + strings.ReplaceAll(line, "\n", "\n    ")
	}
	return line
}

// cut shortens s to max characters, saying how much was left out.
func cut(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + fmt.Sprintf(" …[%d more characters]", len(r)-max)
}
