package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/chat"
)

// attentiveChat is a fake chat that says what the person should see and
// records the conversations opened.
type attentiveChat struct {
	fakeChat
	tell   func(chat.Attention)
	opened []store.ID
}

func (f *attentiveChat) SetOnAttention(fn func(chat.Attention)) { f.tell = fn }
func (f *attentiveChat) Open(id store.ID)                       { f.opened = append(f.opened, id) }
func (f *attentiveChat) Approver() gate.Approver                { return gate.DenyAll{} }

type notice struct {
	title, body string
	open        func()
}

// lifecycleHooks reads the test app's lifecycle hooks, as the driver
// calls them when the window loses or gains the focus.
type lifecycleHooks interface {
	OnEnteredForeground() func()
	OnExitedForeground() func()
}

// While the window has the focus nothing is notified; once it lost it, a
// waiting approval (or a long reply, a failure) raises a notification,
// whose click opens its conversation; without a click, the window shows
// that conversation when it next gains the focus. A hook the settings set
// meanwhile still runs.
func TestNotificationsWhileUnfocused(t *testing.T) {
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	var sent []notice
	env := &bridge.Env{App: a, Window: w, Do: func(f func()) { f() }, Go: func(f func()) { f() },
		Notify: func(title, body string, open func()) { sent = append(sent, notice{title, body, open}) }}
	c := &attentiveChat{}
	s := &Shell{env: env}
	s.assemble(c, &fakeSettings{page: hint.PageModel})
	s.watchAttention()
	lc := a.Lifecycle()
	hooks := lc.(lifecycleHooks)

	approval := chat.Attention{Kind: chat.AttentionApproval, Conversation: 7, Title: "Wrasse waits for your approval", Body: "Approve shell_exec (shell)?"}
	c.tell(approval)
	if len(sent) != 0 {
		t.Fatalf("notified while the window has the focus: %+v", sent)
	}

	hooks.OnExitedForeground()()
	// The settings, built meanwhile, set their own hook.
	settingsRechecked := 0
	lc.SetOnEnteredForeground(func() { settingsRechecked++ })
	c.tell(approval)
	if len(sent) != 1 || sent[0].title != approval.Title || sent[0].body != approval.Body {
		t.Fatalf("notifications %+v, want the approval's", sent)
	}
	sent[0].open()
	if !slices.Equal(c.opened, []store.ID{7}) {
		t.Fatalf("the click opened %v, want conversation 7", c.opened)
	}

	// No click (Linux without the desktop's server): the next focus shows
	// the conversation of the last notification.
	hooks.OnExitedForeground()()
	c.tell(chat.Attention{Kind: chat.AttentionFailed, Conversation: 9, Title: "A reply failed"})
	hooks.OnEnteredForeground()()
	if !slices.Equal(c.opened, []store.ID{7, 9}) {
		t.Errorf("focus again opened %v, want 7 then 9", c.opened)
	}
	if settingsRechecked != 1 {
		t.Errorf("the settings' hook ran %d times, want once", settingsRechecked)
	}
	hooks.OnEnteredForeground()()
	if len(c.opened) != 2 {
		t.Errorf("a later focus opened %v again", c.opened)
	}
}
