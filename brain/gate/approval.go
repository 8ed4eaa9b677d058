package gate

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"
)

// Approval is the user's answer to a confirmation request.
type Approval string

const (
	// ApproveOnce runs this call only.
	ApproveOnce Approval = "approve_once"
	// ApproveConversation runs this call and, for the rest of the
	// conversation, calls of the same scope matching the same patterns
	// (see Grants), and lets the conversation reach the request's hosts.
	ApproveConversation Approval = "approve_conversation"
	// Deny refuses the call; the model is told.
	Deny Approval = "deny"
)

// Approves reports whether a runs the call. Anything but the two approvals
// (including an unknown value) denies: fail closed.
func (a Approval) Approves() bool { return a == ApproveOnce || a == ApproveConversation }

// Request asks the user about one call.
type Request struct {
	ConversationID string `json:"conversationId"`
	ToolCallID     string `json:"toolCallId"`
	Tool           string `json:"tool"`
	Capability     string `json:"capability,omitempty"`
	// Args are the call's arguments with secrets redacted.
	Args json.RawMessage `json:"args"`
	// Reasons say why approval is needed.
	Reasons []string `json:"reasons"`
	// Summary is a one-line description of the call for a prompt or card.
	Summary string `json:"summary"`
	// Scope is what "approve for this conversation" would cover
	// (Verdict.Scope, e.g. "shell_exec running git status"); a card shows
	// it beside that choice.
	Scope string `json:"scope,omitempty"`
	// OnceOnly is true when the call can only be approved once
	// (Verdict.AlwaysAsk): a card offers no "for this conversation".
	OnceOnly bool `json:"onceOnly,omitempty"`
	// Hosts are the network hosts the call would reach that the
	// conversation has not used, each with its full URL and query, which
	// the person must see before anything leaves. Approving for the
	// conversation also lets it reach them from then on.
	Hosts []Host `json:"hosts,omitempty"`
	// HostsOnly is true when only the hosts need approval (the call
	// itself would run without asking, or a plugin reaches a host in the
	// middle of a call): a card asks to allow the host, not the call.
	HostsOnly bool `json:"hostsOnly,omitempty"`
}

// ChatCovers says in words what "approve for this conversation" covers
// ("this exact command", "the host example.com for this chat", …), or ""
// when the request can only be approved once.
func (r Request) ChatCovers() string {
	if r.OnceOnly {
		return ""
	}
	var hosts []string
	for _, h := range r.Hosts {
		hosts = append(hosts, h.Name)
	}
	var hostPart string
	switch len(hosts) {
	case 0:
	case 1:
		hostPart = "the host " + hosts[0] + " for the rest of this chat"
	default:
		hostPart = "the hosts " + strings.Join(hosts, ", ") + " for the rest of this chat"
	}
	if r.HostsOnly {
		return hostPart
	}
	scope := r.Scope
	if scope == "" {
		scope = "every call of " + r.Tool
	}
	if hostPart != "" {
		return scope + ", and " + hostPart
	}
	return scope
}

// NewRequest is the Request for a Confirm verdict of a call, with its
// reasons, approval scope and one-line summary; the caller sets the
// conversation, the tool call id and redacts Args and Summary.
func NewRequest(v Verdict, args json.RawMessage) Request {
	return Request{Tool: v.tool, Capability: v.Capability, Args: args, Reasons: v.Reasons,
		Summary: Summarize(v.tool, args), Scope: v.Scope, OnceOnly: v.AlwaysAsk}
}

// Approver asks the user. Implementations must return promptly when ctx
// ends. An error denies the call.
type Approver interface {
	Approve(ctx context.Context, req Request) (Approval, error)
}

// ApproverFunc adapts a function to an Approver.
type ApproverFunc func(ctx context.Context, req Request) (Approval, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req Request) (Approval, error) { return f(ctx, req) }

// DenyAll is the Approver when no one can be asked: every request is
// denied with ErrNoApprover.
type DenyAll struct{}

// Approve denies.
func (DenyAll) Approve(context.Context, Request) (Approval, error) { return Deny, ErrNoApprover }

// SummaryLimit bounds Summarize's output, in characters.
const SummaryLimit = 200

// Summarize describes a call on one line: the tool and its arguments as
// `key=value`, string values unquoted, a line break shown as ⏎, other
// control characters and invisible format characters as escapes (see
// Visible: a \r does not hide what comes before it), whitespace
// collapsed, cut to SummaryLimit characters. A "command" argument comes
// first, since it is what a user most needs to see. It is a summary: a
// person approving a call sees the call in full too.
func Summarize(tool string, args json.RawMessage) string {
	var obj map[string]json.RawMessage
	var body string
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		body = string(args)
	} else {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if (keys[i] == "command") != (keys[j] == "command") {
				return keys[i] == "command"
			}
			return keys[i] < keys[j]
		})
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			var s string
			if json.Unmarshal(obj[k], &s) != nil {
				c, err := CanonicalJSON(obj[k])
				if err != nil {
					c = obj[k]
				}
				s = string(c)
			}
			parts = append(parts, k+"="+s)
		}
		body = strings.Join(parts, " ")
	}
	body = strings.ReplaceAll(Visible(body), "\n", " ⏎ ")
	out := strings.Join(strings.Fields(VisibleLine(tool)+" "+body), " ")
	if utf8.RuneCountInString(out) > SummaryLimit {
		out = string([]rune(out)[:SummaryLimit-1]) + "…"
	}
	return out
}
