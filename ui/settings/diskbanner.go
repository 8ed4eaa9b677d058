package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// diskBanner tells the user the watcher saw capability folders change on
// disk, says what changed, and offers Resync (or says it already ran,
// with autoResync).
type diskBanner struct {
	text   *widget.Label
	resync *escButton
	box    *fyne.Container
	// changed, when set, is told the banner showed or went.
	changed func()
	// pending is set while the banner offers Resync for changes not yet
	// applied: those can go away without a notice (an edit undone, a Resync
	// from elsewhere), so the page checks them again.
	pending bool
}

func newDiskBanner(resync func()) *diskBanner {
	b := &diskBanner{}
	b.text = widget.NewLabel("")
	b.text.Wrapping = fyne.TextWrapWord
	b.resync = newButtonWithIcon("Resync", theme.ViewRefreshIcon(), resync)
	b.resync.Importance = widget.HighImportance
	dismiss := newButtonWithIcon("", theme.CancelIcon(), func() { b.Hide() })
	dismiss.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameHover))
	bg.CornerRadius = theme.InputRadiusSize()
	row := container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), container.NewHBox(b.resync, dismiss), b.text)
	b.box = container.NewStack(bg, container.NewPadded(row))
	b.box.Hide()
	return b
}

func (b *diskBanner) Object() fyne.CanvasObject { return b.box }

// Show says what changed; an empty diff (edits undone) hides the banner.
func (b *diskBanner) Show(d cerebellum.Diff, applied bool, err error) {
	b.pending = err == nil && !applied && !d.Empty()
	switch {
	case err != nil:
		b.text.SetText("Wrasse stopped watching the capability folders: " + err.Error() + ". Use Resync after editing them.")
		b.resync.Show()
	case d.Empty():
		b.Hide()
		return
	case applied:
		b.text.SetText("Capability folders changed on disk and were applied: " + assistant.DiffSummary(d) + ".")
		b.resync.Hide()
	default:
		b.text.SetText("Capability folders changed on disk: " + assistant.DiffSummary(d) + ". Resync to apply.")
		b.resync.Show()
	}
	b.box.Show()
	b.notify()
}

func (b *diskBanner) Hide() {
	b.pending = false
	b.box.Hide()
	b.notify()
}

func (b *diskBanner) notify() {
	if b.changed != nil {
		b.changed()
	}
}

// ResyncDone hides a banner offering Resync: a Resync applied it.
func (b *diskBanner) ResyncDone() {
	if b.Pending() {
		b.Hide()
	}
}

// Pending reports whether the banner offers Resync for changes not applied.
func (b *diskBanner) Pending() bool { return b.pending && b.box.Visible() }

// Visible reports whether the banner shows.
func (b *diskBanner) Visible() bool { return b.box.Visible() }

// Text is what the banner says.
func (b *diskBanner) Text() string { return b.text.Text }
