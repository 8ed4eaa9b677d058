package doctor

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// Doctor is what the page needs of assistant.Doctor: the database's
// diagnosis, its backups, and the three ways out.
type Doctor interface {
	Diagnose() (store.Diagnosis, error)
	Backups() ([]store.Backup, error)
	Salvage() (store.SalvageReport, error)
	Fresh() (string, error)
	Restore(name string) (store.Backup, string, error)
}

// Deps is what the page is built from.
type Deps struct {
	Window fyne.Window
	// Do runs fn on the UI goroutine; Go runs fn in the background (file
	// reads and the repairs). Tests pass runners that run fn at once.
	Do, Go func(fn func())
	Doctor Doctor
	// Cause is why the workspace could not be opened (or why it stopped
	// working); it is shown until the diagnosis is ready.
	Cause error
	// Open opens the workspace once the database works again; its error
	// is shown on the page.
	Open func() error
	// Quit closes the window.
	Quit func()
}

// Page is shown instead of the chat when the workspace database cannot be
// used: damaged, or written by a newer Wrasse. It says what is wrong and
// what can still be read, and offers the ways out: salvage what can be
// read into a new database, restore a backup, or start afresh. Each keeps
// the file it replaces in the backups folder. Nothing changes the file
// until one of them is chosen.
type Page struct {
	d Deps

	icon     *widget.Icon
	title    *widget.Label
	summary  *widget.Label
	problems *widget.Label
	readable *widget.Label
	kept     *widget.Label

	salvageCard *widget.Card
	salvage     *widget.Button
	backups     *fyne.Container
	fresh       *widget.Button

	outcome  *widget.Label
	openBtn  *widget.Button
	actions  *fyne.Container
	busy     *widget.ProgressBarInfinite
	obj      fyne.CanvasObject
	diag     store.Diagnosis
	diagnose error
	list     []store.Backup
}

// New builds the page; call Refresh to read the database.
func New(d Deps) *Page {
	p := &Page{d: d, icon: widget.NewIcon(theme.WarningIcon())}
	p.title = widget.NewLabelWithStyle("Wrasse cannot open its database", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.SizeName = theme.SizeNameHeadingText
	wrap := func() *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	p.summary, p.problems, p.readable, p.outcome = wrap(), wrap(), wrap(), wrap()
	p.problems.TextStyle = fyne.TextStyle{Monospace: true}
	p.problems.Hide()
	p.outcome.Hide()
	if d.Cause != nil {
		p.summary.SetText(d.Cause.Error())
	}

	p.salvage = widget.NewButtonWithIcon("Salvage", theme.DocumentSaveIcon(), p.Salvage)
	p.salvage.Importance = widget.HighImportance
	p.salvageCard = widget.NewCard("Salvage what can be read", "",
		container.NewVBox(wrapped("Copies the conversations, keys, settings and capability states that can still be read into a new database, which takes the damaged one's place."),
			container.NewHBox(p.salvage)))
	p.backups = container.NewVBox()
	restoreCard := widget.NewCard("Restore a backup", "", container.NewVBox(
		wrapped("Wrasse backs its database up once a day and before each upgrade. A backup brings back everything as it was when it was made."),
		p.backups))
	p.fresh = widget.NewButtonWithIcon("Start afresh", theme.ContentClearIcon(), p.confirmFresh)
	p.fresh.Importance = widget.DangerImportance
	freshCard := widget.NewCard("Start afresh", "", container.NewVBox(
		wrapped("Starts with an empty database: conversations, keys and capability states start over. Your capabilities and config.json stay."),
		container.NewHBox(p.fresh)))

	p.openBtn = widget.NewButtonWithIcon("Open Wrasse", theme.NavigateNextIcon(), p.openWorkspace)
	p.openBtn.Importance = widget.HighImportance
	p.openBtn.Hide()
	p.busy = widget.NewProgressBarInfinite()
	p.busy.Stop()
	p.busy.Hide()
	quit := widget.NewButton("Quit", func() {
		if d.Quit != nil {
			d.Quit()
		}
	})
	p.kept = wrapped("Nothing was changed in the file. Whatever you choose, the file it replaces is kept in the workspace's .cache/backups folder.")
	p.actions = container.NewVBox(p.salvageCard, restoreCard, freshCard)
	head := container.NewVBox(
		container.NewHBox(p.icon, p.title),
		p.summary, p.problems, p.readable, p.kept)
	body := container.NewVBox(head, p.actions, p.busy, p.outcome, container.NewHBox(p.openBtn, quit))
	p.obj = container.NewVScroll(container.NewPadded(body))
	return p
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// Object is the page.
func (p *Page) Object() fyne.CanvasObject { return p.obj }

// Refresh reads the database and its backups again (in the background)
// and shows what it found.
func (p *Page) Refresh() {
	p.d.Go(func() {
		diag, err := p.d.Doctor.Diagnose()
		list, lerr := p.d.Doctor.Backups()
		p.d.Do(func() {
			p.diag, p.diagnose, p.list = diag, errors.Join(err, lerr), list
			p.show()
		})
	})
}

// show lays out what Refresh found.
func (p *Page) show() {
	d := p.diag
	switch {
	case p.diagnose != nil:
		p.title.SetText("Wrasse cannot open its database")
		p.summary.SetText("It could not be read: " + p.diagnose.Error())
	case d.Newer():
		p.title.SetText("This database is from a newer Wrasse")
		p.summary.SetText(fmt.Sprintf("%s was written by a newer Wrasse (database version %d; this one reads up to %d). Update Wrasse to open it, or restore a backup this version reads.",
			d.Path, d.Schema, d.Supported))
	case len(d.Problems) > 0:
		p.title.SetText("Wrasse's database is damaged")
		p.summary.SetText(fmt.Sprintf("%s (%s) is damaged, so Wrasse opened this page instead of the chat. What is wrong:", d.Path, size(d.Size)))
	case d.Missing:
		p.title.SetText("There is no database any more")
		p.summary.SetText("The database file is gone; Wrasse starts with a new one.")
	default:
		p.title.SetText("The database works again")
		p.summary.SetText(fmt.Sprintf("%s is sound.", d.Path))
	}
	p.problems.SetText(strings.Join(bullets(d.Problems), "\n"))
	p.problems.Hidden = len(d.Problems) == 0
	p.problems.Refresh()
	readable := d.Conversations + d.Events + d.Secrets
	if p.diagnose == nil && !d.Missing && !d.Newer() {
		p.readable.SetText(fmt.Sprintf("What can still be read: %s, %s, %s.",
			plural(d.Conversations, "conversation"), plural(d.Events, "message"), plural(d.Secrets, "key")))
		p.readable.Show()
	} else {
		p.readable.Hide()
	}
	if d.Newer() || readable == 0 {
		p.salvageCard.Hide()
	} else {
		p.salvageCard.Show()
	}
	p.showBackups()
	if d.Healthy() || d.Missing {
		// Repaired elsewhere (wrasse doctor) or gone: nothing to choose.
		p.actions.Hide()
		p.openBtn.Show()
	}
}

func (p *Page) showBackups() {
	p.backups.RemoveAll()
	n := 0
	for _, b := range p.list {
		b := b
		what := map[store.BackupKind]string{store.BackupDaily: "daily backup", store.BackupBeforeUpgrade: "before an upgrade",
			store.BackupSetAside: "set aside by a repair"}[b.Kind]
		label := widget.NewLabel(fmt.Sprintf("%s — %s, %s", b.Time.Local().Format("Mon 2 Jan 2006 15:04"), what, size(b.Size)))
		btn := widget.NewButtonWithIcon("Restore", theme.HistoryIcon(), func() { p.confirmRestore(b) })
		p.backups.Add(container.NewBorder(nil, nil, nil, btn, label))
		n++
	}
	if n == 0 {
		p.backups.Add(wrapped("There are no backups yet."))
	}
	p.backups.Refresh()
}

// Salvage copies what can be read into a new database.
func (p *Page) Salvage() {
	p.run("Salvaging…", func() (string, error) {
		rep, err := p.d.Doctor.Salvage()
		if err != nil {
			return "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Salvaged %s with %s, %s, %s and %s.",
			plural(rep.Conversations, "conversation"), plural(rep.Events, "message"), plural(rep.Secrets, "key"),
			plural(rep.Settings, "setting"), plural(rep.States, "capability state"))
		if rep.Rebuilt > 0 {
			fmt.Fprintf(&b, " %s lost their titles and are called \"Recovered conversation\".", plural(rep.Rebuilt, "conversation"))
		}
		if len(rep.Lost) > 0 {
			b.WriteString(" Could not be read: " + strings.Join(rep.Lost, "; ") + ".")
		}
		b.WriteString(" The damaged file is kept as " + rep.SetAside + ".")
		return b.String(), nil
	})
}

func (p *Page) confirmFresh() {
	confirm.Show("Start afresh?",
		"Conversations, keys and capability states start over. The current file is kept in .cache/backups, so a repair or a restore stays possible later.",
		"Yes", "No",
		func(ok bool) {
			if ok {
				p.Fresh()
			}
		}, p.d.Window)
}

// Fresh sets the database aside so the workspace starts with an empty one.
func (p *Page) Fresh() {
	p.run("Setting the database aside…", func() (string, error) {
		aside, err := p.d.Doctor.Fresh()
		if err != nil {
			return "", err
		}
		return "Wrasse starts with an empty database. The old file is kept as " + aside + ".", nil
	})
}

func (p *Page) confirmRestore(b store.Backup) {
	confirm.Show("Restore this backup?",
		fmt.Sprintf("The database goes back to how it was on %s. Anything since then is not in it. The file it replaces is kept in .cache/backups.",
			b.Time.Local().Format("Mon 2 Jan 2006 15:04")),
		"Yes", "No",
		func(ok bool) {
			if ok {
				p.Restore(b.Name)
			}
		}, p.d.Window)
}

// Restore puts the backup called name in the database's place.
func (p *Page) Restore(name string) {
	p.run("Restoring…", func() (string, error) {
		used, aside, err := p.d.Doctor.Restore(name)
		if err != nil {
			return "", err
		}
		msg := "Restored the backup of " + used.Time.Local().Format("Mon 2 Jan 2006 15:04") + "."
		if aside != "" {
			msg += " The file it replaced is kept as " + aside + "."
		}
		return msg, nil
	})
}

// run does a repair in the background, the buttons off meanwhile, then
// says how it went; after a repair the workspace can be opened.
func (p *Page) run(doing string, fn func() (string, error)) {
	p.actions.Hide()
	p.busy.Show()
	p.busy.Start()
	p.outcome.SetText(doing)
	p.outcome.Show()
	p.d.Go(func() {
		msg, err := fn()
		p.d.Do(func() {
			p.busy.Stop()
			p.busy.Hide()
			if err != nil {
				p.outcome.SetText("That did not work: " + err.Error())
				p.actions.Show()
				return
			}
			// Repaired: what was wrong is history; what was done stays.
			p.title.SetText("Wrasse can open its database again")
			p.icon.SetResource(theme.ConfirmIcon())
			p.summary.SetText(msg)
			for _, o := range []fyne.CanvasObject{p.problems, p.readable, p.kept, p.outcome, p.actions} {
				o.Hide()
			}
			p.openBtn.Show()
		})
	})
}

// openWorkspace opens the workspace with the repaired database.
func (p *Page) openWorkspace() {
	if p.d.Open == nil {
		return
	}
	p.openBtn.Disable()
	p.d.Go(func() {
		err := p.d.Open()
		p.d.Do(func() {
			p.openBtn.Enable()
			if err != nil {
				p.outcome.SetText("Wrasse still cannot open the workspace: " + err.Error())
				p.outcome.Show()
				p.Refresh()
			}
		})
	})
}

func bullets(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "• " + l
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// size is n bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
