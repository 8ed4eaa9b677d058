package ui

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
)

// runOpener is what the shell needs of the chat for scheduled runs: the
// window's approval cards, and showing a run's conversation.
type runOpener interface {
	Open(id store.ID)
	Approver() gate.Approver
}

// StartTasks runs the scheduled tasks while the window (or its tray
// icon) lives, until ctx ends: the core's scheduler with the chat's
// approval cards answering the runs that wait, env.OpenConversation
// showing a run in the chat, and a desktop notification for each run that
// finished, failed or waits, whose click opens the run's conversation.
func (s *Shell) StartTasks(ctx context.Context) error {
	var approver gate.Approver
	if c, ok := s.chat.(runOpener); ok {
		approver = c.Approver()
	}
	s.env.OpenConversation = s.OpenConversation
	stop := s.env.Core.Subscribe(func(e assistant.Event) {
		if e.Kind == assistant.EventTaskRun && e.Run != nil {
			s.notifyRun(*e.Run)
		}
	})
	context.AfterFunc(ctx, stop)
	if err := s.env.Core.StartTasks(ctx, assistant.TaskHost{Approver: approver}); err != nil {
		stop()
		return fmt.Errorf("start the scheduled tasks: %w", err)
	}
	return nil
}

// OpenConversation brings the window up with conversation id in the chat.
// Call it on the UI goroutine.
func (s *Shell) OpenConversation(id store.ID) {
	if w := s.env.Window; w != nil {
		w.Show()
		w.RequestFocus()
	}
	s.ShowChat()
	if c, ok := s.chat.(runOpener); ok {
		c.Open(id)
	}
}

// runNotification is what the notification of a run says.
func runNotification(n assistant.RunNotice) (title, body string, ok bool) {
	name := n.Task.Name
	switch n.Run.Outcome {
	case tasks.Done:
		body = n.Text
		if body == "" {
			body = "Finished with no answer."
		}
		return fmt.Sprintf("“%s” finished", name), body, true
	case tasks.Failed:
		return fmt.Sprintf("“%s” failed", name), n.Text, true
	case tasks.Waiting:
		return fmt.Sprintf("“%s” waits for your approval", name), n.Text, true
	}
	return "", "", false
}

// notifyRun raises the notification of a run (any goroutine).
func (s *Shell) notifyRun(n assistant.RunNotice) {
	title, body, ok := runNotification(n)
	if !ok || s.env.Notify == nil {
		return
	}
	var open func()
	if id := n.Conversation(); id != 0 {
		open = func() { s.env.Do(func() { s.OpenConversation(id) }) }
	}
	s.env.Notify(title, body, open)
}
