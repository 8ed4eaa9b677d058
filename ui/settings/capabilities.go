package settings

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// capsPage is the Capabilities page: a filter box, import and Resync, the
// watcher's banner, the outcome of the last action in a code block, and
// three views: the installed capabilities (a virtualised list beside the
// selected one's details), the Trash and the index preview.
type capsPage struct {
	env *bridge.Env

	all       []*cerebellum.Capability
	shown     []*cerebellum.Capability
	highlight string

	filter  *escEntry
	count   *widget.Label
	list    *escList
	detail  *capDetail
	banner  *diskBanner
	result  *codeBlock
	resultX *escButton
	results *fyne.Container
	problem *problemLine
	imp     *importer
	trash   *trashView
	preview *indexPreview
	views   *container.AppTabs
	obj     *fyne.Container
	// outcomeGen is the registry generation the shown outcome describes:
	// a newer snapshot (a Resync from the CLI or the watcher) hides it.
	outcomeGen uint64
	// bannerGen is the generation the banner's pending diff was last
	// checked against.
	bannerGen uint64
}

func newCapsPage(env *bridge.Env) *capsPage {
	p := &capsPage{env: env}
	p.detail = newCapDetail(env.Copy)
	p.detail.Sandbox = env.Core.Sandbox
	p.detail.OnGrant = p.grant
	p.detail.OnRevoke = p.revoke
	p.detail.OnRemove = p.confirmRemove
	p.filter = newEntry()
	p.filter.SetPlaceHolder("Filter by name, description, kind, badge or state")
	p.filter.OnChanged = func(string) { p.applyFilter() }
	p.count = widget.NewLabel("")
	p.list = newList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			r := newCapRow()
			r.OnToggle = p.toggle
			r.OnRemove = p.confirmRemove
			return r
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(p.shown) {
				c := p.shown[id]
				o.(*capRow).Bind(c, c.Name == p.highlight)
			}
		})
	p.list.OnSelected = func(id widget.ListItemID) {
		if id < len(p.shown) {
			p.detail.Show(p.shown[id])
		}
	}
	p.result = newCodeBlock(env.Copy, 160)
	p.resultX = newButtonWithIcon("", theme.CancelIcon(), func() { p.results.Hide(); p.relayout() })
	p.resultX.Importance = widget.LowImportance
	p.results = container.NewBorder(nil, nil, nil, container.NewVBox(p.resultX), p.result)
	p.results.Hide()
	p.problem = newProblemLine(env.Show)
	p.detail.SetSecrets(newSecretsBox(env, p.problem))
	p.banner = newDiskBanner(p.resync)
	p.imp = newImporter(env, p.showOutcome)
	p.imp.started = p.clearOutcome
	p.trash = newTrashView(env, p.restore)
	p.preview = newIndexPreview(env)

	importFile := newButtonWithIcon("Import file…", theme.FileIcon(), p.imp.PickFile)
	importFolder := newButtonWithIcon("Import folder…", theme.FolderOpenIcon(), p.imp.PickFolder)
	resync := newButtonWithIcon("Resync", theme.ViewRefreshIcon(), p.resync)
	tools := container.NewHBox(importFile, importFolder, resync)
	top := container.NewBorder(nil, nil, nil, tools, p.filter)
	hintText := helpText("Drop SKILL.md files, capability folders, .zip/.skill archives or .mcpb/.dxt MCP bundles anywhere on this page to import them; a collection of skills in one archive or folder offers a checklist.")

	split := container.NewHSplit(container.NewBorder(p.count, nil, nil, nil, p.list), p.detail.Object())
	split.SetOffset(0.5)
	p.views = container.NewAppTabs(
		container.NewTabItem("Installed", split),
		container.NewTabItem("Trash", p.trash.Object()),
		container.NewTabItem("Index preview", p.preview.Object()),
	)
	p.views.OnSelected = func(t *container.TabItem) {
		switch t.Text {
		case "Trash":
			p.trash.Load()
		case "Index preview":
			p.preview.Load()
		}
	}
	// Outcomes and the watcher's banner come and go under the list, never
	// above it: the toolbar, the tabs and the rows stay where the pointer
	// left them.
	header := container.NewVBox(top, hintText)
	outcomes := container.NewVBox(p.banner.Object(), p.problem.Object(), p.results)
	p.obj = container.NewBorder(header, outcomes, nil, nil, p.views)
	p.problem.Changed = p.relayout
	p.banner.changed = p.relayout
	p.refresh()
	return p
}

// Object is the page.
func (p *capsPage) Object() fyne.CanvasObject { return p.obj }

// refresh re-reads the registry's current snapshot (an in-memory read)
// and redraws what shows it.
func (p *capsPage) refresh() {
	snap := p.env.Core.Capabilities().Snapshot()
	if snap.Generation != p.outcomeGen && p.results.Visible() {
		p.results.Hide()
		p.relayout()
	}
	if snap.Generation != p.bannerGen {
		p.bannerGen = snap.Generation
		p.recheckBanner()
	}
	p.all = snap.Capabilities()
	p.applyFilter()
	if p.views.Selected() != nil && p.views.Selected().Text == "Index preview" {
		p.preview.Load()
	}
}

// applyFilter narrows the list to capabilities matching the filter box.
func (p *capsPage) applyFilter() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Text))
	p.shown = p.shown[:0]
	for _, c := range p.all {
		if q == "" || matches(c, q) {
			p.shown = append(p.shown, c)
		}
	}
	failed, ungranted := 0, 0
	for _, c := range p.all {
		switch {
		case c.State == cerebellum.StateFailed:
			failed++
		case c.State == cerebellum.StateOK && len(c.MissingGrants()) > 0:
			ungranted++
		}
	}
	text := plural(len(p.all), "capability", "capabilities")
	if len(p.shown) != len(p.all) {
		text = fmt.Sprintf("%d of %s", len(p.shown), text)
	}
	if ungranted > 0 {
		text += ", " + plural(ungranted, "needs a grant", "need a grant")
	}
	if failed > 0 {
		text += fmt.Sprintf(", %d failed", failed)
	}
	p.count.SetText(text)
	p.list.UnselectAll()
	p.list.Refresh()
	p.followSelection(q)
}

// followSelection keeps the details on the capability they show, as it now
// stands, while the list still holds it. One the filter hid (or that went
// away) leaves them: the detail of a row nobody can see read as the
// detail of the rows that show. A filter down to one capability shows
// that one; otherwise the panel asks for a selection.
func (p *capsPage) followSelection(q string) {
	name := p.detail.Name()
	if i := p.index(name); name != "" && i >= 0 {
		p.detail.Show(p.shown[i])
		p.selectRow(i)
		return
	}
	switch {
	case len(p.shown) == 1 && q != "":
		p.detail.Show(p.shown[0])
		p.selectRow(0)
	case len(p.shown) == 0 && q != "":
		p.detail.ShowEmpty("No capability matches “" + q + "”.")
	default:
		p.detail.ShowEmpty("")
	}
}

func matches(c *cerebellum.Capability, q string) bool {
	for _, s := range []string{c.Name, c.Description(), string(c.Kind), string(c.Badge), string(c.State)} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// selectRow selects without re-entering OnSelected's work twice.
func (p *capsPage) selectRow(i int) {
	on := p.list.OnSelected
	p.list.OnSelected = nil
	p.list.Select(i)
	p.list.OnSelected = on
}

func (p *capsPage) find(name string) *cerebellum.Capability {
	for _, c := range p.all {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (p *capsPage) index(name string) int {
	for i, c := range p.shown {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Reveal shows the Installed view scrolled to name, highlighted and
// selected; a capability hidden by the filter clears the filter first.
func (p *capsPage) Reveal(name string) {
	p.views.SelectIndex(0)
	p.highlight = name
	if p.index(name) < 0 && p.filter.Text != "" {
		p.filter.SetText("")
	}
	i := p.index(name)
	if i < 0 {
		p.problem.Info("There is no capability named " + name + ".")
		p.list.Refresh()
		return
	}
	p.detail.Show(p.shown[i])
	p.selectRow(i)
	p.list.ScrollTo(i)
	p.list.Refresh()
}

// Left is called when the page is left: the outcome of the last action
// (a restore, a Resync, an import) was for that visit, not the next.
func (p *capsPage) Left() { p.clearOutcome() }

// clearOutcome hides the last action's outcome; every action starts with
// it, so what shows is always about the action just done.
func (p *capsPage) clearOutcome() {
	p.problem.Clear()
	p.results.Hide()
	p.relayout()
}

// relayout gives the list the room the outcomes under it leave.
func (p *capsPage) relayout() {
	if p.obj != nil {
		p.obj.Refresh()
	}
}

// toggle switches a capability on or off.
func (p *capsPage) toggle(name string, on bool) {
	if c := p.find(name); on && c != nil && c.Kind == cerebellum.KindMCP {
		p.approveLaunch(c) // it runs a command: the person reads it first
		return
	}
	p.run(func() error {
		if on {
			return p.env.Core.Enable(name, nil)
		}
		return p.env.Core.Disable(name)
	}, func() {})
}

func (p *capsPage) grant(name, perm string) {
	p.run(func() error { return p.env.Core.Enable(name, []string{perm}) }, func() {
		p.problem.OK("Granted " + perm + " to " + name + ".")
	})
}

func (p *capsPage) revoke(name, perm string) {
	p.run(func() error {
		_, err := p.env.Core.Revoke(name, []string{perm})
		return err
	}, func() {
		p.problem.OK("Revoked " + perm + " from " + name + ".")
	})
}

// confirmRemove asks before moving a capability to the Trash.
func (p *capsPage) confirmRemove(name string) {
	what := "Its tools go away now."
	if c := p.find(name); c != nil && c.Kind == cerebellum.KindGuide {
		what = "Its instructions go away now."
	}
	confirm.Show("Move "+name+" to the Trash?",
		what+" You can restore it from the Trash view for 7 days.",
		"Yes", "No",
		func(ok bool) {
			if ok {
				p.remove(name)
			}
		}, p.env.Window)
}

func (p *capsPage) remove(name string) {
	p.run(func() error { return p.env.Core.Remove(context.Background(), name) }, func() {
		p.problem.OK(name + " is in the Trash (restorable for 7 days).")
		if p.detail.Name() == name {
			p.detail.Show(nil)
		}
	})
}

func (p *capsPage) restore(name string) {
	p.run(func() error { return p.env.Core.Restore(context.Background(), name) }, func() {
		p.problem.OK(name + " is restored.")
		p.trash.Load()
	})
}

// resync applies what changed on disk and shows the diff.
func (p *capsPage) resync() {
	p.clearOutcome()
	before := folders(p.env.Core.Capabilities().List())
	p.env.Go(func() {
		diff, err := p.env.Core.Resync(context.Background())
		p.env.Do(func() {
			if err != nil {
				p.problem.Error(err)
				return
			}
			p.banner.Hide()
			p.problem.Clear()
			text := diffText(diff, p.failure)
			switch moved := movedText(before, folders(p.env.Core.Capabilities().List())); {
			case moved != "" && diff.Empty():
				text = moved
			case moved != "":
				text += "\n" + moved
			}
			p.showOutcome("Resync", text)
			p.refresh()
		})
	})
}

// run does a core call in the background and shows its outcome.
func (p *capsPage) run(call func() error, ok func()) {
	p.clearOutcome()
	p.env.Go(func() {
		err := call()
		p.env.Do(func() {
			if err != nil {
				p.problem.Error(err)
				p.refresh() // the switch goes back to the real state
				return
			}
			ok()
			p.refresh()
		})
	})
}

// showOutcome puts an action's result in the code block under the header.
func (p *capsPage) showOutcome(title, text string) {
	p.outcomeGen = p.env.Core.Capabilities().Snapshot().Generation
	p.result.Set(title, text)
	p.results.Show()
	p.relayout()
	p.views.SelectIndex(0)
	p.refresh()
}

// recheckBanner asks the core again what a Resync would apply while the
// banner says there is something: the watcher reports only bursts that
// change something, so an edit undone or applied elsewhere would leave the
// banner saying it for ever. The read of the folders runs off the UI
// goroutine; a banner gone meanwhile (Resync) stays gone.
func (p *capsPage) recheckBanner() {
	if !p.banner.Pending() {
		return
	}
	p.env.Go(func() {
		d, err := p.env.Core.Pending()
		p.env.Do(func() {
			if !p.banner.Pending() {
				return
			}
			if err != nil {
				p.env.Core.Logger().Warn("checking capability folders for changes", "error", err)
				return
			}
			p.banner.Show(d, false, nil)
		})
	})
}

// onDisk is the watcher's notice of hand edits.
func (p *capsPage) onDisk(diff cerebellum.Diff, applied bool, err error) {
	p.banner.Show(diff, applied, err)
	if applied {
		p.refresh()
	}
}

// failure is why capability name fails to load now ("" when it loads).
func (p *capsPage) failure(name string) string {
	c, err := p.env.Core.Capabilities().Get(name)
	if err != nil || c.State != cerebellum.StateFailed {
		return ""
	}
	return firstLine(c.Error)
}

// diffText says what a Resync changed, one line per kind of change; an
// added or changed capability that now fails to load gets a line of its
// own with the reason (failure says it), since "Changed: calc" read as
// if calc still worked.
func diffText(d cerebellum.Diff, failure func(name string) string) string {
	if d.Empty() {
		return "Nothing changed on disk since the last Resync."
	}
	var b strings.Builder
	line := func(label, failedLabel string, names []string) {
		var fine []string
		var failed []string
		for _, n := range names {
			if why := failure(n); why != "" {
				failed = append(failed, fmt.Sprintf("%s — %s: %s: %s", label, failedLabel, n, why))
				continue
			}
			fine = append(fine, n)
		}
		if len(fine) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(fine, ", "))
		}
		for _, f := range failed {
			b.WriteString(f + "\n")
		}
	}
	line("Added", "fails to load", d.Added)
	line("Changed", "now fails", d.Changed)
	line("Removed", "", d.Removed)
	return strings.TrimRight(b.String(), "\n")
}

// folders maps each workspace capability to its folder.
func folders(caps []*cerebellum.Capability) map[string]string {
	m := make(map[string]string, len(caps))
	for _, c := range caps {
		if c.Dir != "" {
			m[c.Name] = c.Folder
		}
	}
	return m
}

// movedText says which capabilities a Resync found in another folder: the
// diff is by name, so a folder renamed with its name kept reads at most
// as "Changed". Names are sorted.
func movedText(before, after map[string]string) string {
	var lines []string
	for name, to := range after {
		if from, ok := before[name]; ok && from != to {
			lines = append(lines, fmt.Sprintf("%s (folder %s → %s)", name, from, to))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	slices.Sort(lines)
	return "Moved: " + strings.Join(lines, ", ")
}
