package chat

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/elicit"
)

// pageSize is how many events a conversation longer than openWhole loads
// at a time: the last page when it opens, older pages as the view
// scrolls up to them.
const pageSize = 60

// openWhole is the longest conversation (in stored events) loaded whole:
// the last page shows at once and the rest is read in the background and
// put in front; its rows are plain data and cheap, and the list measures
// only those in view (estimate.go), so the scroll bar spans all of it and
// its first message is one drag away. Longer ones load in pages as the
// view reaches the top: Fyne's list walks every row's height on each
// refresh (about 0.2 µs a row), which at this many rows costs about 2 ms
// per change.
const openWhole = 10000

// Chat is the conversation side of the window: Sidebar and Object are its
// two halves. All methods run on the UI goroutine.
type Chat struct {
	// OnOpen is called after the sidebar opens a conversation or starts a
	// new one, so the window shell can bring the chat forward. Set by the
	// shell.
	OnOpen func()
	// OnIdle is called when no turn has run for a moment after one ended,
	// and after a long conversation's earlier events were read, so the
	// window can return the memory that left free. Set by the shell.
	OnIdle  func()
	idleGen int
	// onAttention hears what the person should see (attention.go).
	onAttention func(Attention)

	env  *bridge.Env
	core *assistant.App

	approvals *approvals
	// asks are MCP servers' questions by conversation (askcard.go).
	asks map[string][]*pendingAsk
	cur  *transcript
	// pendingRows are the current conversation's approval cards, after
	// its transcript rows.
	pendingRows []*row
	// turns are the running turns by the transcript they write to; live
	// holds those transcripts by conversation, so reopening a
	// conversation whose turn still runs shows it as it streams.
	turns   map[*transcript]*turnRun
	live    map[store.ID]*transcript
	anchors map[store.ID]anchor
	// editing is the user message the composer is editing, or nil.
	editing *row
	// selecting is the message shown as selectable text (selecttext.go).
	selecting    *row
	loadingOlder bool
	// restDue is set while the read of a long conversation's earlier
	// events waits for its last page to paint.
	restDue  bool
	settling bool // the list is being laid out for a reset
	// openWhole is openWhole, lowered by tests of the paged path.
	openWhole int

	now func() time.Time
	// after runs fn on the UI goroutine after d (a Copy button's revert);
	// timer runs fn on a goroutine of its own after d (the throttle).
	after func(time.Duration, func())
	timer func(time.Duration, func())
	// clock is what the sidebar's "N min ago" reads, and its tick moves
	// them on while the window is idle (stopTick ends it).
	clock    clock
	stopTick func()

	sidebar  *sidebar
	list     *messageList
	strip    *loadedStrip
	find     *findBar
	composer *composer
	status   *statusLine
	picker   *modelPicker // the conversation's model (modelpicker.go)
	header   *convHeader  // the top bar and the instructions' banner (convheader.go)
	proposed *proposals   // tasks the model proposed here (proposals.go)
	object   *fyne.Container
	area     *fyne.Container // object, kept at least chatMinWidth wide
	// notice is a short confirmation under the top bar ("Exported to
	// PATH"); noticeGen moves with each, so only the last one's timer
	// hides it.
	notice    *widget.Label
	noticeGen int

	unsubscribe func()
}

// New builds the chat side on env, showing a new, empty conversation.
func New(env *bridge.Env) *Chat {
	c := &Chat{
		env: env, core: env.Core,
		turns:     map[*transcript]*turnRun{},
		live:      map[store.ID]*transcript{},
		anchors:   map[store.ID]anchor{},
		now:       time.Now,
		openWhole: openWhole,
		after: func(d time.Duration, fn func()) {
			time.AfterFunc(d, func() { env.Do(fn) })
		},
		timer: func(d time.Duration, fn func()) { time.AfterFunc(d, fn) },
		clock: wallClock{},
	}
	c.approvals = newApprovals(func(conv string) { env.Do(func() { c.approvalsChanged(conv) }) })
	c.approvals.onAsk = func(req gate.Request) { env.Do(func() { c.asked(req) }) }
	c.cur = newTranscript(0, c.owner)
	c.list = newMessageList(c)
	c.strip = newLoadedStrip(c)
	c.find = newFindBar(c)
	c.composer = newComposer(c)
	c.picker = newModelPicker(c)
	c.status = newStatusLine(c)
	c.sidebar = newSidebar(c)
	c.proposed = newProposals(c)

	c.header = newConvHeader(c)
	c.notice = widget.NewLabel("")
	c.notice.Importance = widget.SuccessImportance
	c.notice.Truncation = fyne.TextTruncateEllipsis
	c.notice.Hide()
	top := container.NewVBox(
		c.header.bar,
		c.find.object,
		c.notice,
		c.header.banner,
	)
	bottom := container.NewVBox(c.proposed.object, c.composer.object, c.status.object)
	c.object = container.NewBorder(top, bottom, nil, nil, c.list)
	c.area = container.New(minWidth(chatMinWidth), c.object)

	c.unsubscribe = c.core.Subscribe(func(e assistant.Event) {
		switch e.Kind {
		case assistant.EventConversations:
			names := e.Names
			env.Do(func() { c.conversationsChanged(names) })
		case assistant.EventCapabilities, assistant.EventConfig:
			env.Do(func() {
				c.strip.refresh()
				c.status.refresh()
				c.header.refresh() // the prices may have changed
			})
		case assistant.EventToolProgress:
			if p := e.Progress; p != nil {
				report := *p
				env.Do(func() { c.toolProgress(report) })
			}
		case assistant.EventTasks:
			env.Do(func() {
				c.proposed.refresh()
				c.sidebar.reload()
			})
		}
	})
	// A server's question during a call of a conversation shows in it
	// (askcard.go); the window's asker keeps its dialog for the others.
	if a, ok := c.core.MCPAsker().(*elicit.Asker); ok {
		a.SetConversations(c)
		c.unsubscribe = joined(c.unsubscribe, func() { a.SetConversations(nil) })
	}
	c.sidebar.reload()
	c.refreshChrome()
	c.setClock(c.clock)
	return c
}

// joined calls both functions.
func joined(a, b func()) func() {
	return func() { a(); b() }
}

// setClock makes k the sidebar's clock and starts its tick (stopping the
// previous one's).
func (c *Chat) setClock(k clock) {
	if c.stopTick != nil {
		c.stopTick()
	}
	c.clock = k
	c.stopTick = k.Every(sidebarTick, func() { c.env.Do(c.sidebar.tick) })
	c.sidebar.tick()
}

// Close stops listening to the core and stops running turns.
func (c *Chat) Close() {
	c.unsubscribe()
	c.composer.menu.clear() // ends the attached resources' subscriptions
	if c.stopTick != nil {
		c.stopTick()
		c.stopTick = nil
	}
	for _, run := range c.turns {
		run.cancel()
	}
}

// Sidebar is the list of conversations with new, rename, delete and
// search.
func (c *Chat) Sidebar() fyne.CanvasObject { return c.sidebar.object }

// relayout lays the chat area out again after a part of it changed height
// (the find bar opened or closed, the composer grew): a container only
// lays itself out when resized, so the space would otherwise stay until
// the window is.
func (c *Chat) relayout() {
	for _, o := range c.object.Objects {
		if box, ok := o.(*fyne.Container); ok && box.Layout != nil {
			box.Layout.Layout(box.Objects, box.Size())
		}
	}
	if c.object.Layout != nil {
		c.object.Layout.Layout(c.object.Objects, c.object.Size())
	}
	canvas.Refresh(c.object)
}

// noticeFor is how long a confirmation note stays.
const noticeFor = 4 * time.Second

// showNotice shows a short confirmation under the top bar for a while.
func (c *Chat) showNotice(text string) {
	c.noticeGen++
	gen := c.noticeGen
	c.notice.SetText(text)
	c.notice.Show()
	c.relayout()
	c.after(noticeFor, func() {
		if gen == c.noticeGen {
			c.notice.Hide()
			c.relayout()
		}
	})
}

// Object is the chat area: loaded-capabilities strip, find bar, messages,
// composer and status line.
func (c *Chat) Object() fyne.CanvasObject { return c.area }

// Current is the conversation shown (0: a new one not yet sent).
func (c *Chat) Current() store.ID { return c.cur.id }

// Open shows conversation id where it was left (at its end the first
// time).
func (c *Chat) Open(id store.ID) {
	if id == c.cur.id && id != 0 {
		return
	}
	c.leave()
	if tr := c.live[id]; tr != nil {
		c.show(tr, c.anchorOf(id))
		return
	}
	tr := newTranscript(id, c.owner)
	a := c.anchorOf(id)
	conv, err := c.core.History().GetConversation(id)
	var events []store.Event
	if err == nil {
		tr.stamp = stampOf(conv)
		events, err = c.core.History().PageBefore(id, 0, pageSize)
	}
	if err != nil {
		c.core.Logger().Warn("opening a conversation", "conversation", id.String(), "error", err)
		c.sidebar.reload()
		c.show(newTranscript(0, c.owner), anchor{end: true})
		return
	}
	complete := len(events) < pageSize
	// Load back to where the view was left.
	for !a.end && !complete && len(events) > 0 && events[0].Seq > a.seq {
		older, err := c.core.History().PageBefore(id, events[0].Seq, pageSize)
		if err != nil {
			break
		}
		complete = len(older) < pageSize
		events = append(older, events...)
	}
	c.readVersions(tr) // before the rows are made (versions.go)
	tr.load(events, complete)
	c.show(tr, a)
	if !complete && conv.EventCount <= c.openWhole {
		// The rest, read in the background and put in front keeping the
		// view, once the last page has painted: reading and decoding
		// thousands of events competes for the CPU with that first frame.
		c.restDue = true
		c.after(restAfter, func() {
			c.restDue = false
			if c.cur == tr {
				c.loadBack(0, func() {})
			}
		})
	}
}

// restAfter is how long after opening a long conversation the rest of it
// is read: a few frames, so the last page paints first.
const restAfter = 100 * time.Millisecond

func (c *Chat) anchorOf(id store.ID) anchor {
	if a, ok := c.anchors[id]; ok {
		return a
	}
	return anchor{end: true}
}

// leave remembers where the current conversation was scrolled to.
func (c *Chat) leave() {
	if c.cur.id != 0 {
		c.anchors[c.cur.id] = c.list.anchor()
	}
	c.editing = nil
	c.composer.endEdit()
	c.find.reset()
}

func (c *Chat) show(tr *transcript, a anchor) {
	c.cur = tr
	c.pendingRows = c.approvalRows()
	if len(c.pendingRows) > 0 {
		// The conversation waits for an answer: show the question, not
		// where the view was left.
		a = anchor{approval: true}
	}
	c.settling = true
	c.list.reset(a)
	c.settling = false
	c.sidebar.selectID(tr.id)
	c.refreshChrome()
	c.proposed.refresh()
}

// NewConversation shows an empty conversation; the first message sent
// creates it.
func (c *Chat) NewConversation() {
	c.leave()
	c.show(newTranscript(0, c.owner), anchor{end: true})
	c.FocusComposer()
}

// FocusComposer puts the keyboard focus in the composer.
func (c *Chat) FocusComposer() {
	if c.env.Window != nil {
		c.env.Window.Canvas().Focus(c.composer.entry)
	}
}

// ShowFind opens the find bar (Ctrl/Cmd+F).
func (c *Chat) ShowFind() {
	c.find.show()
}

// Stop ends the current conversation's running turn (Esc): the stream
// and the running tool are cancelled.
func (c *Chat) Stop() {
	if run := c.turns[c.cur]; run != nil {
		run.cancel()
	}
}

func (c *Chat) refreshChrome() {
	c.composer.setRunning(c.running(c.cur))
	c.strip.refresh()
	c.status.refresh()
	c.header.refresh()
}

// running reports whether a turn writes to tr now.
func (c *Chat) running(tr *transcript) bool { return c.turns[tr] != nil }

// rowCount and rowAt are the message list's rows: the transcript's,
// what its turn waits for (waitingline.go), then the pending approvals.
func (c *Chat) rowCount() int {
	n := len(c.cur.rows) + len(c.pendingRows)
	if c.waitingRow() != nil {
		n++
	}
	return n
}

func (c *Chat) rowAt(i int) *row {
	switch {
	case i < 0:
		return nil
	case i < len(c.cur.rows):
		return c.cur.rows[i]
	}
	i -= len(c.cur.rows)
	if w := c.waitingRow(); w != nil {
		if i == 0 {
			return w
		}
		i--
	}
	if i < len(c.pendingRows) {
		return c.pendingRows[i]
	}
	return nil
}

// isLast reports whether row i is the reply Regenerate replaces or the
// error Retry answers.
func (c *Chat) isLast(i int) bool {
	r := c.rowAt(i)
	if r == nil {
		return false
	}
	switch r.kind {
	case rowAssistant:
		return i == c.cur.lastAssistant()
	case rowError:
		return i == len(c.cur.rows)-1
	}
	return false
}

func (c *Chat) approvalRows() []*row {
	if c.cur.id == 0 {
		return nil
	}
	var out []*row
	for _, p := range c.approvals.For(c.cur.id.String()) {
		out = append(out, p.row)
	}
	return append(out, c.askRows()...)
}

// approvalsChanged shows conversation conv's approval cards as they are.
func (c *Chat) approvalsChanged(conv string) {
	c.sidebar.refresh()
	if c.cur.id == 0 || c.cur.id.String() != conv {
		return
	}
	asked := len(c.pendingRows)
	c.pendingRows = c.approvalRows()
	// The cards of calls asked about say so, or no longer do.
	from := len(c.cur.rows)
	for i := len(c.cur.rows) - 1; i >= 0 && i >= len(c.cur.rows)-32; i-- {
		if r := c.cur.rows[i]; r.kind == rowTool && !r.tool.done {
			r.version++
			from = i
		}
	}
	c.list.changed(from)
	if len(c.pendingRows) > asked {
		c.list.scrollToApproval() // a new question: the turn waits for it
	}
}

// nearTop loads the page before the first loaded event when the top
// rows come into view.
func (c *Chat) nearTop() {
	tr := c.cur
	if tr.complete || c.loadingOlder || c.settling || tr.id == 0 || len(tr.events) == 0 {
		return
	}
	c.loadBack(tr.oldest()-1, func() {})
}

// loadBack loads older pages of the current conversation in the
// background until the one holding seq (all of them for 0), puts them in front keeping the
// view where it is, and then calls done (on the UI goroutine). done is
// also called when someone else loaded pages meanwhile, so it can look
// again; it is not called when the conversation changed or reading
// failed.
func (c *Chat) loadBack(seq uint64, done func()) {
	tr := c.cur
	if tr.complete || tr.id == 0 || len(tr.events) == 0 || tr.oldest() <= seq {
		c.env.Do(done)
		return
	}
	c.loadingOlder = true
	id, before := tr.id, tr.oldest()
	c.env.Go(func() {
		var older []store.Event
		complete := false
		var err error
		for b := before; ; {
			if seq == 0 {
				// Everything before: one read.
				older, err = c.core.History().PageBefore(id, b, 0)
				complete = true
				break
			}
			var page []store.Event
			if page, err = c.core.History().PageBefore(id, b, pageSize); err != nil {
				break
			}
			older = append(page, older...)
			if len(page) < pageSize {
				complete = true
				break
			}
			if b = page[0].Seq; b <= seq {
				break
			}
		}
		c.env.Do(func() {
			c.loadingOlder = false
			if err != nil {
				c.core.Logger().Warn("loading older messages", "conversation", id.String(), "error", err)
				return
			}
			if tr != c.cur {
				return
			}
			if tr.oldest() == before {
				a := c.list.anchor()
				tr.prepend(older, complete)
				c.list.rebuild(a)
				c.find.rowsRebuilt()
				if seq == 0 && c.OnIdle != nil {
					c.OnIdle() // decoding thousands of events left garbage behind
				}
			}
			done()
		})
	})
}

// rowIndex is the index of the row k names, or -1 when it is not loaded.
func (c *Chat) rowIndex(k rowKey) int {
	for i := range c.rowCount() {
		if keyOf(c.rowAt(i)) == k {
			return i
		}
	}
	return -1
}

// conversationsChanged follows the core's news of conversations: the
// sidebar, and the conversation shown when something else changed it.
func (c *Chat) conversationsChanged(names []string) {
	c.sidebar.reload()
	if c.cur.id == 0 || c.running(c.cur) {
		return
	}
	for _, n := range names {
		if n != c.cur.id.String() {
			continue
		}
		conv, err := c.core.History().GetConversation(c.cur.id)
		if err != nil {
			// Deleted: show a new conversation instead.
			c.find.closeForDeleted()
			delete(c.anchors, c.cur.id)
			c.cur.id = 0
			c.NewConversation()
			return
		}
		if stampOf(conv).same(c.cur.stamp) {
			// Renamed, its loaded set or instructions changed: the
			// messages did not.
			c.strip.refresh()
			c.header.refresh()
			return
		}
		id := c.cur.id
		a := c.list.anchor()
		c.cur = newTranscript(0, c.owner) // force the reload
		c.anchors[id] = a
		c.Open(id)
		return
	}
}

// owner names the capability a tool belongs to.
func (c *Chat) owner(tool string) string {
	if cp, ok := c.core.Capabilities().Snapshot().Owner(tool); ok {
		return cp.Name
	}
	return ""
}

// copyRow puts a row's text on the clipboard: a reply as its Markdown.
func (c *Chat) copyRow(r *row) {
	if r == nil {
		return
	}
	c.env.Copy(r.plain())
}

// copiedFor is how long a Copy button shows a tick after copying.
const copiedFor = time.Second

// copyWithTick copies r and shows a tick on its Copy button for a moment,
// as a code block's Copy does.
func (c *Chat) copyWithTick(r *row, b *widget.Button) {
	c.copyRow(r)
	b.SetIcon(theme.ConfirmIcon())
	c.after(copiedFor, func() { b.SetIcon(theme.ContentCopyIcon()) })
}

// toggleResult expands or collapses a tool card's result.
func (c *Chat) toggleResult(r *row) {
	r.expanded = !r.expanded
	r.version++
	c.list.rowChanged(c.cur.index(r))
}

// answer answers a pending approval from its card.
func (c *Chat) answer(p *pending, a gate.Approval) {
	if c.approvals.Answer(p, a) {
		c.approvalsChanged(p.req.ConversationID)
	}
}

// beginEdit puts user message r in the composer to be edited and resent.
func (c *Chat) beginEdit(r *row) {
	if r == nil || r.kind != rowUser || c.running(c.cur) {
		return
	}
	c.editing = r
	c.composer.edit(r.text)
	c.FocusComposer()
}

// awaiting reports whether tool call id waits for the user's approval.
func (c *Chat) awaiting(id string) bool {
	for _, r := range c.pendingRows {
		if r.pending != nil && r.pending.req.ToolCallID == id {
			return true
		}
	}
	return false
}
