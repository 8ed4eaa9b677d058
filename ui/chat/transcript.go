package chat

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// rowKind says what a row of the message list shows.
type rowKind int

const (
	rowUser rowKind = iota
	rowAssistant
	rowTool     // a tool call with its gate decision and result
	rowError    // a failure shown to the user, with Retry
	rowApproval // a call waiting for the user's answer (never stored)
)

// row is one entry of the message list. Rows are plain data; the widgets
// bound to them are recycled by the list.
type row struct {
	kind rowKind
	seq  uint64 // the event it comes from (for a tool: the call)
	text string // message text, or an error's text
	// images are a user message's pictures, sent again by Retry.
	images []provider.Image
	// body is what a message's row shows: its text, or of a long
	// message (longtext.go) its first piece; part is set on the rows of
	// its later pieces and its bar, long on its own row.
	body   string
	part   *partOf
	long   *longText
	status store.Status
	model  string
	tool   *toolCall
	// err is the error a turn returned, attached to the error row it
	// stored, for its hint (a button to the page with the fix).
	err error
	// pending is the approval a rowApproval asks for.
	pending *pending
	// ask is the MCP server's question a rowAsk shows (askcard.go).
	ask *pendingAsk
	// redacted marks reasoning the provider sent encrypted (rowThinking).
	redacted bool
	// expanded shows a tool card's result (kept here, not in the
	// recycled widget).
	expanded bool
	// version moves whenever the row changes, so a bound widget knows
	// when to rebuild and a cached height when to be measured again.
	version int
	// vers is which version of a user message this is, of how many
	// (versions.go); zero when it has no others.
	vers store.Version
	// memo keeps the row's estimated tokens (tokenmemo.go).
	memo tokenMemo
}

// toolCall is what a tool card shows.
type toolCall struct {
	id, name, capability string
	args                 json.RawMessage
	result               string
	isError, done        bool
	// interrupted is the result's status: the user stopped the turn.
	interrupted    bool
	started, ended time.Time
	// ready is when the turn got to the call: the latest event before its
	// decision or result (or, for a program, its first own call). A call
	// is recorded while the model's reply still streams, and the calls of
	// one reply run one after the other, so started is too early.
	ready time.Time
	// decided is when the gate's decision was recorded (zero when none
	// was): an approved call ran from then.
	decided  time.Time
	decision *store.Decision
	// images are the pictures the result carries (shown as thumbnails);
	// imagesSeq is the result's event, where a page read from the store
	// left their bytes (thumbs.go).
	images    []provider.Image
	imagesSeq uint64
	// progress is the server's last progress report while the call runs
	// (progress.go).
	progress *mcp.Progress
	// parent is the call ID of the code-mode program (run_go) that made
	// this call: its card is drawn nested under the program's.
	parent string
	// program is run_go's Go source, shown as code instead of JSON.
	program string
	// fix is what the user can do about a failed call (a button).
	fix *hint.Hint
}

// codeModeTool is the tool whose calls are Go programs (brain/agent).
const codeModeTool = "run_go"

// programOf is run_go's program, or "" for any other call.
func programOf(name string, args json.RawMessage) string {
	if name != codeModeTool {
		return ""
	}
	var a struct {
		Program string `json:"program"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	return strings.TrimRight(a.Program, "\n")
}

// duration is how long the call itself ran: from its approval when it
// waited for one, else from when the turn got to it, to its result (0
// while it runs, when it did not run, or when an end was not loaded).
func (t *toolCall) duration() time.Duration {
	from := t.readyAt()
	if t.decision != nil {
		switch t.decision.Kind {
		case store.Denied, store.Blocked:
			return 0
		}
		if !t.decided.IsZero() {
			from = t.decided
		}
	}
	if !t.done || from.IsZero() || t.ended.IsZero() {
		return 0
	}
	return max(t.ended.Sub(from), 0)
}

// readyAt is ready, or started when no earlier event was loaded.
func (t *toolCall) readyAt() time.Time {
	if t.ready.After(t.started) {
		return t.ready
	}
	return t.started
}

// waited is how long the call waited for the user's decision (0 when it
// needed none or an end was not loaded).
func (t *toolCall) waited() time.Duration {
	from := t.readyAt()
	if t.decided.IsZero() || from.IsZero() {
		return 0
	}
	return max(t.decided.Sub(from), 0)
}

// markReady records that the turn got to the call by the time of prev
// (the latest event applied before), once.
func (t *toolCall) markReady(prev time.Time) {
	if t.ready.IsZero() {
		t.ready = prev
	}
}

// stopped reports whether the call was cut short by the user stopping the
// turn (the agent's result for it says so).
func (t *toolCall) stopped() bool {
	return t.done && t.interrupted
}

// plain is the row's text as searched by the find bar and copied by the
// Copy button.
func (r *row) plain() string {
	if r.part != nil {
		return "" // the message's own row has all of it
	}
	switch r.kind {
	case rowTool:
		t := r.tool
		parts := []string{t.name, t.argsText()}
		if t.decision != nil && t.decision.Reason != "" {
			parts = append(parts, t.decision.Reason)
		}
		if t.result != "" {
			parts = append(parts, t.result)
		}
		return strings.Join(parts, "\n")
	case rowApproval:
		return r.pending.req.Summary + "\n" + strings.Join(r.pending.req.Reasons, "\n") + "\n" + scopeText(r.pending.req)
	}
	return r.text
}

// estimate is the tokens the loaded rows' text would take, estimated
// (for a server that reports no usage).
func (t *transcript) estimate() int {
	n := 0
	for _, r := range t.rows {
		n += r.tokens()
	}
	return n
}

// transcript is one conversation as rows: what the message list shows. It
// is built from stored events (a page at a time, newest last) and kept up
// to date by the events a running turn reports. Plain Go, no Fyne.
type transcript struct {
	id store.ID
	// events are the stored events loaded so far, in order; rows are
	// rebuilt from them when an older page is prepended.
	events []store.Event
	rows   []*row
	calls  map[string]*row // tool rows by call id
	seqs   map[uint64]*row // message rows by seq
	// complete is true when events start at the conversation's first.
	complete bool
	// usage is the last reply's token use.
	usage *provider.Usage
	// latest is the time of the latest event applied (cards time a call
	// from it: see toolCall.ready).
	latest time.Time
	// owner names the capability a tool belongs to ("" when unknown).
	owner func(tool string) string
	// stamp is the stored conversation's record as read before its events
	// were loaded: when it is unchanged, so are the events (a rename or an
	// unload announces the conversation but changes neither).
	stamp recordStamp
	// versions are the user messages with other versions, by seq, as
	// last read (versions.go).
	versions map[uint64]store.Version
	// draftInstructions are the instructions set in the header before the
	// first message; that turn gives them to the conversation it makes
	// (TurnOptions.Instructions).
	draftInstructions string
}

// recordStamp is what moves in a conversation's record when its events change.
type recordStamp struct {
	updated time.Time
	events  int
}

func stampOf(c store.Conversation) recordStamp {
	return recordStamp{updated: c.Updated, events: c.EventCount}
}

func (s recordStamp) same(o recordStamp) bool {
	return s.events == o.events && s.updated.Equal(o.updated)
}

func newTranscript(id store.ID, owner func(string) string) *transcript {
	if owner == nil {
		owner = func(string) string { return "" }
	}
	return &transcript{id: id, owner: owner, calls: map[string]*row{}, seqs: map[uint64]*row{}, complete: true}
}

// oldest is the seq of the first loaded event (0 when none is).
func (t *transcript) oldest() uint64 {
	if len(t.events) == 0 {
		return 0
	}
	return t.events[0].Seq
}

// load replaces the transcript's content with events (a conversation's
// last page: complete says whether it starts at the beginning).
func (t *transcript) load(events []store.Event, complete bool) {
	t.events = nil
	t.rows = nil
	t.calls = map[string]*row{}
	t.seqs = map[uint64]*row{}
	t.usage = nil
	t.latest = time.Time{}
	t.complete = complete
	for _, e := range events {
		t.apply(e)
	}
}

// prepend adds an older page in front and rebuilds the rows; it returns
// how many rows now come before the ones shown until now.
func (t *transcript) prepend(older []store.Event, complete bool) int {
	before := len(t.rows)
	all := append(append([]store.Event(nil), older...), t.events...)
	t.load(all, complete)
	return len(t.rows) - before
}

// apply adds or updates the row an event belongs to. It returns the index
// of the row that changed (or was added), or -1 when no row did.
func (t *transcript) apply(e store.Event) int {
	if i := t.eventIndex(e.Seq); i >= 0 {
		t.events[i] = e
	} else {
		t.events = append(t.events, e)
	}
	prev := t.latest
	if e.Time.After(t.latest) {
		t.latest = e.Time
	}
	switch e.Type {
	case store.EventUserMessage:
		return t.message(rowUser, e)
	case store.EventAssistantText:
		return t.message(rowAssistant, e)
	case store.EventToolCall:
		r := t.calls[e.ToolCallID]
		// A finished call's ID used again is a new call (a server that
		// numbers calls per reply, or restarts its count): its own card.
		if r == nil || r.tool.done {
			r = &row{kind: rowTool, tool: &toolCall{id: e.ToolCallID}}
			t.calls[e.ToolCallID] = r
			t.rows = append(t.rows, r)
		}
		r.seq = e.Seq
		if p := t.calls[e.ParentCallID]; e.ParentCallID != "" && p != nil {
			p.tool.markReady(prev)
		}
		r.tool.name, r.tool.args, r.tool.started = e.ToolName, e.Arguments, e.Time
		r.tool.capability = t.owner(e.ToolName)
		r.tool.parent, r.tool.program = e.ParentCallID, programOf(e.ToolName, e.Arguments)
		r.version++
		return t.index(r)
	case store.EventToolResult:
		r := t.toolRow(e)
		r.tool.markReady(prev)
		r.tool.result, r.tool.isError, r.tool.done, r.tool.ended = e.Text, e.IsError, true, e.Time
		r.tool.images, r.tool.imagesSeq = e.Images, e.Seq
		r.tool.fix = e.Fix
		r.tool.interrupted = e.Status == store.StatusInterrupted
		r.version++
		return t.index(r)
	case store.EventApproval:
		r := t.toolRow(e)
		d := *e.Decision
		r.tool.decision = &d
		r.tool.markReady(prev)
		r.tool.decided = e.Time
		r.version++
		return t.index(r)
	case store.EventError:
		r := &row{kind: rowError, seq: e.Seq, text: e.Text, status: e.Status}
		t.seqs[e.Seq] = r
		t.rows = append(t.rows, r)
		return len(t.rows) - 1
	case store.EventUsage:
		u := *e.Usage
		t.usage = &u
	case store.EventThinking: // modelrows.go
		return t.thought(e)
	case store.EventNotice:
		return t.notice(e)
	}
	return -1
}

// message adds or updates a user or assistant message row. A reply that
// ended empty (the model only called tools) shows no row, unless it
// stopped at the length limit (it says so, with Continue).
func (t *transcript) message(k rowKind, e store.Event) int {
	r := t.seqs[e.Seq]
	if r == nil {
		if k == rowAssistant && e.Text == "" && e.Status != store.StatusStreaming && e.Status != store.StatusLength {
			return -1
		}
		r = &row{kind: k, seq: e.Seq}
		t.seqs[e.Seq] = r
		t.rows = append(t.rows, r)
	}
	r.text, r.status, r.model = e.Text, e.Status, e.Model
	if k == rowUser {
		r.images = e.Images
		r.vers = t.versions[e.Seq]
	}
	r.version++
	if k == rowAssistant && e.Text == "" && e.Status != store.StatusStreaming && e.Status != store.StatusLength {
		t.remove(r)
		return -1
	}
	t.arrange(r)
	return t.index(r)
}

// streamed shows text received so far for a streaming reply; it returns
// the index of the first row that changed, or -1 when none did (the reply
// is not, or no longer, streaming). Of a long reply only the rows whose
// piece changed do, usually the last one shown or only its bar.
func (t *transcript) streamed(seq uint64, text string) int {
	r := t.seqs[seq]
	if r == nil || (r.kind != rowAssistant && r.kind != rowThinking) || r.status != store.StatusStreaming || r.text == text {
		return -1
	}
	r.text = text
	return t.arrange(r)
}

// toolRow finds the row of the call an event answers, making one when the
// call itself was not loaded (it lies before the first page).
func (t *transcript) toolRow(e store.Event) *row {
	if r := t.calls[e.ToolCallID]; r != nil {
		return r
	}
	r := &row{kind: rowTool, seq: e.Seq, tool: &toolCall{id: e.ToolCallID, name: e.ToolName, capability: t.owner(e.ToolName), parent: e.ParentCallID}}
	t.calls[e.ToolCallID] = r
	t.rows = append(t.rows, r)
	return r
}

// attachError gives the last error row the error its turn returned, or
// adds a row for it when the turn stored none.
func (t *transcript) attachError(err error) int {
	if n := len(t.rows); n > 0 && t.rows[n-1].kind == rowError && t.rows[n-1].err == nil {
		t.rows[n-1].err = err
		t.rows[n-1].version++
		return n - 1
	}
	t.rows = append(t.rows, &row{kind: rowError, text: err.Error(), err: err})
	return len(t.rows) - 1
}

// truncateFrom drops the rows of events from seq on, as Resend and
// Regenerate do in the store.
func (t *transcript) truncateFrom(seq uint64) {
	var keep []store.Event
	for _, e := range t.events {
		if e.Seq < seq {
			keep = append(keep, e)
		}
	}
	t.load(keep, t.complete)
}

// lastUser is the last user message's row, or nil.
func (t *transcript) lastUser() *row {
	for i := len(t.rows) - 1; i >= 0; i-- {
		i = t.headAt(i)
		if t.rows[i].kind == rowUser {
			return t.rows[i]
		}
	}
	return nil
}

// lastAssistant is the index of the last reply when nothing but tool
// cards and errors follow it since the last user message, or -1.
func (t *transcript) lastAssistant() int {
	for i := len(t.rows) - 1; i >= 0; i-- {
		i = t.headAt(i) // a long message's later rows are part of it
		switch t.rows[i].kind {
		case rowAssistant:
			return i
		case rowUser:
			return -1
		}
	}
	return -1
}

func (t *transcript) remove(r *row) {
	if i := t.index(r); i >= 0 {
		t.rows = slices.Delete(t.rows, i, i+1+r.span())
	}
	delete(t.seqs, r.seq)
}

// index finds r, searching from the end where changes happen.
func (t *transcript) index(r *row) int {
	for i := len(t.rows) - 1; i >= 0; i-- {
		if t.rows[i] == r {
			return i
		}
	}
	return -1
}

func (t *transcript) eventIndex(seq uint64) int {
	for i := len(t.events) - 1; i >= 0 && i >= len(t.events)-64; i-- {
		if t.events[i].Seq == seq {
			return i
		}
	}
	return -1
}

// argsText is what a card shows of the call's arguments: a program as
// its source, anything else as compact JSON.
func (t *toolCall) argsText() string {
	if t.program != "" {
		return t.program
	}
	return compactJSON(t.args)
}

// nested reports whether the row is a call a code-mode program made.
func (r *row) nested() bool { return r.kind == rowTool && r.tool.parent != "" }

// compactJSON shows arguments on as few lines as possible.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
