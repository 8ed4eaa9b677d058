package tasks

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ID identifies a task; it prints as "t3".
type ID uint64

// String is the short form, e.g. "t3".
func (id ID) String() string { return fmt.Sprintf("t%d", uint64(id)) }

// Approvals says what a run does with a call that needs the person's
// approval.
type Approvals string

const (
	// Wait stops the run at the first such call; the conversation waits
	// with the approval card until the person answers (the default).
	Wait Approvals = "wait"
	// Deny refuses such calls, as a headless turn does, and the run goes
	// on without them.
	Deny Approvals = "deny"
)

// Limits of a task's text.
const (
	MaxNameLength   = 80
	MaxPromptLength = 20000
)

// Task is one scheduled task.
type Task struct {
	ID     ID     `json:"id"`
	Name   string `json:"name"`
	Prompt string `json:"prompt"`
	// Schedule says when it runs.
	Schedule Schedule `json:"schedule"`
	// Model is the model its runs use; "" is the one configured when a
	// run starts.
	Model string `json:"model,omitempty"`
	// Capabilities are the capabilities its runs may use; nil means every
	// enabled one.
	Capabilities []string `json:"capabilities,omitempty"`
	// Approvals is what happens to a call that needs approval ("" is
	// Wait).
	Approvals Approvals `json:"approvals,omitempty"`
	// Enabled: the task runs on its schedule. Run now works either way.
	Enabled bool      `json:"enabled"`
	Created time.Time `json:"created"`
	// Handled is the last due time that was run or skipped: the scheduler
	// starts counting from it, so a restart neither repeats a run nor
	// loses one it missed.
	Handled time.Time `json:"handled,omitzero"`
}

// OnApproval is t.Approvals with the default filled in.
func (t Task) OnApproval() Approvals {
	if t.Approvals == Deny {
		return Deny
	}
	return Wait
}

// Check refuses a task whose name, prompt or options are not acceptable;
// every problem is named. The schedule's firing, the model and the
// capabilities are checked by the caller, which knows what exists.
func (t Task) Check() error {
	var probs []string
	name := strings.TrimSpace(t.Name)
	switch {
	case name == "":
		probs = append(probs, "it needs a name")
	case utf8.RuneCountInString(name) > MaxNameLength:
		probs = append(probs, fmt.Sprintf("its name is longer than %d characters", MaxNameLength))
	case strings.ContainsFunc(name, unicode.IsControl):
		probs = append(probs, "its name has control characters (a name is one line)")
	}
	switch {
	case strings.TrimSpace(t.Prompt) == "":
		probs = append(probs, "it needs a prompt: what the assistant should do each time")
	case utf8.RuneCountInString(t.Prompt) > MaxPromptLength:
		probs = append(probs, fmt.Sprintf("its prompt is longer than %d characters", MaxPromptLength))
	}
	if t.Schedule.Kind == "" {
		probs = append(probs, "it needs a schedule")
	}
	if t.Approvals != "" && t.Approvals != Wait && t.Approvals != Deny {
		probs = append(probs, fmt.Sprintf("approvals must be %q or %q, not %q", Wait, Deny, t.Approvals))
	}
	if len(probs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidTask, strings.Join(probs, "; "))
	}
	return nil
}

// Outcome is how a run ended (or that it still goes on).
type Outcome string

// The outcomes of a run.
const (
	Running Outcome = "running"
	Done    Outcome = "done"
	Failed  Outcome = "failed"
	// Waiting: the run stopped at a call that needs approval and waits
	// for the person.
	Waiting Outcome = "waiting"
	Skipped Outcome = "skipped"
)

// Trigger says why a run started.
type Trigger string

// The triggers of a run.
const (
	// OnTime: its schedule came due while Wrasse was running.
	OnTime Trigger = "schedule"
	// Late: it was missed (Wrasse closed, the computer asleep) and runs
	// late under the missed-run rule.
	Late Trigger = "late"
	// Manual: the person asked for it (Run now).
	Manual Trigger = "manual"
)

// Run is one run of a task, or a record that due times were skipped.
type Run struct {
	Task ID     `json:"task"`
	Seq  uint64 `json:"seq"`
	// Due is the time it was scheduled for (zero for Run now).
	Due     time.Time `json:"due,omitzero"`
	Trigger Trigger   `json:"trigger,omitempty"`
	Started time.Time `json:"started,omitzero"`
	// Finished is when it ended (zero while it runs or waits).
	Finished time.Time `json:"finished,omitzero"`
	Outcome  Outcome   `json:"outcome"`
	// Error is why it failed; Note says what else a person should know
	// (why it was skipped, that it ran late).
	Error string `json:"error,omitempty"`
	Note  string `json:"note,omitempty"`
	// Conversation is the run's conversation (its store id), 0 for none.
	Conversation uint64 `json:"conversation,omitempty"`
	// Token use of every request of the run.
	InputTokens  int `json:"inputTokens,omitempty"`
	OutputTokens int `json:"outputTokens,omitempty"`
}

// ProposalState is where a proposal stands.
type ProposalState string

// The states of a proposal.
const (
	Proposed  ProposalState = "proposed"
	Accepted  ProposalState = "accepted"
	Dismissed ProposalState = "dismissed"
)

// Proposal is a task the model proposed with task_propose; it becomes a
// task only when the person accepts it.
type Proposal struct {
	ID uint64 `json:"id"`
	// Conversation and ToolCall are where it was proposed.
	Conversation uint64 `json:"conversation"`
	ToolCall     string `json:"toolCall,omitempty"`
	Name         string `json:"name"`
	Prompt       string `json:"prompt"`
	// Schedule is the schedule as the model wrote it (checked when it was
	// proposed, read again on accepting).
	Schedule string        `json:"schedule"`
	State    ProposalState `json:"state"`
	// Task is the task accepting it created.
	Task    ID        `json:"task,omitempty"`
	Created time.Time `json:"created"`
}
