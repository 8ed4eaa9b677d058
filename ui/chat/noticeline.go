package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// noticeLine shows a notice about the model's answer ("llama2 cannot call
// tools, so it answers without them"): a sentence for the person, never
// sent to the model.
type noticeLine struct {
	quiet bool
	col   *column
	icon  *widget.Icon
	text  *wrapText
}

func newNoticeLine() *noticeLine {
	n := &noticeLine{}
	n.icon = widget.NewIcon(theme.InfoIcon())
	n.text = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNamePlaceHolder)
	line := container.NewBorder(nil, nil, n.icon, nil, n.text)
	n.col = newColumn("", line)
	n.col.measureWith(line, func(w float32) float32 {
		return max(n.text.heightFor(w-n.icon.MinSize().Width-theme.Padding()), n.icon.MinSize().Height)
	})
	return n
}

func (n *noticeLine) bind(r *row) {
	n.text.setText(r.text, n.quiet)
	if !n.quiet {
		n.col.Refresh()
	}
}
