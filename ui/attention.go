package ui

import (
	"reflect"

	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/chat"
)

// attentionSource is what the shell needs of the chat for notifications
// (ui/chat/attention.go).
type attentionSource interface {
	SetOnAttention(fn func(chat.Attention))
}

// foregroundHooks is Fyne's lifecycle as its drivers implement it: the
// hooks can be read back, so a hook set by someone else is kept.
type foregroundHooks interface {
	OnEnteredForeground() func()
}

// attention raises a desktop notification for what the chat says the
// person should see (a call waiting for approval, a long reply that is
// ready, a failed turn) while the window is not focused. A click on the
// notification, where the desktop reports it (ui/notify), brings the
// window up at the conversation; where it cannot, the window shows that
// conversation the next time it gains the focus. The latest notification
// wins.
type attention struct {
	s  *Shell
	lc fyne.Lifecycle
	// away is set while the window does not have the focus.
	away bool
	// waiting is the conversation of the last notification not followed
	// yet (0: none).
	waiting store.ID
	// theirs is the entered-foreground hook another part of the window
	// set (the settings recheck their banner); Fyne keeps one hook.
	theirs func()
}

// watchAttention connects the chat's attention to notifications (Build
// calls it).
func (s *Shell) watchAttention() {
	src, ok := s.chat.(attentionSource)
	if !ok || s.env.App == nil || s.env.Notify == nil {
		return
	}
	at := &attention{s: s, lc: s.env.App.Lifecycle()}
	src.SetOnAttention(at.raise)
	at.lc.SetOnExitedForeground(at.exited)
	at.claimEntered()
}

// claimEntered makes entered the entered-foreground hook, keeping the one
// set meanwhile by someone else (the settings set theirs when first
// shown) to call after it. It runs each time the window loses the focus,
// which always comes before it gains it again.
func (at *attention) claimEntered() {
	if g, ok := at.lc.(foregroundHooks); ok {
		cur := g.OnEnteredForeground()
		// A method value's code pointer is the same for every receiver:
		// it tells ours from theirs.
		if cur != nil && reflect.ValueOf(cur).Pointer() != reflect.ValueOf(at.entered).Pointer() {
			at.theirs = cur
		}
	}
	at.lc.SetOnEnteredForeground(at.entered)
}

func (at *attention) exited() {
	at.away = true
	at.claimEntered()
}

func (at *attention) entered() {
	at.away = false
	if id := at.waiting; id != 0 {
		at.waiting = 0
		at.s.OpenConversation(id)
	}
	if at.theirs != nil {
		at.theirs()
	}
}

// raise notifies a while the window is not focused (UI goroutine).
func (at *attention) raise(a chat.Attention) {
	if !at.away {
		return // the person is looking at the window
	}
	at.waiting = a.Conversation
	id, do := a.Conversation, at.s.env.Do
	at.s.env.Notify(a.Title, a.Body, func() {
		do(func() {
			if at.waiting == id {
				at.waiting = 0
			}
			at.s.OpenConversation(id)
		})
	})
}
