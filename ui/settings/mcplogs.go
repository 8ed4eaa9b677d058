package settings

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// noLogs is what the log view says before a server logged anything.
const noLogs = "Nothing logged since Wrasse started. A server's messages show here, never in the chat."

// logBox is a server's log view on its page: the messages it sent
// (notifications/message, secrets redacted) at the level chosen here,
// newest last, with Refresh.
type logBox struct {
	env     *bridge.Env
	outcome *problemLine

	level   *escSelect
	refresh *escButton
	view    *codeBlock
	obj     *fyne.Container
	name    string
}

func newLogBox(env *bridge.Env, outcome *problemLine) *logBox {
	b := &logBox{env: env, outcome: outcome}
	b.level = newSelect(mcp.LogLevels, nil)
	b.refresh = newButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { b.Show(b.name) })
	b.view = newCodeBlock(env.Copy, 240)
	heading := widget.NewLabelWithStyle("Server log", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.obj = container.NewVBox(widget.NewSeparator(),
		container.NewHBox(heading, widget.NewLabel("Level"), b.level, b.refresh), b.view)
	return b
}

// Object is the box.
func (b *logBox) Object() fyne.CanvasObject { return b.obj }

// Show shows server name's log and level.
func (b *logBox) Show(name string) {
	b.name = name
	core := b.env.Core
	b.level.OnChanged = nil // setting the box is not the person's choice
	b.level.SetSelected(core.MCPLogLevel(name))
	b.level.OnChanged = func(level string) { b.setLevel(name, level) }
	lines := core.MCPLogs(name)
	text := noLogs
	if len(lines) > 0 {
		var sb strings.Builder
		for _, l := range lines {
			sb.WriteString(l.String())
			sb.WriteByte('\n')
		}
		text = strings.TrimSuffix(sb.String(), "\n")
	}
	b.view.Set(fmt.Sprintf("%d messages (the newest %d are kept)", len(lines), mcp.LogKeep), text)
	b.obj.Refresh()
}

// Text is what the log view shows.
func (b *logBox) Text() string { return b.view.Text() }

func (b *logBox) setLevel(name, level string) {
	core := b.env.Core
	b.env.Go(func() {
		err := core.SetMCPLogLevel(context.Background(), name, level)
		b.env.Do(func() {
			if err != nil {
				b.outcome.Error(err)
				return
			}
			b.outcome.OK(fmt.Sprintf("%s logs at %s and above from now on.", name, level))
		})
	})
}
