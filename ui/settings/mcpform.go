package settings

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// Ways to reach a server, as the add form's choice says them.
const (
	mcpViaCommand = "A command Wrasse runs"
	mcpViaURL     = "A URL (streamable HTTP)"
)

// mcpForm adds a server by hand: its name, and a command with arguments,
// environment and folder, or a URL with headers. The core validates and
// installs it (enabled: the user wrote what it runs).
type mcpForm struct {
	env *bridge.Env
	// OnAdded is called with the new capability's name.
	OnAdded func(name string)
	// OnCancel closes the form.
	OnCancel func()

	name, command, cwd, url *escEntry
	args, vars, headers     *escEntry
	via                     *widget.RadioGroup
	cmdBox, urlBox          *fyne.Container
	add                     *escButton
	outcome                 *problemLine
	obj                     fyne.CanvasObject
}

func newMCPForm(env *bridge.Env) *mcpForm {
	f := &mcpForm{env: env}
	f.name = newEntry()
	f.name.SetPlaceHolder("everything")
	f.command = newEntry()
	f.command.SetPlaceHolder("npx")
	f.args = newMultiLineEntry()
	f.args.SetPlaceHolder("-y\n@modelcontextprotocol/server-everything")
	f.args.SetMinRowsVisible(3)
	f.vars = newMultiLineEntry()
	f.vars.SetPlaceHolder("LOG_LEVEL=info\nAPI_KEY=… (stored as a secret)")
	f.vars.SetMinRowsVisible(2)
	f.cwd = newEntry()
	f.cwd.SetPlaceHolder("optional: the folder it runs in")
	f.url = newEntry()
	f.url.SetPlaceHolder("https://example.com/mcp")
	f.headers = newMultiLineEntry()
	f.headers.SetPlaceHolder("Authorization=Bearer … (stored as a secret)")
	f.headers.SetMinRowsVisible(2)

	cmdForm := widget.NewForm(widget.NewFormItem("Command", f.command),
		widget.NewFormItem("Arguments", f.args), widget.NewFormItem("Environment", f.vars), widget.NewFormItem("Folder", f.cwd))
	cmdForm.Items[1].HintText = "one per line, passed exactly as written"
	cmdForm.Items[2].HintText = "NAME=value, one per line; ${secret:NAME} uses a stored secret"
	f.cmdBox = container.NewVBox(cmdForm)
	urlForm := widget.NewForm(widget.NewFormItem("URL", f.url), widget.NewFormItem("Headers", f.headers))
	urlForm.Items[1].HintText = "Name=value, one per line"
	f.urlBox = container.NewVBox(urlForm)
	f.via = widget.NewRadioGroup([]string{mcpViaCommand, mcpViaURL}, func(v string) {
		f.cmdBox.Hidden = v == mcpViaURL
		f.urlBox.Hidden = v != mcpViaURL
		f.cmdBox.Refresh()
		f.urlBox.Refresh()
	})
	f.via.Horizontal = true
	f.via.Required = true
	f.via.SetSelected(mcpViaCommand)

	f.add = newButtonWithIcon("Add server", theme.ContentAddIcon(), f.Submit)
	f.add.Importance = widget.HighImportance
	cancel := newButton("Cancel", func() {
		if f.OnCancel != nil {
			f.OnCancel()
		}
	})
	f.outcome = newProblemLine(env.Show)
	title := widget.NewLabelWithStyle("Add an MCP server", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	about := widget.NewLabel("A server you add here is enabled at once: you wrote what it runs. Values of variables and headers named like a token, key or password are stored as secrets, never in its folder.")
	about.Wrapping = fyne.TextWrapWord
	f.obj = container.NewVBox(title, about, widget.NewForm(widget.NewFormItem("Name", f.name)), f.via,
		f.cmdBox, f.urlBox, container.NewHBox(f.add, cancel), f.outcome.Object())
	return f
}

// Object is the form.
func (f *mcpForm) Object() fyne.CanvasObject { return f.obj }

// Reset empties the form.
func (f *mcpForm) Reset() {
	for _, e := range []*escEntry{f.name, f.command, f.args, f.vars, f.cwd, f.url, f.headers} {
		e.SetText("")
	}
	f.via.SetSelected(mcpViaCommand)
	f.outcome.Clear()
}

// SetEnabled wakes or stills the form (the page's dependency decides).
func (f *mcpForm) SetEnabled(on bool) {
	if on {
		f.add.Enable()
	} else {
		f.add.Disable()
	}
}

// Server is the server the form describes, or why it is not one yet.
func (f *mcpForm) Server() (assistant.MCPServer, error) {
	s := assistant.MCPServer{Name: strings.TrimSpace(f.name.Text)}
	if f.via.Selected == mcpViaURL {
		s.URL = strings.TrimSpace(f.url.Text)
		h, err := pairLines(f.headers.Text, "Headers")
		s.Headers = h
		return s, err
	}
	s.Command = strings.TrimSpace(f.command.Text)
	s.Cwd = strings.TrimSpace(f.cwd.Text)
	for _, line := range strings.Split(f.args.Text, "\n") {
		if line = strings.TrimRight(line, "\r"); line != "" {
			s.Args = append(s.Args, line)
		}
	}
	vars, err := pairLines(f.vars.Text, "Environment")
	s.Env = vars
	return s, err
}

// Submit adds the server through the core.
func (f *mcpForm) Submit() {
	s, err := f.Server()
	if err != nil {
		f.outcome.Error(err)
		return
	}
	f.add.Disable()
	f.outcome.Info("Adding " + s.Name + "…")
	core := f.env.Core
	f.env.Go(func() {
		res, err := core.AddMCP(context.Background(), s, false)
		f.env.Do(func() {
			f.add.Enable()
			if err != nil {
				f.outcome.Error(err)
				return
			}
			f.outcome.Clear()
			if f.OnAdded != nil {
				f.OnAdded(res.Name)
			}
		})
	})
}

// pairLines reads NAME=value lines; blank lines are skipped.
func pairLines(text, field string) (map[string]string, error) {
	var out map[string]string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%s, line %d: write NAME=value, not %q", field, i+1, line)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}
