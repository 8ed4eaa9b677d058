package settings

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// importer installs capabilities from the file picker, the folder picker
// and drops. The core validates each input completely before anything is
// written; the outcome of each, or every validation error, is reported
// through show as one code block.
type importer struct {
	env  *bridge.Env
	show func(title, text string)
	// started, when set, is told an import begins (the page clears the
	// last outcome).
	started func()
}

func newImporter(env *bridge.Env, show func(title, text string)) *importer {
	return &importer{env: env, show: show}
}

// PickFile opens the file picker for SKILL.md files and archives.
func (im *importer) PickFile() {
	d := dialog.NewFileOpen(im.FilePicked, im.env.Window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".md", ".zip", ".skill", ".mcpb", ".dxt"}))
	d.Show()
}

// PickFolder opens the folder picker for a capability folder.
func (im *importer) PickFolder() {
	dialog.NewFolderOpen(im.FolderPicked, im.env.Window).Show()
}

// FilePicked is the file picker's callback.
func (im *importer) FilePicked(r fyne.URIReadCloser, err error) {
	if err != nil {
		im.show("Import", "The file picker failed: "+err.Error())
		return
	}
	if r == nil {
		return // cancelled
	}
	uri := r.URI()
	r.Close()
	im.Import([]fyne.URI{uri})
}

// FolderPicked is the folder picker's callback.
func (im *importer) FolderPicked(l fyne.ListableURI, err error) {
	if err != nil {
		im.show("Import", "The folder picker failed: "+err.Error())
		return
	}
	if l == nil {
		return
	}
	im.Import([]fyne.URI{l})
}

// Import installs each input in turn, in the background, and reports all
// of them together.
func (im *importer) Import(uris []fyne.URI) {
	var paths, skipped, bundles []string
	for _, u := range uris {
		if u == nil {
			continue
		}
		if u.Scheme() != "file" {
			skipped = append(skipped, u.String())
			continue
		}
		if isBundlePath(u.Path()) {
			bundles = append(bundles, u.Path()) // asked for their settings first (bundleform.go)
			continue
		}
		paths = append(paths, u.Path())
	}
	if len(paths) == 0 && len(skipped) == 0 {
		im.importBundles(bundles, nil)
		return
	}
	im.install(paths, skipped, false)
	im.importBundles(bundles, nil)
}

// install installs paths (replacing installed capabilities of the same
// name when replace is set) and reports them; inputs that clash with an
// installed capability are offered for replacing afterwards.
func (im *importer) install(paths, skipped []string, replace bool) {
	if im.started != nil {
		im.started()
	}
	im.env.Go(func() {
		var parts, clashes, clashNames []string
		var colls []collectionDrop
		ok, failed := 0, 0
		for _, p := range paths {
			res, err := im.env.Core.Install(context.Background(), p, replace)
			var coll *manage.CollectionError
			if errors.As(err, &coll) {
				// Several skills: the user picks which, in a checklist.
				colls = append(colls, collectionDrop{path: p, c: coll.Collection})
				continue
			}
			if err != nil {
				failed++
				parts = append(parts, rejectedText(p, err))
				if errors.Is(err, cerebellum.ErrExists) {
					clashes = append(clashes, p)
					clashNames = append(clashNames, installedName(p, err))
				}
				continue
			}
			ok++
			parts = append(parts, installedText(p, res))
		}
		for _, s := range skipped {
			failed++
			parts = append(parts, "✗ "+s+"\n  Only files and folders on this computer can be imported.")
		}
		title := importTitle(ok, failed)
		text := strings.Join(parts, "\n\n")
		im.env.Do(func() {
			if ok+failed > 0 {
				im.show(title, text)
			}
			if len(clashes) > 0 {
				im.offerReplace(clashes, clashNames)
			}
			im.offerCollections(colls)
		})
	})
}

// collectionDrop is a dropped or picked input holding several skills.
type collectionDrop struct {
	path string
	c    *stage.Collection
}

// offerCollections shows a checklist for each collection in turn: every
// skill it holds, ticked unless staging it is known to fail. Installing
// installs the ticked ones, each validated and installed on its own.
func (im *importer) offerCollections(colls []collectionDrop) {
	if len(colls) == 0 {
		return
	}
	cd, rest := colls[0], colls[1:]
	checks := make([]*escCheck, len(cd.c.Skills))
	items := container.NewVBox()
	for i, f := range cd.c.Skills {
		label := fmt.Sprintf("%s (%s)", f.Name, plural(f.Files, "file", "files"))
		checks[i] = newCheck(label, nil)
		checks[i].SetChecked(f.Problem == nil)
		items.Add(checks[i])
		if f.Problem != nil {
			why := widget.NewLabel("Will not install: " + f.Problem.Error())
			why.Wrapping = fyne.TextWrapWord
			why.Importance = widget.WarningImportance
			items.Add(why)
		}
	}
	intro := widget.NewLabel(fmt.Sprintf("%s holds %d skills. Choose which to install: each is validated and installed on its own, so one that fails does not stop the others.",
		filepath.Base(cd.path), len(cd.c.Skills)))
	intro.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(items)
	scroll.SetMinSize(fyne.NewSize(420, min(float32(len(cd.c.Skills))*40+8, 320)))
	d := dialog.NewCustomConfirm("Install skills from a collection", "Install", "Cancel",
		container.NewBorder(intro, nil, nil, nil, scroll), func(yes bool) {
			var roots []string
			for i, ch := range checks {
				if ch.Checked {
					roots = append(roots, cd.c.Skills[i].Root)
				}
			}
			if yes && len(roots) > 0 {
				im.installCollection(cd.path, roots, false, func() { im.offerCollections(rest) })
				return
			}
			im.offerCollections(rest)
		}, im.env.Window)
	d.Resize(fyne.NewSize(480, 0))
	d.Show()
}

// installCollection installs the chosen skills (by root) of a collection
// (replacing installed ones of the same name when replace is set) and
// reports each; skills that clash with an installed capability are offered
// for replacing. Then it calls next on the UI goroutine.
func (im *importer) installCollection(path string, roots []string, replace bool, next func()) {
	if im.started != nil {
		im.started()
	}
	im.env.Go(func() {
		items, err := im.env.Core.InstallCollection(context.Background(), path, roots, replace)
		var parts []string
		var clashes, clashNames []string
		ok, failed := 0, 0
		if err != nil {
			failed++
			parts = append(parts, rejectedText(path, err))
		}
		for _, it := range items {
			if it.Err != nil {
				failed++
				parts = append(parts, rejectedText(path+": "+it.Name, it.Err))
				if !replace && errors.Is(it.Err, cerebellum.ErrExists) {
					clashes, clashNames = append(clashes, it.Root), append(clashNames, it.Name)
				}
				continue
			}
			ok++
			parts = append(parts, installedText(path, it.Result))
		}
		title, text := importTitle(ok, failed), strings.Join(parts, "\n\n")
		im.env.Do(func() {
			im.show(title, text)
			if len(clashes) > 0 {
				im.offerCollectionReplace(path, clashes, clashNames, next)
				return
			}
			next()
		})
	})
}

// offerCollectionReplace asks whether a collection's skills that clash
// with installed capabilities should replace them, as offerReplace does
// for single imports, then goes on with next either way.
func (im *importer) offerCollectionReplace(path string, roots, names []string, next func()) {
	them := "them"
	if len(names) == 1 {
		them = "it"
	}
	confirm.Show("Replace "+commalist.Prose(names)+"?",
		fmt.Sprintf("%s holds %s, already installed. Replace %s with the version in the collection? "+
			"The installed one stays until the new one has validated.",
			filepath.Base(path), strings.Join(names, ", "), them),
		"Yes", "No",
		func(yes bool) {
			if yes {
				im.installCollection(path, roots, true, next)
				return
			}
			next()
		}, im.env.Window)
}

// installedName is the installed capability an import clashed with, as
// the core's hint names it; the input's file name when it does not.
func installedName(path string, err error) string {
	if h, ok := hint.Of(err); ok && h.Target != "" {
		return h.Target
	}
	return filepath.Base(path)
}

// offerReplace asks whether inputs whose capability (names, one per
// input) is already installed should replace it, naming each. The
// installed version stays until the new one has validated, so saying yes
// loses nothing if the new one is broken.
func (im *importer) offerReplace(paths, names []string) {
	what := names[0] + " is installed already. Replace it with the version you imported?"
	if len(names) > 1 {
		what = commalist.Prose(names) + " are installed already. Replace them with the versions you imported?"
	}
	confirm.Show("Replace "+commalist.Prose(names)+"?",
		what+" The installed one stays until the new one has validated.",
		"Yes", "No",
		func(yes bool) {
			if yes {
				im.install(paths, nil, true)
			}
		}, im.env.Window)
}

func importTitle(ok, failed int) string {
	switch {
	case failed == 0:
		return "Imported " + plural(ok, "capability", "capabilities")
	case ok == 0:
		return "Import rejected: nothing was written"
	}
	return fmt.Sprintf("Imported %d, rejected %d (nothing was written for those)", ok, failed)
}

func installedText(path string, res *manage.InstallResult) string {
	var b strings.Builder
	verb := "Installed"
	if res.Replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(&b, "✓ %s %s from %s", verb, res.Name, path)
	if rep := res.Report; rep != nil {
		fmt.Fprintf(&b, "\n  %s", kindName(rep.Kind))
		if len(rep.Tools) > 0 {
			fmt.Fprintf(&b, ", tools: %s", strings.Join(rep.Tools, ", "))
		}
		if len(rep.Permissions) > 0 {
			fmt.Fprintf(&b, "\n  It asks for %s: select it below to grant them.", strings.Join(rep.Permissions, ", "))
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(&b, "\n  warning: %s", w)
		}
	}
	if res.Disabled {
		b.WriteString("\n  Installed switched off: review it and switch it on.")
	}
	if len(res.Ignored) > 0 {
		fmt.Fprintf(&b, "\n  Ignored: %s", strings.Join(res.Ignored, ", "))
	}
	return b.String()
}

// rejectedText shows every validation error, each on its own line.
func rejectedText(path string, err error) string {
	msg := err.Error()
	return "✗ " + path + "\n" + indent(msg, "  ")
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n")
}
