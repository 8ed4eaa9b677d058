package chat

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// progressRow is the part of a tool card that shows an MCP server's
// progress on the call while it runs: a bar when the server gives a
// total, and its message (or the count reached, without a total).
type progressRow struct {
	bar  *widget.ProgressBar
	text *wrapText
}

func newProgressRow() *progressRow {
	p := &progressRow{bar: widget.NewProgressBar(), text: newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNamePlaceHolder)}
	p.bar.Hide()
	p.text.Hide()
	return p
}

// bind shows call's last report, or nothing once it ended.
func (p *progressRow) bind(call *toolCall, quiet bool) {
	rep := call.progress
	if call.done || rep == nil {
		setVisible(p.bar, false)
		setVisible(p.text, false)
		return
	}
	f, known := rep.Fraction()
	if known && !quiet {
		p.bar.SetValue(f)
	} else if known {
		p.bar.Value = f
	}
	setVisible(p.bar, known)
	line := progressText(*rep)
	p.text.setText(line, quiet)
	setVisible(p.text, line != "")
}

// progressText is a report's words: the server's message, and without a
// total how far it got ("step 3"), since no bar can show it.
func progressText(p mcp.Progress) string {
	msg := strings.TrimSpace(p.Message)
	if _, known := p.Fraction(); known {
		return msg
	}
	count := "progress " + strconv.FormatFloat(p.Progress, 'f', -1, 64)
	if msg == "" {
		return count
	}
	return fmt.Sprintf("%s (%s)", msg, count)
}

// toolProgress puts a server's progress report on the card of the call
// it is about: the running call of that server in the conversation that
// made it. The calls of one reply run one after the other, so the last
// running call of the server is the one.
func (c *Chat) toolProgress(p mcp.Progress) {
	tr := c.transcriptOf(p.Conversation)
	if tr == nil {
		return
	}
	for i := len(tr.rows) - 1; i >= 0; i-- {
		r := tr.rows[i]
		if r.kind != rowTool || r.tool.done || r.tool.capability != p.Server {
			continue
		}
		r.tool.progress = &p
		r.version++
		if tr == c.cur {
			c.list.rowChanged(i)
		}
		return
	}
}

// transcriptOf is the transcript of conversation conv while a turn
// writes to it or it is on screen, else nil.
func (c *Chat) transcriptOf(conv string) *transcript {
	if conv == "" {
		return nil
	}
	if c.cur.id != 0 && c.cur.id.String() == conv {
		return c.cur
	}
	for id, tr := range c.live {
		if id.String() == conv {
			return tr
		}
	}
	return nil
}
