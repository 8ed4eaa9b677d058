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
// shows the call, the full URL of every host it would reach that the chat
// has not used, and why it needs approval (the rules that matched), and
// offers Approve, Approve for this chat (saying exactly what that covers:
// this exact command, the same path, the host) and Deny. A request about
// hosts alone asks to allow them ("Allow this host for the chat"). A call
// the gate asks about every time offers no approval for this chat and says
// why.
type approvalCard struct {
	c       *Chat
	quiet   bool
	r       *row
	col     *column
	title   *widget.Label
	summary *wrapText
	args    *wrapText
	reasons *wrapText
	// hosts are the full URLs of the hosts the call would reach that the
	// chat has not used.
	hosts *wrapText
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
	a.hosts = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNameForeground)
	a.scope = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNameForeground)
	answer := func(ans gate.Approval) func() { return func() { c.answer(a.r.pending, ans) } }
	a.once = widget.NewButtonWithIcon("Approve", theme.ConfirmIcon(), answer(gate.ApproveOnce))
	a.once.Importance = widget.HighImportance
	a.chat = widget.NewButton("Approve for this chat", answer(gate.ApproveConversation))
	a.deny = widget.NewButtonWithIcon("Deny", theme.CancelIcon(), answer(gate.Deny))
	a.deny.Importance = widget.DangerImportance
	buttons := container.NewHBox(a.once, a.chat, a.deny, layout.NewSpacer())
	a.col = newColumn(theme.ColorNameHeaderBackground, newHeaderRow(false, []fyne.CanvasObject{icon}, []*widget.Label{a.title}), a.summary, a.args, a.hosts, a.reasons, a.scope, buttons)
	return a
}

func (a *approvalCard) bind(r *row) {
	a.r = r
	req := r.pending.req
	// Everything the card shows is the call's own text, which may hold
	// what a label hides or reorders (a \r, an escape sequence, a bidi
	// override): gate.Visible shows it as escapes.
	setLabel(a.title, gate.VisibleLine(titleText(req)), a.quiet)
	summary := gate.VisibleLine(req.Summary)
	a.summary.setText(summary, a.quiet)
	args := gate.VisibleLine(compactJSON(req.Args))
	a.args.setText(args, a.quiet)
	// The summary already shows short arguments in full, and a request
	// about hosts alone shows the URLs below.
	setVisible(a.args, args != "{}" && !strings.Contains(summary, args) && !req.HostsOnly)
	a.hosts.setText(hostsText(req), a.quiet)
	setVisible(a.hosts, len(req.Hosts) > 0)
	a.reasons.setText(gate.VisibleLine(reasonText(req)), a.quiet)
	a.scope.setText(gate.VisibleLine(scopeText(req)), a.quiet)
	once, chat := buttonTexts(req)
	if !a.quiet {
		a.once.SetText(once)
		a.chat.SetText(chat)
	} else {
		a.once.Text, a.chat.Text = once, chat
	}
	setVisible(a.chat, req.ChatCovers() != "")
	if !a.quiet {
		a.col.Refresh()
	}
}

// titleText names the tool and, for a request about hosts alone, the
// hosts it would reach.
func titleText(req gate.Request) string {
	tool := req.Tool
	if req.Capability != "" {
		tool += " (" + req.Capability + ")"
	}
	if req.HostsOnly {
		names := make([]string, 0, len(req.Hosts))
		for _, h := range req.Hosts {
			names = append(names, h.Name)
		}
		return "Allow " + tool + " to reach " + strings.Join(names, ", ") + "?"
	}
	return "Approve " + tool + "?"
}

// hostsText shows each new host with the full URL, query and all: what
// would leave the computer.
func hostsText(req gate.Request) string {
	lines := make([]string, 0, len(req.Hosts))
	for _, h := range req.Hosts {
		lines = append(lines, "→ "+gate.VisibleLine(h.URL))
	}
	return strings.Join(lines, "\n")
}

// buttonTexts are the labels of the two approving buttons: a request
// about hosts alone allows them.
func buttonTexts(req gate.Request) (once, chat string) {
	if !req.HostsOnly {
		return "Approve", "Approve for this chat"
	}
	if len(req.Hosts) > 1 {
		return "Allow once", "Allow these hosts for the chat"
	}
	return "Allow once", "Allow this host for the chat"
}

// reasonText says why the call needs approval.
func reasonText(req gate.Request) string {
	if len(req.Reasons) == 0 {
		return "Why: this call needs your approval."
	}
	return "Why: " + strings.Join(req.Reasons, "; ")
}

// scopeText says exactly what approving for this chat would allow from
// now on, or, for a call approvable only once, that it asks every time.
func scopeText(req gate.Request) string {
	covers := req.ChatCovers()
	if covers == "" {
		return "Asks every time: approving it for this chat would cover more than you see here, so it can only be approved once."
	}
	if req.HostsOnly {
		return "Allowing for the chat covers " + covers + "."
	}
	return "Approve for this chat covers " + covers + "."
}
