package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/ui/elicit"
)

// rowAsk is an MCP server's question (elicitation) in the conversation
// whose tool call it asks during, after the transcript as approval cards
// are; never stored.
const rowAsk rowKind = rowMore + 1

// pendingAsk is one question waiting for the person's answer. Its fields
// are touched on the UI goroutine only.
type pendingAsk struct {
	q      mcp.Question
	answer chan mcp.Answer // buffered: answering never blocks the UI
	row    *row
	// form is built from the server's schema when the card first shows.
	form *elicit.Form
	done bool
	// sample marks a request for a completion (sampling): q.Message is
	// its prompt, and the card asks to let the model answer it.
	sample bool
}

var _ elicit.Conversations = (*Chat)(nil)

// Ask shows q as a card in conversation q.Conversation, when that
// conversation is in the window (on screen or with a turn running), and
// waits for the person's answer or for ctx (the server gave up, or the
// call was stopped), which withdraws the card. It blocks: servers ask
// from their own goroutines, never the UI's.
func (c *Chat) Ask(ctx context.Context, q mcp.Question) (mcp.Answer, bool, error) {
	return c.wait(ctx, &pendingAsk{q: q, answer: make(chan mcp.Answer, 1)})
}

// ApproveSampling shows a server's request for a completion as a card in
// conversation req.Conversation, with its whole prompt, and waits for
// Allow or Deny, as Ask does.
func (c *Chat) ApproveSampling(ctx context.Context, req mcp.SampleRequest) (ok, shown bool, err error) {
	q := mcp.Question{Server: req.Server, Conversation: req.Conversation, Tool: req.Tool, Message: elicit.SamplePrompt(req)}
	a, shown, err := c.wait(ctx, &pendingAsk{q: q, answer: make(chan mcp.Answer, 1), sample: true})
	return a.Action == mcp.ActionAccept, shown, err
}

// wait shows p and waits for its answer (Ask).
func (c *Chat) wait(ctx context.Context, p *pendingAsk) (mcp.Answer, bool, error) {
	q := p.q
	p.row = &row{kind: rowAsk, ask: p}
	placed := make(chan bool, 1)
	c.env.Do(func() { placed <- c.placeAsk(p) })
	withdraw := func() (mcp.Answer, bool, error) {
		c.env.Do(func() { c.answerAsk(p, mcp.Answer{Action: mcp.ActionCancel}) })
		return mcp.Answer{Action: mcp.ActionCancel}, true, fmt.Errorf("MCP server %s's question: %w", q.Server, context.Cause(ctx))
	}
	select {
	case ok := <-placed:
		if !ok {
			return mcp.Answer{}, false, nil
		}
	case <-ctx.Done():
		return withdraw()
	}
	select {
	case a := <-p.answer:
		return a, true, nil
	case <-ctx.Done():
		return withdraw()
	}
}

// placeAsk queues p in its conversation, reporting false when that
// conversation is not in the window.
func (c *Chat) placeAsk(p *pendingAsk) bool {
	conv := p.q.Conversation
	if c.transcriptOf(conv) == nil {
		return false
	}
	if c.asks == nil {
		c.asks = map[string][]*pendingAsk{}
	}
	c.asks[conv] = append(c.asks[conv], p)
	c.approvalsChanged(conv)
	return true
}

// answerAsk answers p once and takes its card away.
func (c *Chat) answerAsk(p *pendingAsk, a mcp.Answer) {
	if p.done {
		return
	}
	p.done = true
	conv := p.q.Conversation
	list := c.asks[conv]
	for i, q := range list {
		if q == p {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(c.asks, conv)
	} else {
		c.asks[conv] = list
	}
	p.answer <- a
	c.approvalsChanged(conv)
}

// withdrawAsks cancels conversation conv's questions: its turn ended
// (Stop, Esc), and a server that does not give up on its own (its
// question outlives the call it asked during) gets the answer cancel.
func (c *Chat) withdrawAsks(conv string) {
	for _, p := range slices.Clone(c.asks[conv]) {
		c.answerAsk(p, mcp.Answer{Action: mcp.ActionCancel})
	}
}

// askRows are the current conversation's question cards.
func (c *Chat) askRows() []*row {
	if c.cur.id == 0 {
		return nil
	}
	var out []*row
	for _, p := range c.asks[c.cur.id.String()] {
		out = append(out, p.row)
	}
	return out
}

// accept answers p with its form's content, or shows under the fields
// what to correct (the card grows).
func (c *Chat) accept(p *pendingAsk) {
	if p.q.URL != "" {
		c.answerAsk(p, mcp.Answer{Action: mcp.ActionAccept})
		return
	}
	content, ok := p.form.Answer()
	if !ok {
		p.row.version++
		c.list.changed(len(c.cur.rows))
		return
	}
	c.answerAsk(p, mcp.Answer{Action: mcp.ActionAccept, Content: content})
}

// askCard shows a server's question: who asks and during which call, its
// message, the form built from its schema (or, in URL mode, the page it
// asks the person to open), and Accept, Decline and Cancel.
type askCard struct {
	c     *Chat
	quiet bool
	r     *row
	col   *column
	title *widget.Label
	// during names the call the server asks during.
	during  *wrapText
	message *wrapText
	// url is a URL-mode question's page.
	url    *wrapText
	inputs *fyne.Container
	accept *widget.Button
	// decline says no to the question; cancel dismisses it unanswered.
	decline, cancel *widget.Button
}

func newAskCard(c *Chat) *askCard {
	a := &askCard{c: c}
	a.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	a.title.Importance = widget.WarningImportance
	icon := widget.NewIcon(theme.QuestionIcon())
	a.during = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNamePlaceHolder)
	a.message = newWrapText("", fyne.TextStyle{}, theme.ColorNameForeground)
	a.url = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNameForeground)
	a.inputs = container.NewStack()
	a.accept = widget.NewButtonWithIcon(elicit.AcceptLabel, theme.ConfirmIcon(), func() { c.accept(a.r.ask) })
	a.accept.Importance = widget.HighImportance
	a.decline = widget.NewButton(elicit.DeclineLabel, func() { c.answerAsk(a.r.ask, mcp.Answer{Action: mcp.ActionDecline}) })
	a.cancel = widget.NewButtonWithIcon(elicit.CancelLabel, theme.CancelIcon(), func() { c.answerAsk(a.r.ask, mcp.Answer{Action: mcp.ActionCancel}) })
	buttons := container.NewHBox(a.accept, a.decline, a.cancel, layout.NewSpacer())
	a.col = newColumn(theme.ColorNameHeaderBackground, newHeaderRow(false, []fyne.CanvasObject{icon}, []*widget.Label{a.title}), a.during, a.message, a.url, a.inputs, buttons)
	// The form's height is its own: entries, choices and the messages
	// under refused fields.
	a.col.measureWith(a.inputs, func(float32) float32 {
		if a.r == nil || a.r.ask.form == nil || a.r.ask.form.Inputs() == nil {
			return 0
		}
		return a.r.ask.form.Inputs().MinSize().Height
	})
	return a
}

func (a *askCard) bind(r *row) {
	a.r = r
	p := r.ask
	if p.form == nil {
		p.form = elicit.NewForm(p.q)
	}
	q := p.q
	title := q.Server + " asks"
	if p.sample {
		title = q.Server + " asks your model for a completion"
	}
	setLabel(a.title, gate.VisibleLine(title), a.quiet)
	a.during.setText(gate.VisibleLine("During its tool call "+q.Tool+"."), a.quiet)
	setVisible(a.during, q.Tool != "")
	// A prompt keeps its lines; each is shown with its control
	// characters as escapes.
	a.message.setText(visibleLines(q.Message), a.quiet)
	setVisible(a.message, q.Message != "")
	a.url.setText("It asks you to open this page in your browser:\n"+gate.VisibleLine(q.URL), a.quiet)
	setVisible(a.url, q.URL != "")
	in := p.form.Inputs()
	if len(q.Fields) == 0 {
		in = nil // a question to confirm, or a prompt: no fields to show
	}
	setVisible(a.inputs, in != nil)
	accept, decline := elicit.AcceptLabel, elicit.DeclineLabel
	switch {
	case q.URL != "":
		accept = elicit.OpenLabel
	case p.sample:
		accept, decline = elicit.AllowLabel, elicit.DenyLabel
	}
	setVisible(a.cancel, !p.sample)
	if a.quiet {
		a.accept.Text, a.decline.Text = accept, decline
		return
	}
	a.accept.SetText(accept)
	a.decline.SetText(decline)
	if in != nil && (len(a.inputs.Objects) != 1 || a.inputs.Objects[0] != in) {
		a.inputs.Objects = []fyne.CanvasObject{in}
	}
	a.inputs.Refresh()
	a.col.Refresh()
}

// visibleLines is s with each line's control characters shown as escapes.
func visibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = gate.VisibleLine(l)
	}
	return strings.Join(lines, "\n")
}
