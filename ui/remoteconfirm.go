package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/bridge"
)

// RemoteCommand is a command another program sent to the open window
// through its socket that would widen what the assistant may do (add or
// enable a capability or MCP server, grant permissions or folders, move
// the model to another host, store a secret, approve a call).
type RemoteCommand struct {
	// Line is the command line exactly as it will run.
	Line string
	// Sender is the program that sent it (a wrasse command: its pid,
	// command line and executable).
	Sender string
	// Parent is the program that started the sender: the person's own
	// shell, or a script they may not recognise.
	Parent string
}

// The dialog's words.
const (
	remoteTitle   = "Run a command sent to Wrasse?"
	remoteRun     = "Run"
	remoteCancel  = "Cancel"
	remoteWarning = "A program outside this window asks Wrasse to run the command below. It would widen what the assistant may do. " +
		"Run it only if you started it yourself; Wrasse refuses such commands from the programs it runs, and you see this so that no other program can do it in your name."
)

// ConfirmRemote shows cmd in a dialog over the window and waits for the
// person: Run returns true, Cancel false. When ctx ends first (the program
// that sent it went away) the dialog closes and the answer is false. It
// blocks, so it runs on the goroutine serving the command, never on the
// UI's.
func ConfirmRemote(ctx context.Context, env *bridge.Env, cmd RemoteCommand) bool {
	answer := make(chan bool, 1)
	// d is touched on the UI goroutine only: env.Do runs its functions
	// there in order (fyne.Do queues them), so the Hide below finds it set.
	var d dialog.Dialog
	env.Do(func() {
		d = showRemoteConfirm(env.Window, cmd, func(ok bool) {
			select {
			case answer <- ok:
			default: // answered already (Cancel, then the close below)
			}
		})
	})
	select {
	case ok := <-answer:
		return ok
	case <-ctx.Done():
		env.Do(func() { d.Hide() })
		return false
	}
}

// showRemoteConfirm shows the dialog and returns it; answer receives the
// person's choice. It runs on the UI goroutine.
func showRemoteConfirm(w fyne.Window, cmd RemoteCommand, answer func(bool)) dialog.Dialog {
	warning := widget.NewLabel(remoteWarning)
	warning.Wrapping = fyne.TextWrapWord
	line := widget.NewLabelWithStyle(cmd.Line, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	line.Wrapping = fyne.TextWrapBreak
	line.Selectable = true
	form := widget.NewForm(widget.NewFormItem("Command", line))
	for _, f := range [][2]string{{"Sent by", cmd.Sender}, {"Started by", cmd.Parent}} {
		if f[1] == "" {
			continue
		}
		l := widget.NewLabel(f[1])
		l.Wrapping = fyne.TextWrapBreak
		l.Selectable = true
		form.Append(f[0], l)
	}
	content := container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, warning), form)
	d := dialog.NewCustomConfirm(remoteTitle, remoteRun, remoteCancel, content, answer, w)
	d.SetConfirmImportance(widget.WarningImportance)
	d.Resize(fyne.NewSize(680, 360))
	d.Show()
	return d
}
