package doctor

import (
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// Notices are the banners over the chat and the settings: config.json
// has parts that cannot be read (defaults apply; Repair rewrites it with
// what could be read, keeping the old file), and the disk is full (shown
// once when a write fails for lack of space, gone when one works again).
// Damage found while the window is open goes to OnDamage, which shows the
// Page instead.
type Notices struct {
	env *bridge.Env
	// OnDamage is told, on the UI goroutine, that the database turned out
	// to be damaged; writes have stopped.
	OnDamage func(err error)

	config, disk *banner
	obj          *fyne.Container
	stop         func()
}

// NewNotices builds the banners and follows the core's events until
// Close.
func NewNotices(env *bridge.Env) *Notices {
	n := &Notices{env: env}
	n.config = newBanner(theme.WarningIcon(), "Repair", n.Repair)
	n.disk = newBanner(theme.ErrorIcon(), "", nil)
	n.obj = container.NewVBox(n.config.box, n.disk.box)
	n.stop = env.Core.Subscribe(n.onEvent)
	n.refreshConfig()
	return n
}

// Object is the banners (nothing while there is nothing to say).
func (n *Notices) Object() fyne.CanvasObject { return n.obj }

// Close stops following the core.
func (n *Notices) Close() {
	if n.stop != nil {
		n.stop()
	}
}

func (n *Notices) onEvent(e assistant.Event) {
	switch e.Kind {
	case assistant.EventConfig:
		n.env.Do(n.refreshConfig)
	case assistant.EventStorage:
		err := e.Err
		n.env.Do(func() { n.storage(err) })
	}
}

// storage shows what a storage notice says.
func (n *Notices) storage(err error) {
	switch {
	case err == nil:
		n.disk.hide()
	case errors.Is(err, store.ErrDiskFull):
		n.disk.show("The disk that holds your workspace is full, so Wrasse cannot save: what failed to save is lost, everything saved before is kept. Free some space; saving starts again by itself.")
	case errors.Is(err, store.ErrCorrupt):
		if n.OnDamage != nil {
			n.OnDamage(err)
		}
	}
}

// refreshConfig shows the config banner while config.json has parts that
// cannot be read.
func (n *Notices) refreshConfig() {
	problems := n.env.Core.ConfigErrors()
	if len(problems) == 0 {
		n.config.hide()
		return
	}
	text := fmt.Sprintf("config.json has a part that cannot be read: %s.", problems[0])
	if len(problems) > 1 {
		text = fmt.Sprintf("config.json has %d parts that cannot be read: %s (and %d more).", len(problems), problems[0], len(problems)-1)
	}
	n.config.show(text + " Repair rewrites it with the settings that could be read and keeps the old file as config.json.broken.")
}

// Repair rewrites config.json with the settings that could be read.
func (n *Notices) Repair() {
	n.env.Go(func() {
		_, err := n.env.Core.ReplaceConfig(func(*workspace.Config) error { return nil })
		n.env.Do(func() {
			if err != nil {
				n.config.show("config.json could not be repaired: " + err.Error())
				return
			}
			n.refreshConfig()
		})
	})
}

// banner is one line of notice with an icon, an optional action and a
// close button.
type banner struct {
	text    *widget.Label
	action  *widget.Button
	dismiss *tip.Button
	box     *fyne.Container
}

func newBanner(icon fyne.Resource, action string, fn func()) *banner {
	b := &banner{text: widget.NewLabel("")}
	b.text.Wrapping = fyne.TextWrapWord
	right := container.NewHBox()
	if fn != nil {
		b.action = widget.NewButton(action, fn)
		b.action.Importance = widget.HighImportance
		right.Add(b.action)
	}
	// An icon alone does not say that closing only hides the notice.
	b.dismiss = tip.NewButton("", theme.CancelIcon(), "Hide this notice (it shows again if the problem comes back)", b.hide)
	right.Add(b.dismiss)
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameHover))
	bg.CornerRadius = theme.InputRadiusSize()
	row := container.NewBorder(nil, nil, widget.NewIcon(icon), right, b.text)
	b.box = container.NewStack(bg, container.NewPadded(row))
	b.box.Hide()
	return b
}

func (b *banner) show(text string) {
	b.text.SetText(text)
	b.box.Show()
}

func (b *banner) hide() { b.box.Hide() }

// Showing is the text of the banners shown, for tests and the log.
func (n *Notices) Showing() []string {
	var out []string
	for _, b := range []*banner{n.config, n.disk} {
		if b.box.Visible() {
			out = append(out, b.text.Text)
		}
	}
	return out
}
