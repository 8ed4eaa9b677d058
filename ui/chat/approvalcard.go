package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// approvalCard asks about one call: it names the tool (and capability),
// shows the call and why it needs approval (the rules that matched), and
// offers Approve, Approve for this chat (saying what that would cover) and
// Deny. A call the gate asks about every time (what it runs is decided only
// when it runs) offers no Approve for this chat and says why.
type approvalCard struct {
	c       *Chat
	quiet   bool
	r       *row
	col     *column
	title   *widget.Label
	summary *wrapText
	args    *wrapText
	reasons *wrapText
	// scope says what Approve for this chat covers, or that this call
	// asks every time.
	scope *wrapText
	once  *widget.Button
	chat  *widget.Button
	deny  *widget.Button
}

func newApprovalCard(c *Chat) *approvalCard {
	a := &approvalCard{c: c}
	a.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	a.title.Importance = widget.WarningImportance
	icon := widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))
	a.summary = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNameForeground)
	a.args = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNamePlaceHolder)
	a.reasons = newWrapText("", fyne.TextStyle{}, theme.ColorNameForeground)
	a.scope = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNameForeground)
	answer := func(ans gate.Approval) func() { return func() { c.answer(a.r.pending, ans) } }
	a.once = widget.NewButtonWithIcon("Approve", theme.ConfirmIcon(), answer(gate.ApproveOnce))
	a.once.Importance = widget.HighImportance
	a.chat = widget.NewButton("Approve for this chat", answer(gate.ApproveConversation))
	a.deny = widget.NewButtonWithIcon("Deny", theme.CancelIcon(), answer(gate.Deny))
	a.deny.Importance = widget.DangerImportance
	buttons := container.NewHBox(a.once, a.chat, a.deny, layout.NewSpacer())
	a.col = newColumn(theme.ColorNameHeaderBackground, newHeaderRow(false, []fyne.CanvasObject{icon}, []*widget.Label{a.title}), a.summary, a.args, a.reasons, a.scope, buttons)
	return a
}

func (a *approvalCard) bind(r *row) {
	a.r = r
	req := r.pending.req
	title := "Approve " + req.Tool + "?"
	if req.Capability != "" {
		title = "Approve " + req.Tool + " (" + req.Capability + ")?"
	}
	setLabel(a.title, title, a.quiet)
	a.summary.setText(req.Summary, a.quiet)
	args := compactJSON(req.Args)
	a.args.setText(args, a.quiet)
	// The summary already shows short arguments in full.
	setVisible(a.args, args != "{}" && !strings.Contains(req.Summary, args))
	a.reasons.setText(reasonText(req), a.quiet)
	a.scope.setText(scopeText(req), a.quiet)
	setVisible(a.chat, !req.OnceOnly)
	if !a.quiet {
		a.col.Refresh()
	}
}

// reasonText says why the call needs approval.
func reasonText(req gate.Request) string {
	if len(req.Reasons) == 0 {
		return "Why: this call needs your approval."
	}
	return "Why: " + strings.Join(req.Reasons, "; ")
}

// scopeText says what Approve for this chat would allow from now on, or,
// for a call approvable only once, that it asks every time and why.
func scopeText(req gate.Request) string {
	if req.OnceOnly {
		return "Asks every time: what it runs is known only when it runs, " +
			"so it cannot be approved for this chat."
	}
	scope := req.Scope
	if scope == "" {
		scope = req.Tool
	}
	return "Approve for this chat also allows, for the rest of this chat: " + scope + "."
}

func (a *approvalCard) heightFor(width float32) float32 { return a.col.heightFor(width) }
