package settings

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// mcpName is the built-in capability MCP servers need.
const mcpName = "mcp"

// The per-tool rules as the page says them.
const (
	ruleAsk    = "As annotated"
	ruleAlways = "Always allow"
	ruleNever  = "Never"
)

// mcpPage is Settings → MCP servers: the servers installed as
// capabilities, each with what it runs, Test, Enable/Disable, Remove and
// a rule per tool; and the form that adds one. It depends on the built-in
// mcp capability: missing, off or failed, it says so and its controls
// are inert.
type mcpPage struct {
	env  *bridge.Env
	show func(hint.Page, string)
	dep  *dependentPage // its three-state check

	state    depState
	headline *widget.Label
	depErr   *codeBlock
	banner   *fyne.Container

	names []string
	list  *escList
	// tested is each server's last Test in this window: "" when it
	// connected, else the first line of why not. The core keeps no record
	// of a Test, and a row saying "ok" under a failed Test was a lie.
	tested map[string]string
	// turnOn switches the mcp capability on (shown while it is off).
	turnOn   *escButton
	turnOnD  *escButton
	addShow  *escButton
	importer *mcpImporter
	importB  *escButton
	selected string

	title   *widget.Label
	status  *widget.Label
	launch  *codeBlock
	test    *escButton
	enable  *escButton
	disable *escButton
	remove  *escButton
	outcome *problemLine
	failure *codeBlock
	secrets *secretsBox // what it may use, with Assign and Withdraw
	// signIn is a URL server's sign-in (mcpsignin.go).
	signIn *signInBox
	// logs is the server's log view (mcplogs.go).
	logs *logBox
	// network is the server's network switch; sandbox says what the
	// kernel enforces on it.
	network *escCheck
	sandbox *widget.Label
	toolsHd *widget.Label
	tools   *fyne.Container
	rules   map[string]*escSelect
	empty   *widget.Label
	detail  *fyne.Container

	form  *mcpForm
	right *fyne.Container
	obj   fyne.CanvasObject
}

func newMCPPage(env *bridge.Env, show func(hint.Page, string)) *mcpPage {
	p := &mcpPage{env: env, show: show, dep: &dependentPage{env: env, name: mcpName}, rules: map[string]*escSelect{}, tested: map[string]string{}}
	about := widget.NewLabel("Model Context Protocol servers give the assistant their tools. Each is a capability: its tools are found by tool_search and called through the safety gate; a read-only tool runs, any other asks the first time in a chat.")
	about.Wrapping = fyne.TextWrapWord
	p.headline = widget.NewLabel("")
	p.headline.Wrapping = fyne.TextWrapWord
	p.headline.Importance = widget.WarningImportance
	p.depErr = newCodeBlock(env.Copy, 200)
	open := newButtonWithIcon("Open mcp on the Capabilities page", theme.NavigateNextIcon(), func() {
		p.show(hint.PageCapabilities, mcpName)
	})
	p.turnOn = newButtonWithIcon("Turn mcp on", theme.ConfirmIcon(), p.TurnOnMCP)
	p.turnOn.Importance = widget.HighImportance
	p.turnOnD = newButtonWithIcon("Turn mcp on", theme.ConfirmIcon(), p.TurnOnMCP)
	p.turnOnD.Importance = widget.HighImportance
	p.banner = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, p.headline),
		p.depErr, container.NewHBox(p.turnOn, open), widget.NewSeparator())

	p.list = newList(func() int { return len(p.names) },
		func() fyne.CanvasObject {
			return container.NewBorder(nil, nil, nil, widget.NewLabel("state"), widget.NewLabel("name"))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(p.names[i])
			st := row.Objects[1].(*widget.Label)
			v := p.serverState(p.names[i])
			st.Importance = v.importance
			st.SetText(v.word)
		})
	p.list.OnSelected = func(i widget.ListItemID) {
		if i >= 0 && i < len(p.names) {
			p.Select(p.names[i])
		}
	}
	p.addShow = newButtonWithIcon("Add server…", theme.ContentAddIcon(), p.ShowForm)
	p.importer = newMCPImporter(env, p.refresh)
	p.importB = newButtonWithIcon(mcpImportLabel, theme.DownloadIcon(), p.importer.Show)
	// The import button's words stay short (the page must fit the window
	// it opens in); the apps it reads are said under it, wrapped.
	left := container.NewBorder(nil, container.NewVBox(container.NewHBox(p.addShow), container.NewHBox(p.importB),
		helpText("Reads the MCP servers Claude Desktop, Cursor or VS Code have configured.")), nil, nil, p.list)

	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.SizeName = theme.SizeNameSubHeadingText
	p.status = widget.NewLabel("")
	p.status.Wrapping = fyne.TextWrapWord
	p.launch = newCodeBlock(env.Copy, 160)
	p.test = newButtonWithIcon("Test", theme.MediaPlayIcon(), p.Test)
	p.enable = newButtonWithIcon("Enable…", theme.ConfirmIcon(), p.Enable)
	p.enable.Importance = widget.HighImportance
	p.disable = newButtonWithIcon("Disable", theme.CancelIcon(), p.Disable)
	p.remove = newButtonWithIcon("Remove…", theme.DeleteIcon(), p.Remove)
	p.remove.Importance = widget.DangerImportance
	p.outcome = newProblemLine(env.Show)
	p.failure = newCodeBlock(env.Copy, 240)
	p.failure.Hide()
	p.toolsHd = widget.NewLabelWithStyle("Tools", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.tools = container.NewVBox()
	p.empty = widget.NewLabel("Select a server to see what it runs and its tools, or add one.")
	p.empty.Wrapping = fyne.TextWrapWord
	p.secrets = newSecretsBox(env, p.outcome)
	p.signIn = newSignInBox(env, p.outcome, func() { p.list.Refresh() })
	p.logs = newLogBox(env, p.outcome)
	p.network = newCheck("Network: it may reach the internet", nil)
	p.sandbox = widget.NewLabel("")
	p.sandbox.Wrapping = fyne.TextWrapWord
	p.detail = container.NewVBox(p.title, p.status, p.launch, p.network, p.sandbox,
		container.NewHBox(p.turnOnD, p.test, p.enable, p.disable, p.remove), p.signIn.Object(), p.outcome.Object(), p.failure,
		p.secrets.Object(), widget.NewSeparator(), p.toolsHd, p.tools, p.logs.Object())

	p.form = newMCPForm(env)
	p.form.OnAdded = func(name string) {
		delete(p.tested, name) // a new server of an old name is untested
		p.refresh()
		p.Select(name)
		p.outcome.OK("Added " + name + ", enabled. Test it to see its tools.")
	}
	p.form.OnCancel = func() { p.Select(p.selected) }
	p.right = container.NewStack(p.empty, p.detail, p.form.Object())

	split := container.NewHSplit(left, container.NewVScroll(container.NewPadded(p.right)))
	split.Offset = 0.28
	p.obj = container.NewBorder(container.NewPadded(container.NewVBox(about, p.banner)), nil, nil, nil, split)
	p.refresh()
	p.Select("")
	return p
}

// Object is the page.
func (p *mcpPage) Object() fyne.CanvasObject { return p.obj }

// State is how the mcp capability stood at the last refresh.
func (p *mcpPage) State() depState { return p.state }

// Headline is what the page says is wrong ("" when nothing is).
func (p *mcpPage) Headline() string {
	if p.banner.Hidden {
		return ""
	}
	return p.headline.Text
}

// Has reports whether name is an MCP server's capability.
func (p *mcpPage) Has(name string) bool {
	c, err := p.env.Core.Capabilities().Get(name)
	return err == nil && c.Kind == cerebellum.KindMCP
}

// refresh reads the servers and the dependency again.
func (p *mcpPage) refresh() {
	p.state, p.names = p.checkDep(), nil
	for _, c := range p.env.Core.Capabilities().List() {
		if c.Kind == cerebellum.KindMCP {
			p.names = append(p.names, c.Name)
		}
	}
	sort.Strings(p.names)
	p.list.Refresh()
	p.form.SetEnabled(p.state == depOK)
	if p.state == depOK {
		p.addShow.Enable()
		p.importB.Enable()
	} else {
		p.addShow.Disable()
		p.importB.Disable()
	}
	if p.selected != "" && !p.Has(p.selected) {
		p.selected = ""
	}
	if !p.form.Object().Visible() {
		p.showDetail()
	}
}

// checkDep is dependent.go's three-state check of the mcp capability,
// shown in the banner.
func (p *mcpPage) checkDep() depState {
	state, c := p.dep.check()
	p.depErr.Hide()
	switch state {
	case depMissing:
		p.headline.SetText("The mcp capability is missing: it is not installed in this workspace, so MCP servers cannot be added, tested or used. Restore it from the Trash on the Capabilities page.")
	case depOff:
		p.headline.SetText("The mcp capability is switched off: MCP servers' tools are not offered to the assistant, and servers cannot be added or tested until it is on again.")
	case depFailed:
		p.headline.SetText("The mcp capability failed to load: " + firstLine(c.Error))
		text := c.Detail
		if text == "" {
			text = c.Error
		}
		p.depErr.Set("Error", text)
		p.depErr.Show()
	}
	p.banner.Hidden = state == depOK
	p.turnOn.Hidden = state != depOff
	p.banner.Refresh()
	return state
}

// serverView is how a server stands, said once for its row and its
// detail so the two agree: the row's word, the detail's sentence and the
// colour of both.
type serverView struct {
	word       string
	status     string
	importance widget.Importance
	// lapsed: on, but a file its command runs changed since it was
	// approved, so it does not start until approved again.
	lapsed bool
}

// serverState says how server name stands, from the most telling fact
// down: its capability's own state, the mcp capability it needs, whether
// it runs, the last Test in this window, the last start.
func (p *mcpPage) serverState(name string) serverView {
	c, err := p.env.Core.Capabilities().Get(name)
	if err != nil {
		return serverView{}
	}
	switch c.State {
	case cerebellum.StateDisabled:
		v := serverView{word: "off", importance: widget.WarningImportance,
			status: "Switched off. Read what it runs before enabling it: it runs on your computer with your permissions."}
		if c.Unapproved != "" {
			v.status = "Off until you enable it: " + c.Unapproved + ". Read what it runs first."
		}
		return v
	case cerebellum.StateFailed:
		return serverView{word: "failed", importance: widget.DangerImportance, status: "Failed: " + firstLine(c.Error)}
	}
	switch p.state {
	case depOff:
		return serverView{word: "won't start", importance: widget.WarningImportance,
			status: "Enabled, but it won't start: the mcp capability is switched off, and no MCP server starts until it is on again (Turn mcp on)."}
	case depMissing:
		return serverView{word: "won't start", importance: widget.WarningImportance,
			status: "Enabled, but it won't start: the mcp capability is missing from this workspace. Restore it from the Trash on the Capabilities page."}
	case depFailed:
		return serverView{word: "won't start", importance: widget.WarningImportance,
			status: "Enabled, but it won't start: the mcp capability failed to load (see above)."}
	}
	st, stErr := p.env.Core.MCPStatus(name)
	if stErr == nil && st.State == cerebellum.RuntimeRunning {
		return serverView{word: "running", importance: widget.SuccessImportance, status: "Running: the assistant is using it now; it stops when idle."}
	}
	if why, ok := p.tested[name]; ok && why != "" {
		return serverView{word: "test failed", importance: widget.DangerImportance,
			status: "Enabled, but its last Test failed: " + why + ". The assistant's calls to it will fail the same way until that is fixed; Test again after."}
	}
	if stErr == nil && st.Error != "" {
		if strings.Contains(st.Error, mcp.ErrNotApproved.Error()) {
			return serverView{word: "needs approval", importance: widget.WarningImportance, lapsed: true,
				status: "Enabled, but it does not start: " + firstLine(st.Error) + " (Enable…)."}
		}
		word := "start failed"
		if st.State == cerebellum.RuntimeCrashed {
			word = "crashed"
		}
		return serverView{word: word, importance: widget.DangerImportance, status: "Enabled; its last start failed: " + firstLine(st.Error)}
	}
	if why, ok := p.tested[name]; ok && why == "" {
		return serverView{word: "ok", importance: widget.SuccessImportance,
			status: "Enabled, and its last Test connected. It starts when the assistant first uses it and stops when idle."}
	}
	return serverView{word: "enabled", importance: widget.MediumImportance,
		status: "Enabled, not tested yet: it starts when the assistant first uses it and stops when idle. Test shows that it connects."}
}

// TurnOnMCP switches the mcp capability on: the servers can start again.
func (p *mcpPage) TurnOnMCP() {
	p.run(func(core *assistant.App) error { return core.Enable(mcpName, nil) }, "The mcp capability is on: MCP servers start when the assistant uses them.")
}

// ShowForm shows the add form in place of the selected server.
func (p *mcpPage) ShowForm() {
	p.form.Reset()
	p.empty.Hide()
	p.detail.Hide()
	p.form.Object().Show()
	p.right.Refresh()
}

// Select shows server name ("" for none).
func (p *mcpPage) Select(name string) {
	if name != p.selected {
		p.outcome.Clear()
		p.failure.Hide()
	}
	p.selected = name
	p.form.Object().Hide()
	p.showDetail()
	for i, n := range p.names {
		if n == name {
			p.list.Select(i)
		}
	}
}

// Selected is the server shown.
func (p *mcpPage) Selected() string { return p.selected }

// showDetail fills the right side with the selected server.
func (p *mcpPage) showDetail() {
	c, err := p.env.Core.Capabilities().Get(p.selected)
	if p.selected == "" || err != nil {
		p.detail.Hide()
		p.empty.Show()
		p.right.Refresh()
		return
	}
	p.empty.Hide()
	p.detail.Show()
	p.title.SetText(c.Name)
	p.launch.Set("It runs", c.Launch())
	off := c.State == cerebellum.StateDisabled
	v := p.serverState(c.Name)
	lapsed := v.lapsed
	p.status.Importance = v.importance
	p.status.SetText(v.status)
	p.status.Refresh()
	p.turnOnD.Hidden = p.state != depOff || off
	p.showSandbox(c)
	p.enable.Hidden, p.disable.Hidden = !off && !lapsed, off
	ok := p.state == depOK
	for _, b := range []*escButton{p.test, p.enable, p.disable} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	p.secrets.Show(c.Name)
	p.signIn.Show(c)
	p.logs.Show(c.Name)
	p.loadTools()
	p.detail.Refresh()
	p.right.Refresh()
}

// showSandbox shows the network switch of a server Wrasse runs and what
// the kernel enforces on it, and what it does not.
func (p *mcpPage) showSandbox(c *cerebellum.Capability) {
	p.network.OnChanged = nil // setting the box is not the person's toggle
	stdio := c.Manifest != nil && c.Manifest.MCP != nil && c.Manifest.MCP.URL == ""
	p.network.Hidden = !stdio
	p.network.SetChecked(!c.NoNetwork)
	name := c.Name
	p.network.OnChanged = func(on bool) {
		done := "The network is on for " + name + "; it starts with it on its next use."
		if !on {
			done = "The network is off for " + name + "; it starts without it on its next use."
		}
		p.run(func(core *assistant.App) error { return core.SetMCPNetwork(name, on) }, done)
	}
	if p.state == depOK {
		p.network.Enable()
	} else {
		p.network.Disable()
	}
	p.sandbox.Hide()
	info, err := p.env.Core.Sandbox(name)
	if err != nil {
		return
	}
	text := "Sandbox: " + info.Summary
	for _, g := range info.Gaps {
		text += "\nNot enforced: " + g
	}
	p.sandbox.Importance = widget.MediumImportance
	if len(info.Gaps) > 0 {
		p.sandbox.Importance = widget.WarningImportance
	}
	p.sandbox.SetText(text)
	p.sandbox.Show()
}

// loadTools shows the tools as last listed (no server started).
func (p *mcpPage) loadTools() {
	rep, err := p.env.Core.MCPCatalog(p.selected)
	if err != nil {
		p.outcome.Error(err)
		return
	}
	p.showTools(rep)
}

// showTools lists the tools with their annotations and the rule for each.
func (p *mcpPage) showTools(rep assistant.MCPReport) {
	p.tools.RemoveAll()
	p.rules = map[string]*escSelect{}
	switch {
	case rep.Elapsed > 0 && rep.Listed.IsZero():
		p.toolsHd.SetText(fmt.Sprintf("Tools: %d, just listed", len(rep.Tools)))
	case rep.Listed.IsZero():
		p.toolsHd.SetText("Tools: not known yet (Test connects and lists them)")
	default:
		p.toolsHd.SetText(fmt.Sprintf("Tools: %d, listed %s", len(rep.Tools), rep.Listed.Local().Format("2006-01-02 15:04")))
	}
	name := p.selected
	for _, t := range rep.Tools {
		label := widget.NewLabelWithStyle(t.ModelName, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		notes := widget.NewLabel(toolNotes(t))
		notes.SizeName = theme.SizeNameCaptionText
		desc := widget.NewLabel(cerebellum.OneLine(t.Description, 160))
		desc.Wrapping = fyne.TextWrapWord
		rule := newSelect([]string{ruleAsk, ruleAlways, ruleNever}, nil)
		// A select is as wide as its placeholder, which never shows here:
		// the widest rule, so none is cut short ("As annotat…").
		rule.PlaceHolder = widestRule()
		rule.SetSelected(ruleOf(t.Policy))
		tool := t.Name
		rule.OnChanged = func(v string) { p.setRule(name, tool, v) }
		if p.state != depOK {
			rule.Disable()
		}
		p.rules[t.Name] = rule
		p.tools.Add(container.NewBorder(nil, nil, nil, container.NewCenter(rule), container.NewVBox(label, notes, desc)))
		p.tools.Add(widget.NewSeparator())
	}
	p.tools.Refresh()
}

// toolNotes says a tool's annotations (MCPTool.Hints, in words) and what
// the gate does with it.
func toolNotes(t assistant.MCPTool) string {
	words := map[string]string{"destructive": "may change or delete things", "open-world": "reaches outside (open world)"}
	var hints []string
	for _, h := range t.Hints() {
		if w, ok := words[h]; ok {
			h = w
		}
		hints = append(hints, h)
	}
	runs := map[string]string{"allow": "runs without asking", "ask": "asks the first time in a chat", "never": "never runs"}[t.Runs]
	if len(hints) == 0 {
		return runs
	}
	return strings.Join(hints, ", ") + " · " + runs
}

// widestRule is the rule whose name takes the most room.
func widestRule() string {
	size := theme.TextSize()
	widest, w := "", float32(0)
	for _, r := range []string{ruleAsk, ruleAlways, ruleNever} {
		if rw := fyne.MeasureText(r, size, fyne.TextStyle{}).Width; rw > w {
			widest, w = r, rw
		}
	}
	return widest
}

func ruleOf(p assistant.MCPToolPolicy) string {
	switch p {
	case cerebellum.PolicyAlways:
		return ruleAlways
	case cerebellum.PolicyNever:
		return ruleNever
	}
	return ruleAsk
}

// setRule stores the rule for one tool; the list shows what the gate does now.
func (p *mcpPage) setRule(name, tool, rule string) {
	policy := map[string]assistant.MCPToolPolicy{ruleAsk: cerebellum.PolicyAsk, ruleAlways: cerebellum.PolicyAlways, ruleNever: cerebellum.PolicyNever}[rule]
	core := p.env.Core
	p.env.Go(func() {
		err := core.SetMCPToolPolicy(name, tool, policy)
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.outcome.OK(fmt.Sprintf("%s of %s: %s.", tool, name, strings.ToLower(rule)))
			if p.selected == name {
				p.loadTools()
			}
		})
	})
}

// approve asks the user to approve what the selected server runs, then
// calls then with the ApprovalKey of what was shown: what the approval
// covers, refused where it is used when the server changed meanwhile.
// verb is what approving does ("Enable", "Test").
func (p *mcpPage) approve(verb, why string, then func(shown string)) {
	c, err := p.env.Core.Capabilities().Get(p.selected)
	if err != nil {
		p.outcome.Error(err)
		return
	}
	// Hashing the files it runs reads them (a runtime may be large): not
	// on the UI goroutine.
	p.env.Go(func() {
		shown := c.ApprovalKey()
		p.env.Do(func() {
			text := widget.NewLabel(why)
			text.Wrapping = fyne.TextWrapWord
			block := newCodeBlock(p.env.Copy, 200)
			block.Set("It runs", c.Launch())
			content := container.NewVBox(text, block)
			d := dialog.NewCustomConfirm(verb+" "+c.Name+"?", "Approve and "+strings.ToLower(verb), "Cancel", content, func(ok bool) {
				if ok {
					then(shown)
				}
			}, p.env.Window)
			d.Resize(fyne.NewSize(640, 320))
			d.Show()
		})
	})
}

// Enable switches the selected server on after the user approved what it
// runs.
func (p *mcpPage) Enable() {
	name := p.selected
	p.approve("Enable", "Enabling "+name+" lets the assistant start this on your computer, with your permissions:", func(shown string) {
		p.run(func(core *assistant.App) error { return core.EnableShown(name, nil, shown) }, "Enabled "+name+".")
	})
}

// Disable switches the selected server off (it stops).
func (p *mcpPage) Disable() {
	name := p.selected
	p.run(func(core *assistant.App) error { return core.Disable(name) }, "Switched "+name+" off.")
}

// Remove moves the selected server to the trash, once confirmed.
func (p *mcpPage) Remove() {
	name := p.selected
	confirm.New("Remove "+name+"?", "Move the MCP server "+name+" to the Trash? It can be restored for 7 days from the Capabilities page.", "Yes", "No", func(ok bool) {
		if !ok {
			return
		}
		core := p.env.Core
		p.env.Go(func() {
			err := core.Remove(context.Background(), name)
			p.env.Do(func() {
				if err != nil {
					p.outcome.Error(err)
					return
				}
				delete(p.tested, name)
				p.refresh()
				p.Select("")
			})
		})
	}, p.env.Window).Show()
}

// run changes the server through the core in the background.
func (p *mcpPage) run(fn func(*assistant.App) error, done string) {
	core := p.env.Core
	p.env.Go(func() {
		err := fn(core)
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
				return
			}
			p.refresh()
			p.outcome.OK(done)
		})
	})
}

// testTimeout bounds a Test (the server's own connect timeout is
// shorter; this is for a server that never answers at all).
const testTimeout = 2 * time.Minute

// Test connects to the selected server and lists its tools; a failure
// shows the server's last lines. A server that is off runs only after
// the user approved what it runs.
func (p *mcpPage) Test() {
	c, err := p.env.Core.Capabilities().Get(p.selected)
	if err != nil {
		p.outcome.Error(err)
		return
	}
	if c.State == cerebellum.StateDisabled {
		p.approve("Test", "Testing "+c.Name+" starts this on your computer once, with your permissions, and stops it:", p.runTest)
		return
	}
	p.runTest("")
}

// runTest connects to the selected server and lists what it offers; shown
// is the ApprovalKey of the command the person just approved running
// once ("" for an enabled server, which holds to its approval).
func (p *mcpPage) runTest(shown string) {
	name := p.selected
	core := p.env.Core
	p.test.Disable()
	p.failure.Hide()
	p.outcome.Info("Connecting to " + name + "…")
	p.env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		test := core.TestMCP
		if shown != "" {
			test = func(ctx context.Context, name string) (assistant.MCPReport, error) {
				return core.TestMCPShown(ctx, name, shown)
			}
		}
		rep, err := test(ctx, name)
		p.env.Do(func() {
			p.test.Enable()
			if err != nil {
				p.tested[name] = firstLine(err.Error())
			} else {
				p.tested[name] = ""
			}
			p.list.Refresh()
			if p.selected != name {
				return
			}
			p.showDetail()
			if err != nil {
				p.outcome.Error(fmt.Errorf("%s did not connect: %s", name, firstLine(err.Error())))
				p.failure.Set("What happened (with the server's last output)", err.Error())
				p.failure.Show()
				return
			}
			p.outcome.OK(fmt.Sprintf("%s connected in %s: %d tools, %d prompts, %d resources.", name,
				rep.Elapsed.Round(time.Millisecond), len(rep.Tools), len(rep.Prompts), len(rep.Resources)))
			p.showTools(rep)
			p.list.Refresh()
		})
	})
}
