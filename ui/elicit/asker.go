package elicit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// Asker is the window's mcp.Asker: a server's question shows as a dialog
// over the window, and the server gets the person's answer. It is made
// before the window (the core that holds it opens first) and learns the
// window with SetWindow.
type Asker struct {
	// Do runs fn on the UI goroutine (fyne.Do).
	Do func(fn func())
	// Open opens a URL-mode question's page once the person agrees (the
	// browser sign-in uses: signin.OpenBrowser).
	Open func(ctx context.Context, url string) error
	// Logger notes what the person could not be asked.
	Logger *slog.Logger

	mu sync.Mutex
	w  fyne.Window
	// chats puts a question in the conversation that asked it.
	chats Conversations
	// shown, when set, is told of each dialog (tests drive it).
	shown func(*Dialog)
}

var _ mcp.Asker = (*Asker)(nil)

// SetWindow names the window questions show over; nil (the window
// closed) declines them.
func (a *Asker) SetWindow(w fyne.Window) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.w = w
}

// Conversations shows a question as a card in the chat, in the
// conversation whose tool call the server asks during (ui/chat).
type Conversations interface {
	// Ask shows q in conversation q.Conversation and waits for the
	// answer or for ctx. shown is false when that conversation is not in
	// the window (a scheduled task's, or one closed meanwhile): the
	// question is then asked in a dialog.
	Ask(ctx context.Context, q mcp.Question) (ans mcp.Answer, shown bool, err error)
	// ApproveSampling shows a server's request for a completion in
	// conversation req.Conversation and reports whether the person
	// allowed it; shown as for Ask.
	ApproveSampling(ctx context.Context, req mcp.SampleRequest) (ok, shown bool, err error)
}

// SetConversations names where questions of a conversation show (the
// chat); nil asks every question in a dialog.
func (a *Asker) SetConversations(c Conversations) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.chats = c
}

func (a *Asker) conversations() Conversations {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.chats
}

func (a *Asker) window() fyne.Window {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.w
}

// SigningIn notes a sign-in under way: the call that needs it shows as
// running in the chat, where Stop cancels it, and a server's page shows
// its own sign-in with Cancel (ui/settings).
func (a *Asker) SigningIn(server, _ string) {
	a.logger().Info("an MCP server's sign-in page opened in the browser", "server", server)
}

// Elicit shows q over the window and waits for the person, or for ctx:
// the server gave up or the call was stopped, and the dialog closes. It
// blocks, so it runs on the goroutine serving the server's request,
// never on the UI's.
func (a *Asker) Elicit(ctx context.Context, q mcp.Question) (mcp.Answer, error) {
	if c := a.conversations(); c != nil && q.Conversation != "" {
		ans, shown, err := c.Ask(ctx, q)
		if shown {
			if err == nil {
				a.opened(ctx, q, ans)
			}
			return ans, err
		}
	}
	w := a.window()
	if w == nil {
		a.logger().Info("an MCP server asked a question while no window was open; declined", "server", q.Server)
		return mcp.Answer{Action: mcp.ActionDecline}, nil
	}
	answer := make(chan mcp.Answer, 1)
	reply := func(ans mcp.Answer) {
		select {
		case answer <- ans:
		default: // answered already
		}
	}
	// d is touched on the UI goroutine only: Do runs its functions there
	// in order, so the Hide below finds it set.
	var d *Dialog
	a.Do(func() {
		// The window may be hidden in the tray: a question waits for the
		// person, so it comes forward.
		w.Show()
		w.RequestFocus()
		d = Show(w, q, reply)
		if a.shown != nil {
			a.shown(d)
		}
	})
	select {
	case ans := <-answer:
		a.opened(ctx, q, ans)
		return ans, nil
	case <-ctx.Done():
		a.Do(func() { d.Hide() })
		return mcp.Answer{Action: mcp.ActionCancel}, fmt.Errorf("MCP server %s's question: %w", q.Server, context.Cause(ctx))
	}
}

// opened opens a URL-mode question's page once the person accepted, as
// sign-in does.
func (a *Asker) opened(ctx context.Context, q mcp.Question, ans mcp.Answer) {
	if ans.Action != mcp.ActionAccept || q.URL == "" || a.Open == nil {
		return
	}
	if err := a.Open(ctx, q.URL); err != nil {
		// The card or dialog showed the address: the person can open it.
		a.logger().Warn("could not open the browser for an MCP server's page", "server", q.Server, "error", err)
	}
}

func (a *Asker) logger() *slog.Logger {
	if a.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Logger
}

// Dialog is a question shown over the window.
type Dialog struct {
	Form *Form
	d    *dialog.CustomDialog
	// Accept, Decline and Cancel are its buttons.
	Accept, Decline, Cancel *widget.Button
}

// Show shows q in a dialog over w; answer receives the person's choice
// once (Accept only with a form that passes). It runs on the UI
// goroutine.
func Show(w fyne.Window, q mcp.Question, answer func(mcp.Answer)) *Dialog {
	d := &Dialog{Form: NewForm(q)}
	// A long form scrolls inside a dialog that fits the window.
	body := d.Form.Object()
	scroll := container.NewVScroll(body)
	d.d = dialog.NewCustomWithoutButtons(fmt.Sprintf(askedBy, q.Server), scroll, w)
	done := func(ans mcp.Answer) {
		d.d.Hide()
		answer(ans)
	}
	accept := AcceptLabel
	if q.URL != "" {
		accept = OpenLabel
	}
	d.Accept = widget.NewButton(accept, func() {
		if q.URL != "" {
			done(mcp.Answer{Action: mcp.ActionAccept})
			return
		}
		if content, ok := d.Form.Answer(); ok {
			done(mcp.Answer{Action: mcp.ActionAccept, Content: content})
		}
	})
	d.Accept.Importance = widget.HighImportance
	d.Decline = widget.NewButton(DeclineLabel, func() { done(mcp.Answer{Action: mcp.ActionDecline}) })
	d.Cancel = widget.NewButton(CancelLabel, func() { done(mcp.Answer{Action: mcp.ActionCancel}) })
	d.d.SetButtons([]fyne.CanvasObject{d.Cancel, d.Decline, d.Accept})
	win := w.Canvas().Size()
	height := body.MinSize().Height + 4*theme.Padding()
	if most := win.Height*0.9 - 2*d.Accept.MinSize().Height - 4*theme.Padding(); height > most {
		height = most
	}
	scroll.SetMinSize(fyne.NewSize(min(640, win.Width*0.9), height))
	d.d.Show()
	return d
}

// Hide closes the dialog without an answer.
func (d *Dialog) Hide() { d.d.Hide() }
