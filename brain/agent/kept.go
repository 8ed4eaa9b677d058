package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/store"
)

// kept says in a sentence what the turn stored before it failed, for the
// failure message: the reply text written so far and the tool calls that
// ran (their results), "" when there is neither. Calls the turn recorded
// as not run, and the inner calls of a code-mode program, are not
// counted.
func (t *turn) kept() string {
	chars := 0
	var tools []string
	for i := len(t.events) - 1; i >= 0; i-- {
		e := t.events[i]
		if e.Type == store.EventUserMessage {
			break
		}
		switch {
		case e.Type == store.EventAssistantText:
			chars += utf8.RuneCountInString(e.Text)
		case e.Type == store.EventToolResult && e.ParentCallID == "" && !notRun(e):
			tools = append(tools, e.ToolName)
		}
	}
	// Oldest first, as they ran.
	for i, j := 0, len(tools)-1; i < j; i, j = i+1, j-1 {
		tools[i], tools[j] = tools[j], tools[i]
	}
	var parts []string
	if chars > 0 {
		parts = append(parts, fmt.Sprintf("what it had written so far (%d characters)", chars))
	}
	switch len(tools) {
	case 0:
	case 1:
		parts = append(parts, "the result of the tool call that ran ("+tools[0]+")")
	default:
		parts = append(parts, fmt.Sprintf("the results of the %d tool calls that ran (%s)", len(tools), strings.Join(tools, ", ")))
	}
	switch {
	case len(parts) == 0:
		return ""
	case len(parts) == 1 && chars > 0 && len(tools) == 0:
		return "What it had written so far (" + fmt.Sprint(chars) + " characters) is kept."
	}
	s := strings.Join(parts, " and ")
	verb := " is kept."
	if len(tools) > 1 || len(parts) > 1 {
		verb = " are kept."
	}
	return strings.ToUpper(s[:1]) + s[1:] + verb
}

// notRun reports whether a tool result says its call never ran.
func notRun(e store.Event) bool {
	return e.Text == notRunBrokenOff || e.Text == interruptedBeforeRun
}
