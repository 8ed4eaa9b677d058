package ui

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
)

// runChat is the fake chat that also opens runs.
type runChat struct {
	fakeChat
	opened []store.ID
}

func (c *runChat) Open(id store.ID)        { c.opened = append(c.opened, id) }
func (c *runChat) Approver() gate.Approver { return nil }

func TestRunNotification(t *testing.T) {
	task := tasks.Task{Name: "Morning summary"}
	tests := []struct {
		outcome     tasks.Outcome
		text        string
		title, body string
		shown       bool
	}{
		{tasks.Done, "3 projects changed.", "“Morning summary” finished", "3 projects changed.", true},
		{tasks.Done, "", "“Morning summary” finished", "Finished with no answer.", true},
		{tasks.Failed, "the model could not answer", "“Morning summary” failed", "the model could not answer", true},
		{tasks.Waiting, "waiting for your approval: rm -f x", "“Morning summary” waits for your approval", "waiting for your approval: rm -f x", true},
		{tasks.Running, "", "", "", false},
		{tasks.Skipped, "", "", "", false},
	}
	for _, tc := range tests {
		t.Run(string(tc.outcome), func(t *testing.T) {
			title, body, ok := runNotification(assistant.RunNotice{Task: task, Run: tasks.Run{Outcome: tc.outcome}, Text: tc.text})
			if title != tc.title || body != tc.body || ok != tc.shown {
				t.Fatalf("got %q %q %v", title, body, ok)
			}
		})
	}
}

// A click on a run's notification shows the chat with the run's
// conversation.
func TestRunNotificationOpensConversation(t *testing.T) {
	h := newHarness(t, nil)
	c := &runChat{}
	h.shell.assemble(c, &fakeSettings{})
	var clicks []func()
	h.shell.env.Notify = func(title, body string, open func()) { clicks = append(clicks, open) }
	h.shell.ShowSettings()
	h.shell.notifyRun(assistant.RunNotice{Task: tasks.Task{Name: "x"}, Run: tasks.Run{Outcome: tasks.Done, Conversation: 7}, Text: "ok"})
	if len(clicks) != 1 || clicks[0] == nil {
		t.Fatalf("notifications %d, clickable %v", len(clicks), len(clicks) == 1 && clicks[0] != nil)
	}
	clicks[0]()
	if h.shell.Showing() || len(c.opened) != 1 || c.opened[0] != 7 {
		t.Fatalf("after the click: settings shown %v, opened %v", h.shell.Showing(), c.opened)
	}
}
