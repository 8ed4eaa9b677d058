package elicit

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

var _ mcp.SamplingApprover = (*Asker)(nil)

// SampleTitle says who asks the model for a completion, and during which
// call.
func SampleTitle(req mcp.SampleRequest) string {
	if req.Tool != "" {
		return fmt.Sprintf("%s asks your model for a completion (during %s)", req.Server, req.Tool)
	}
	return req.Server + " asks your model for a completion"
}

// SamplePrompt is the whole prompt of a request for a completion as the
// person reads it before allowing it: the system prompt, then each
// message with its role, and the answer's length limit.
func SamplePrompt(req mcp.SampleRequest) string {
	var b strings.Builder
	if req.SystemPrompt != "" {
		fmt.Fprintf(&b, "[system] %s\n", req.SystemPrompt)
	}
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "[%s] %s\n", m.Role, m.Text)
	}
	if req.MaxTokens > 0 {
		fmt.Fprintf(&b, "(an answer of at most %d tokens)", req.MaxTokens)
	}
	return strings.TrimRight(b.String(), "\n")
}

// ApproveSampling shows a server's request for a completion: as a card in
// the conversation whose call asked, else in a dialog over the window,
// and reports whether the person allowed it. With no window it is
// declined.
func (a *Asker) ApproveSampling(ctx context.Context, req mcp.SampleRequest) (bool, error) {
	if c := a.conversations(); c != nil && req.Conversation != "" {
		if ok, shown, err := c.ApproveSampling(ctx, req); shown {
			return ok, err
		}
	}
	w := a.window()
	if w == nil {
		a.logger().Info("an MCP server asked for a completion while no window was open; declined", "server", req.Server)
		return false, nil
	}
	answer := make(chan bool, 1)
	var d dialog.Dialog
	a.Do(func() {
		w.Show()
		w.RequestFocus()
		prompt := widget.NewLabel(SamplePrompt(req))
		prompt.Wrapping = fyne.TextWrapWord
		prompt.Selectable = true
		scroll := container.NewVScroll(prompt)
		win := w.Canvas().Size()
		scroll.SetMinSize(fyne.NewSize(min(640, win.Width*0.9), min(prompt.MinSize().Height*4, win.Height*0.6)))
		cd := dialog.NewCustomConfirm(SampleTitle(req), AllowLabel, DenyLabel, scroll, func(ok bool) {
			select {
			case answer <- ok:
			default:
			}
		}, w)
		d = cd
		cd.Show()
	})
	select {
	case ok := <-answer:
		return ok, nil
	case <-ctx.Done():
		a.Do(func() { d.Hide() })
		return false, fmt.Errorf("MCP server %s's request for a completion: %w", req.Server, context.Cause(ctx))
	}
}
