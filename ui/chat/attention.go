package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
)

// slowReply is how long a turn runs before its reply is worth a
// notification when it ends: a person who looked away meanwhile.
const slowReply = 5 * time.Second

// AttentionKind says why a conversation wants the person.
type AttentionKind int

const (
	// AttentionApproval: a call waits for the person's answer.
	AttentionApproval AttentionKind = iota
	// AttentionReply: a reply that took a while is there.
	AttentionReply
	// AttentionFailed: a turn failed.
	AttentionFailed
)

// Attention is something in a conversation the person should see: the
// window raises a desktop notification for it while it is not focused
// (ui/attention.go).
type Attention struct {
	Kind         AttentionKind
	Conversation store.ID
	Title, Body  string
}

// SetOnAttention makes fn hear of every Attention, on the UI goroutine.
func (c *Chat) SetOnAttention(fn func(Attention)) { c.onAttention = fn }

func (c *Chat) attention(a Attention) {
	if c.onAttention != nil && a.Conversation != 0 {
		c.onAttention(a)
	}
}

// asked is told of every new approval request (UI goroutine); it asks
// for attention to those of the chat's own turns.
func (c *Chat) asked(req gate.Request) {
	id, err := store.ParseID(req.ConversationID)
	// A scheduled run's request is not a turn of this chat: the run's
	// own notification says it waits (ui/tasks.go).
	if err != nil || c.live[id] == nil {
		return
	}
	c.attention(Attention{Kind: AttentionApproval, Conversation: id,
		Title: strings.TrimSpace("Wrasse waits for your approval " + c.titleOf(id)), Body: gate.VisibleLine(titleText(req))})
}

// turnAttention is what a turn that ended asks of the person, if anything:
// a failure (a stop the person made is none), or a reply that took at
// least slowReply.
func (c *Chat) turnAttention(run *turnRun, id store.ID, err error) {
	switch {
	case err != nil && (errors.Is(err, agent.ErrInterrupted) || errors.Is(err, context.Canceled)):
	case err != nil:
		c.attention(Attention{Kind: AttentionFailed, Conversation: id,
			Title: strings.TrimSpace("A reply failed " + c.titleOf(id)), Body: firstLine(err.Error())})
	case c.now().Sub(run.started) >= slowReply:
		c.attention(Attention{Kind: AttentionReply, Conversation: id,
			Title: strings.TrimSpace("The reply is ready " + c.titleOf(id)), Body: c.lastReply(run.tr)})
	}
}

// titleOf names conversation id in quotes for a notification ("" when it
// has no title yet).
func (c *Chat) titleOf(id store.ID) string {
	if t := c.sidebar.titleOfID(id); t != "" {
		return "in “" + t + "”"
	}
	return ""
}

// lastReply is the first line of tr's last reply.
func (c *Chat) lastReply(tr *transcript) string {
	if i := tr.lastAssistant(); i >= 0 {
		return firstLine(tr.rows[i].text)
	}
	return ""
}

// firstLine is s's first non-blank line, cut to a notification's length.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 160 {
				return string(r[:159]) + "…"
			}
			return l
		}
	}
	return ""
}
