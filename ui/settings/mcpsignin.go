package settings

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// The sign-in box's words.
const (
	signInLabel     = "Sign in"
	signOutLabel    = "Sign out"
	signInCancel    = "Cancel"
	signedInText    = "Signed in. The tokens are kept as a secret bound to this server's address, and refreshed before they expire."
	signedOutText   = "Not signed in. A server that needs sign-in (most hosted ones do) asks for it on its first use; Sign in does it now, in your browser."
	signInWaitText  = "Waiting for sign-in in your browser…"
	signInCancelled = "Sign-in cancelled."
)

// signInTimeout bounds a sign-in started here: the browser wait has its
// own (signin.BrowserWait); this is for a server that never answers.
const signInTimeout = signin.BrowserWait + time.Minute

// signInBox is the sign-in of a server reached by URL, on its page:
// "Sign in" runs the browser sign-in (the loopback flow of a connection
// that lists the tools) and shows it waiting with Cancel; a signed-in
// server shows "Sign out", which forgets its tokens.
type signInBox struct {
	env     *bridge.Env
	outcome *problemLine
	// after is told that a sign-in or sign-out ended (the page reads the
	// server's state again).
	after func()

	heading *widget.Label
	state   *widget.Label
	signIn  *escButton
	signOut *escButton
	cancel  *escButton
	obj     *fyne.Container

	name string
	// signing is the server whose sign-in runs, with its cancel; touched
	// on the UI goroutine only.
	signing string
	stop    context.CancelFunc
}

func newSignInBox(env *bridge.Env, outcome *problemLine, after func()) *signInBox {
	b := &signInBox{env: env, outcome: outcome, after: after}
	b.heading = widget.NewLabelWithStyle("Sign-in", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.state = widget.NewLabel("")
	b.state.Wrapping = fyne.TextWrapWord
	b.signIn = newButtonWithIcon(signInLabel, theme.LoginIcon(), b.SignIn)
	b.signIn.Importance = widget.HighImportance
	b.signOut = newButtonWithIcon(signOutLabel, theme.LogoutIcon(), b.SignOut)
	b.cancel = newButtonWithIcon(signInCancel, theme.CancelIcon(), b.Cancel)
	b.obj = container.NewVBox(widget.NewSeparator(), b.heading, b.state, container.NewHBox(b.signIn, b.signOut, b.cancel))
	b.obj.Hide()
	return b
}

// Object is the box.
func (b *signInBox) Object() fyne.CanvasObject { return b.obj }

// Show shows c's sign-in, or hides the box for a server Wrasse runs
// (those have no sign-in).
func (b *signInBox) Show(c *cerebellum.Capability) {
	if c == nil || c.Manifest == nil || c.Manifest.MCP == nil || c.Manifest.MCP.URL == "" {
		b.name = ""
		b.obj.Hide()
		return
	}
	b.name = c.Name
	b.obj.Show()
	switch {
	case b.signing == c.Name:
		b.state.Importance = widget.MediumImportance
		b.state.SetText(signInWaitText)
		b.signIn.Hide()
		b.signOut.Hide()
		b.cancel.Show()
	case b.env.Core.HasSecret(signin.SecretName(c.Name)):
		b.state.Importance = widget.SuccessImportance
		b.state.SetText(signedInText)
		b.signIn.Hide()
		b.signOut.Show()
		b.cancel.Hide()
	default:
		b.state.Importance = widget.MediumImportance
		b.state.SetText(signedOutText)
		b.signIn.Show()
		b.signOut.Hide()
		b.cancel.Hide()
	}
	// Another server's sign-in runs: one browser sign-in at a time.
	if b.signing != "" && b.signing != c.Name {
		b.signIn.Disable()
	} else {
		b.signIn.Enable()
	}
	b.state.Refresh()
	b.obj.Refresh()
}

// State is what the box says ("" when hidden).
func (b *signInBox) State() string {
	if !b.obj.Visible() {
		return ""
	}
	return b.state.Text
}

// SignIn connects to the shown server, which sends the person to the
// browser when it asks for sign-in, and waits; Cancel ends the wait.
func (b *signInBox) SignIn() {
	name := b.name
	if name == "" || b.signing != "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), signInTimeout)
	b.signing, b.stop = name, cancel
	b.outcome.Clear()
	b.refresh()
	core := b.env.Core
	b.env.Go(func() {
		defer cancel()
		_, err := core.TestMCP(ctx, name)
		cancelled := ctx.Err() == context.Canceled
		signedIn := core.HasSecret(signin.SecretName(name))
		b.env.Do(func() {
			b.signing, b.stop = "", nil
			switch {
			case cancelled:
				b.outcome.Info(signInCancelled)
			case err != nil:
				b.outcome.Error(fmt.Errorf("sign-in to %s did not finish: %w", name, err))
			case signedIn:
				b.outcome.OK("Signed in to " + name + ".")
			default:
				b.outcome.OK(name + " connected without asking for sign-in.")
			}
			b.done()
		})
	})
}

// Cancel ends the sign-in under way (its connection and the wait for the
// browser).
func (b *signInBox) Cancel() {
	if b.stop != nil {
		b.stop()
	}
}

// SignOut forgets the shown server's tokens and ends its session; its
// next use asks to sign in again.
func (b *signInBox) SignOut() {
	name := b.name
	core := b.env.Core
	b.env.Go(func() {
		forgot, err := core.SignOutMCP(name)
		b.env.Do(func() {
			switch {
			case err != nil:
				b.outcome.Error(err)
			case !forgot:
				b.outcome.Info(name + " was not signed in.")
			default:
				b.outcome.OK("Signed out of " + name + ". Its next use asks you to sign in again.")
			}
			b.done()
		})
	})
}

// refresh shows the box's server again.
func (b *signInBox) refresh() {
	if c, err := b.env.Core.Capabilities().Get(b.name); err == nil {
		b.Show(c)
	}
}

func (b *signInBox) done() {
	b.refresh()
	if b.after != nil {
		b.after()
	}
}
