package chat

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
)

// exportMarkdown renders a conversation as a Markdown document: a heading
// with its title, then each message under who wrote it, the model's
// reasoning as a collapsed <details> block before what it led to, tool
// calls as quoted blocks with their arguments and result in code fences,
// and errors, notices and the gate's refusals as notes. Token accounting
// is left out.
func exportMarkdown(title string, events []store.Event) string {
	return exportWithVersions(title, events, nil)
}

// exportVersions are the other versions of the messages that have some,
// by the seq of the version shown: each version's number and events.
type exportVersions map[uint64]otherVersions

type otherVersions struct {
	shown  store.Version
	others map[int][]store.Event
}

// exportWithVersions is exportMarkdown with the versions not shown of
// each message that has some: each in a collapsed <details> block before
// the version shown, which is marked "Version 2 of 3".
func exportWithVersions(title string, events []store.Event, versions exportVersions) string {
	var b strings.Builder
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n", title)
	exportEvents(&b, events, "##", versions)
	return b.String()
}

// exportEvents writes events with headings at level h ("##").
func exportEvents(b *strings.Builder, events []store.Event, h string, versions exportVersions) {
	calls := map[string]store.Event{}
	for _, e := range events {
		switch e.Type {
		case store.EventUserMessage:
			if v, ok := versions[e.Seq]; ok {
				exportOthers(b, v)
				fmt.Fprintf(b, "\n*Version %d of %d, the one shown:*\n", v.shown.N, v.shown.Of)
			}
			fmt.Fprintf(b, "\n%s You%s\n\n%s\n", h, stamp(e.Time), strings.TrimRight(e.Text, "\n"))
		case store.EventAssistantText:
			if e.Text == "" && e.Status != store.StatusLength {
				continue
			}
			who := "Wrasse"
			if e.Model != "" {
				who += " (" + e.Model + ")"
			}
			fmt.Fprintf(b, "\n%s %s%s\n", h, who, stamp(e.Time))
			if text := strings.TrimRight(e.Text, "\n"); text != "" {
				fmt.Fprintf(b, "\n%s\n", text)
			}
			if e.Status == store.StatusInterrupted {
				b.WriteString("\n*(interrupted)*\n")
			}
			if e.Status == store.StatusLength {
				b.WriteString("\n*(stopped at the model's length limit)*\n")
			}
		case store.EventThinking:
			b.WriteString(exportThinking(e))
		case store.EventNotice:
			fmt.Fprintf(b, "\n> *Note:* %s\n", strings.ReplaceAll(strings.TrimSpace(e.Text), "\n", "\n> "))
		case store.EventToolCall:
			calls[e.ToolCallID] = e
			args := fence(compactJSON(e.Arguments), "json")
			if p := programOf(e.ToolName, e.Arguments); p != "" {
				args = fence(p, "go")
			}
			nested(b, e, fmt.Sprintf("\n> **Tool call** `%s`\n>\n%s", e.ToolName, quote(args)))
		case store.EventApproval:
			if d := e.Decision; d != nil {
				nested(b, e, fmt.Sprintf(">\n> *%s*%s\n", decisionWords(d.Kind), reasonSuffix(d.Reason)))
			}
		case store.EventToolResult:
			label := "Result"
			if e.IsError {
				label = "Error"
			}
			if c, ok := calls[e.ToolCallID]; ok && !c.Time.IsZero() && !e.Time.IsZero() {
				label += " after " + formatDuration(e.Time.Sub(c.Time))
			}
			nested(b, e, fmt.Sprintf(">\n> %s:\n>\n%s", label, quote(fence(e.Text, ""))))
			b.WriteString(exportImages(e.Images))
		case store.EventError:
			fmt.Fprintf(b, "\n> **Error:** %s\n", strings.ReplaceAll(strings.TrimSpace(e.Text), "\n", "\n> "))
		}
	}
}

// exportOthers writes the versions not shown of one place, each
// collapsed, with what followed it.
func exportOthers(b *strings.Builder, v otherVersions) {
	for n := 1; n <= v.shown.Of; n++ {
		evs, ok := v.others[n]
		if !ok {
			continue
		}
		fmt.Fprintf(b, "\n<details>\n<summary>Version %d of %d (not shown)</summary>\n", n, v.shown.Of)
		exportEvents(b, evs, "###", nil)
		b.WriteString("\n</details>\n")
	}
}

// nested writes s, quoted once more when e is a call a code-mode program
// made, so it reads as part of the program's call.
func nested(b *strings.Builder, e store.Event, s string) {
	if e.ParentCallID == "" {
		b.WriteString(s)
		return
	}
	lead := strings.HasPrefix(s, "\n")
	s = strings.TrimPrefix(s, "\n")
	if lead {
		b.WriteString(">\n")
	}
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString(">" + line)
		}
	}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " · " + t.UTC().Format("2006-01-02 15:04")
}

func decisionWords(k store.DecisionKind) string {
	switch k {
	case store.ApprovedOnce:
		return "Approved once"
	case store.ApprovedConversation:
		return "Approved for this conversation"
	case store.Denied:
		return "Denied"
	case store.Blocked:
		return "Blocked by the safety policy"
	}
	return string(k)
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

// fence puts text in a code fence longer than any run of backticks in it.
func fence(text, lang string) string {
	n, run := 3, 0
	for _, r := range text {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f + "\n"
}

// quote prefixes every line with "> ".
func quote(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// exportName is a file name for a conversation's export.
func exportName(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 50 {
			break
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		name = "conversation"
	}
	return name + ".md"
}

// exportThinking is a thinking event as a <details> block, collapsed
// where Markdown is rendered (GitHub, most editors) as it is in the
// window; the text inside is fenced, so reasoning that holds Markdown or
// HTML reads as it was written.
func exportThinking(e store.Event) string {
	switch {
	case e.Redacted != "":
		return "\n*(the model's reasoning, encrypted by the provider, is not shown)*\n"
	case strings.TrimSpace(e.Text) == "":
		return ""
	}
	summary := "Thinking"
	if e.Model != "" {
		summary += " (" + e.Model + ")"
	}
	if e.Status == store.StatusInterrupted {
		summary += ", interrupted"
	}
	return "\n<details>\n<summary>" + html.EscapeString(summary) + "</summary>\n\n" + fence(e.Text, "text") + "\n</details>\n"
}
