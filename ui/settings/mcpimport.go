package settings

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// mcpImporter is the MCP servers page's "Import from Claude Desktop /
// Cursor / VS Code…": it offers the configuration files of those clients
// found on this computer (or a file picked by hand) and imports one as
// `wrasse mcp import` does, showing the same report of what was taken
// (installed switched off) and what was skipped, and why.
type mcpImporter struct {
	env *bridge.Env
	// home and goos say where to look (the person's home folder, the
	// system): fields so tests can point them at a fixture.
	home, goos, appData string
	// done runs after an import, on the UI goroutine (the page reloads).
	done func()
	// report is the last report shown, for tests.
	report *codeBlock
}

func newMCPImporter(env *bridge.Env, done func()) *mcpImporter {
	home, _ := os.UserHomeDir()
	return &mcpImporter{env: env, home: home, goos: runtime.GOOS, appData: os.Getenv("APPDATA"), done: done}
}

// label is the button's text.
const mcpImportLabel = "Import from other apps…"

// Show offers the files found, and a picker.
func (im *mcpImporter) Show() {
	found := assistant.KnownMCPConfigs(im.home, im.goos, im.appData)
	intro := "Choose whose MCP servers to import. Each is installed switched off: read what it runs, then switch it on. Nothing is changed in the other program."
	if len(found) == 0 {
		intro = "No configuration of Claude Desktop, Cursor or VS Code was found in the usual places. Choose the file (claude_desktop_config.json, mcp.json or .vscode/mcp.json)."
	}
	msg := widget.NewLabel(intro)
	msg.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(msg)
	var d dialog.Dialog
	for _, f := range found {
		box.Add(newButton(fmt.Sprintf("%s: %s", f.Client, f.Path), func() {
			d.Hide()
			im.Import(f.Path)
		}))
	}
	box.Add(newButton("Choose a file…", func() {
		d.Hide()
		fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			p := r.URI().Path()
			r.Close()
			im.Import(p)
		}, im.env.Window)
		fd.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
		fd.Show()
	}))
	d = dialog.NewCustom("Import MCP servers", "Cancel", box, im.env.Window)
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
}

// Import imports the servers of one configuration file in the background
// and shows the report in a dialog.
func (im *mcpImporter) Import(path string) {
	im.env.Go(func() {
		rep, err := im.env.Core.ImportMCPFile(context.Background(), path, false)
		im.env.Do(func() {
			block := newCodeBlock(im.env.Copy, 360)
			im.report = block
			if err != nil {
				block.Set("Nothing was imported", fmt.Sprintf("✗ %s\n%s", path, indent(err.Error(), "  ")))
			} else {
				taken := 0
				for _, s := range rep.Servers {
					if s.Taken {
						taken++
					}
				}
				block.Set(fmt.Sprintf("Imported %d of %d servers from %s", taken, len(rep.Servers), rep.Format), rep.String())
			}
			d := dialog.NewCustom("Import MCP servers", "Close", block, im.env.Window)
			d.Resize(fyne.NewSize(720, 0))
			d.Show()
			if im.done != nil {
				im.done()
			}
		})
	})
}
