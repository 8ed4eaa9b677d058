package settings

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// The settings' share of the default 1100×720 window (the sidebar takes
// the rest of the width).
var settingsArea = fyne.NewSize(800, 720)

// absPos is o's position in the window's canvas.
func (h *harness) absPos(o fyne.CanvasObject) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
}

// deadURL is a base URL where nothing answers.
func deadURL(t *testing.T) string {
	m := providertest.NewModel(t, providertest.OpenAI)
	base := m.BaseURL()
	m.Close()
	return base
}

// A failed Test lays its text out at the page's width with the hint
// button under it, in sentences, without sending the user to the page
// they are on; the page scrolls far enough to show all of it.
func TestModelTestFailureLayout(t *testing.T) {
	h := newHarness(t, nil)
	h.win.Resize(settingsArea)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	fill(p, "openai", deadURL(t), "alpha", "", "")
	h.tap("Test")

	text := p.outcome.Text()
	if !strings.Contains(text, "No server answered at the base URL. No model answered at") {
		t.Errorf("sentences are not joined: %q", text)
	}
	if strings.Contains(text, "model settings") {
		t.Errorf("the Model page sends the user to the model settings: %q", text)
	}
	if !strings.HasSuffix(text, ".") {
		t.Errorf("the outcome does not end a sentence: %q", text)
	}
	label, fix := p.outcome.label, p.outcome.fix
	if !fix.Visible() {
		t.Fatal("no hint button")
	}
	content := p.page.scroll.Content
	if w := label.Size().Width; w < 0.8*content.Size().Width {
		t.Errorf("the outcome is squeezed to %.0f px of %.0f", w, content.Size().Width)
	}
	lp, fp := h.absPos(label), h.absPos(fix)
	if fp.Y < lp.Y+label.Size().Height-1 {
		t.Errorf("the button (y=%.0f) is not below the text (y=%.0f..%.0f)", fp.Y, lp.Y, lp.Y+label.Size().Height)
	}
	if label.Size().Height < label.MinSize().Height {
		t.Errorf("the text is cut: %.0f of %.0f px", label.Size().Height, label.MinSize().Height)
	}
	// The end of the page, the button, is inside the scrolled content and
	// shows after ScrollToBottom (Test already scrolled there).
	cp := h.absPos(content)
	bottom := fp.Y + fix.Size().Height - cp.Y
	if bottom > content.Size().Height+0.5 {
		t.Errorf("the content (%.0f px) ends before the button's bottom (%.0f px): the page cannot scroll to it", content.Size().Height, bottom)
	}
	view := p.page.scroll.Size().Height
	if off := p.page.Offset().Y; bottom-off > view+0.5 {
		t.Errorf("after Test the button's bottom is at %.0f px of a %.0f px view", bottom-off, view)
	}
}

// Test shows what the model said as it said it, quotes unescaped.
func TestModelTestReplyPlain(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	h := newHarness(t, nil)
	p := h.s.model
	fill(p, "openai", m.BaseURL(), "alpha", "", "")
	m.Reply(providertest.Text(`Say "hi"`))
	h.tap("Test")
	if got := p.outcome.Text(); !strings.Contains(got, `It said: “Say "hi"”`) || strings.Contains(got, `\"`) {
		t.Errorf("outcome %q", got)
	}
}

// A failed model list leaves no note behind once a working URL is saved,
// and its note is two sentences.
func TestModelListNoteClearedOnSave(t *testing.T) {
	h := newHarness(t, nil)
	p := h.s.model
	fill(p, "openai", deadURL(t), "alpha", "", "")
	p.loadModels()
	note := p.listNote.Text
	if !strings.HasPrefix(note, "Could not list the server's models: ") || !strings.HasSuffix(note, ". You can still type a model name.") {
		t.Errorf("list note %q", note)
	}
	if strings.Contains(note, "model settings") {
		t.Errorf("the note sends the user to the page they are on: %q", note)
	}
	m := providertest.NewModel(t, providertest.OpenAI)
	p.baseURL.SetText(m.BaseURL())
	if p.listNote.Text != "" {
		t.Errorf("the failure for the old URL stays while another is typed: %q", p.listNote.Text)
	}
	p.note(note) // as if it had stayed: Save clears it too
	h.tap("Save")
	if strings.Contains(p.listNote.Text, "Could not list") {
		t.Errorf("the old failure stays after saving a new URL: %q", p.listNote.Text)
	}
}

// The model list loads when the view opens on the Model page, not only
// when the tab is switched to.
func TestModelListLoadsWhenTheViewOpens(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI,
		providertest.WithModels(provider.ModelInfo{ID: "alpha"}, provider.ModelInfo{ID: "beta"}))
	h := newHarness(t, nil)
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error { return c.Set("baseURL", m.BaseURL()) }); err != nil {
		t.Fatal(err)
	}
	// The window keeps the view hidden while the chat shows, then shows it.
	h.s.Object().Hide()
	if len(h.s.model.Models()) != 0 {
		t.Fatalf("models listed before the view opened: %v", h.s.model.Models())
	}
	h.s.Object().Show()
	if got := strings.Join(h.s.model.Models(), ","); got != "alpha,beta" {
		t.Errorf("models after opening = %q (%s)", got, h.s.model.listNote.Text)
	}
}

// field finds a dependent page's field.
func field(t *testing.T, p *dependentPage, key string) *depField {
	t.Helper()
	for _, f := range p.fields {
		if f.spec.Key == key {
			return f
		}
	}
	t.Fatalf("no field %s", key)
	return nil
}

func settingValue(t *testing.T, h *harness, name, key string) string {
	t.Helper()
	vals, err := h.core.Settings(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		if v.Key == key {
			return v.Value
		}
	}
	t.Fatalf("%s declares no %s", name, key)
	return ""
}

// The Shell and Web pages refuse what the capabilities cannot use, under
// the field, and confirm what they saved.
func TestShellAndWebValidate(t *testing.T) {
	tests := []struct {
		name  string
		page  string
		key   string
		value string
		// refused is a part of the error under the field ("" = saved).
		refused string
		// stored is what the core then holds; shown what the field says.
		stored, shown string
	}{
		{"a timeout past the plugin's limit", shellName, "timeout", "20m", "at most 10m", "1m0s", "20m"},
		{"a timeout of nothing", shellName, "timeout", "0s", "at least 1s", "1m0s", "0s"},
		{"no duration", shellName, "timeout", "soon", "not a duration", "1m0s", "soon"},
		{"a timeout in range", shellName, "timeout", "5m", "", "5m0s", "5m"},
		{"the limit itself", shellName, "timeout", "600s", "", "10m0s", "10m"},
		{"a URL for a host", webName, "allowedHosts", "http://bad host/", "leave out the http://", "*", "http://bad host/"},
		{"a host with a path", webName, "allowedHosts", "docs.python.org/3", "leave out the path", "*", "docs.python.org/3"},
		{"a star inside a name", webName, "allowedHosts", "docs.*.org", "may only stand alone", "*", "docs.*.org"},
		{"nothing", webName, "allowedHosts", "", "at least one host", "*", ""},
		{"names and patterns", webName, "allowedHosts", "docs.python.org\n*.example.com", "", "docs.python.org,*.example.com", "docs.python.org\n*.example.com"},
		{"command patterns", shellName, "allowedCommands", "git status\ngo test ./...", "", "git status,go test ./...", "git status\ngo test ./..."},
		{"a shell is no pattern", shellName, "allowedCommands", "git status\nbash", "bash runs whatever its arguments or input say", "", "git status\nbash"},
		{"a pipe is no pattern", shellName, "allowedCommands", "ls | wc", "without pipes", "", "ls | wc"},
		{"trusted hosts", webName, "trustedHosts", "docs.python.org\nlocalhost:8080", "", "docs.python.org,localhost:8080", "docs.python.org\nlocalhost:8080"},
		{"a trusted URL", webName, "trustedHosts", "https://x.org", "leave out the scheme", "", "https://x.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.s.Show(hint.PageCapability, tt.page)
			p := h.s.shell
			if tt.page == webName {
				p = h.s.web
			}
			f := field(t, p, tt.key)
			f.entry.SetText(tt.value)
			h.tap("Save")
			if tt.refused == "" {
				if f.err.Visible() {
					t.Errorf("error under the field: %q", f.err.Text)
				}
				if got := p.outcome.Text(); !strings.HasPrefix(got, "Saved.") {
					t.Errorf("no Saved. note: %q", got)
				}
			} else {
				if !f.err.Visible() || !strings.Contains(f.err.Text, tt.refused) {
					t.Errorf("error under the field %v %q, want %q", f.err.Visible(), f.err.Text, tt.refused)
				}
				if strings.Contains(f.err.Text, "invalid") {
					t.Errorf("jargon under the field: %q", f.err.Text)
				}
				if got := p.outcome.Text(); !strings.Contains(got, "Nothing was saved") {
					t.Errorf("outcome %q", got)
				}
			}
			if got := settingValue(t, h, tt.page, tt.key); got != tt.stored {
				t.Errorf("the core holds %q, want %q", got, tt.stored)
			}
			if f.entry.Text != tt.shown {
				t.Errorf("the field shows %q, want %q", f.entry.Text, tt.shown)
			}
		})
	}
}

// A type error from the core shows under the field without the
// "invalid capability setting: timeout of shell:" lead-in.
func TestSettingErrorText(t *testing.T) {
	h := newHarness(t, nil)
	err := h.core.SetSetting(shellName, "network", "maybe")
	if err == nil {
		t.Fatal("the core took maybe for a bool")
	}
	got := settingErrorText(err, shellName, "network")
	if strings.Contains(got, "invalid") || strings.Contains(got, "network of shell") || !strings.Contains(got, "maybe") {
		t.Errorf("settingErrorText = %q (from %q)", got, err)
	}
}

func TestShortDuration(t *testing.T) {
	for in, want := range map[string]string{"1m0s": "1m", "1h0m0s": "1h", "1h30m0s": "1h30m", "1m30s": "1m30s",
		"45s": "45s", "0s": "0s", "1.5s": "1.5s", "soon": "soon", "2h0m5s": "2h0m5s"} {
		if got := shortDuration(in); got != want {
			t.Errorf("shortDuration(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestErrorWording(t *testing.T) {
	var scratch workspace.Config
	bad := scratch.Set("baseURL", "ftp://x")
	if bad == nil {
		t.Fatal("ftp accepted")
	}
	tests := []struct{ name, got, want string }{
		{"sentinel prefix", errorText(bad), "baseURL must be an http or https URL"},
		{"joined", joinSentences("No server answered at the base URL.", "no model answered at x"), "No server answered at the base URL. No model answered at x."},
		{"a name keeps its case", joinSentences("baseURL is wrong"), "baseURL is wrong."},
		{"an alternative is dropped", onModelPage("no model answered at x: check the server, or choose another provider, base URL or model in the model settings"),
			"no model answered at x: check the server"},
		{"other advice points up", onModelPage("no model is chosen: choose one in the model settings"), "no model is chosen: choose one in the fields above"},
	}
	for _, tt := range tests {
		if !strings.HasPrefix(tt.got, tt.want) || (tt.name != "sentinel prefix" && tt.got != tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if strings.Contains(errorText(bad), "invalid config value") {
		t.Errorf("the sentinel shows: %q", errorText(bad))
	}
}

func TestWrapLines(t *testing.T) {
	snippet := "       6 |     description: first\n  >    7 |     parameters: {type: objekt, and a long tail that goes on and on past the edge}\n         |                        ^"
	long := "  twice.zip:twice/SKILL.md:7:24: tools[0] (twice_a).parameters.type: must be \"object\", not the text \"objekt\""
	got := wrapLines(long+"\n"+snippet, 40)
	lines := strings.Split(got, "\n")
	if !strings.HasSuffix(got, snippet) {
		t.Errorf("the snippet changed:\n%s", got)
	}
	for _, l := range lines[:len(lines)-3] {
		if len([]rune(l)) > 40 {
			t.Errorf("line longer than 40: %q", l)
		}
		if !strings.HasPrefix(l, "  ") {
			t.Errorf("a continuation lost the indent: %q", l)
		}
	}
	if strings.Join(strings.Fields(strings.Join(lines[:len(lines)-3], " ")), " ") != strings.Join(strings.Fields(long), " ") {
		t.Errorf("wrapping lost words:\n%s", got)
	}
	if wrapLines(long, 0) != long {
		t.Error("a block not laid out yet wraps")
	}
}

// An import's errors wrap to the block's width instead of scrolling
// sideways; Copy still copies them as written.
func TestImportErrorsWrap(t *testing.T) {
	h := newHarness(t, nil)
	h.win.Resize(settingsArea)
	broken := writeZip(t, "a-rather-long-archive-name-for-wrapping.zip", map[string]string{
		"twice/SKILL.md": "---\nname: twice\ndescription: A broken tool, so an error.\ntools:\n  - name: twice_a\n    description: first\n    parameters: {type: objekt}\n---\nbody\n",
	})
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(broken)})
	b := h.s.caps.result
	if !strings.Contains(b.Text(), "objekt") {
		t.Fatalf("no error shown:\n%s", b.Text())
	}
	if b.Shown() == b.Text() {
		t.Errorf("nothing wrapped at %.0f px:\n%s", b.Size().Width, b.Shown())
	}
	if w, max := b.text.MinSize().Width, b.Size().Width; w > max {
		for _, l := range strings.Split(b.Shown(), "\n") {
			if !snippetLine.MatchString(l) && len(l) > b.cols {
				t.Errorf("a %d-column line in a %d-column block: %q", len(l), b.cols, l)
			}
		}
	}
	h.tap("Copy")
	if h.copied != b.Text() {
		t.Error("Copy copied the wrapped text")
	}
}

// The Capabilities page shows outcomes under the list, so nothing above
// the rows moves, and forgets them on the next action and when left.
func TestCapsOutcomesStayPutAndClear(t *testing.T) {
	h := newHarness(t, nil)
	h.win.Resize(settingsArea)
	h.s.Show(hint.PageCapabilities, "")
	p := h.s.caps
	listAt := h.absPos(p.list)
	listH := p.list.Size().Height
	p.resync()
	if !p.results.Visible() {
		t.Fatal("Resync showed nothing")
	}
	if got := h.absPos(p.list); got != listAt {
		t.Errorf("the list moved from %v to %v when the outcome showed", listAt, got)
	}
	if got := h.absPos(p.results); got.Y < listAt.Y+p.list.Size().Height {
		t.Errorf("the outcome (y=%.0f) is not under the list (ends at %.0f)", got.Y, listAt.Y+p.list.Size().Height)
	}
	if p.list.Size().Height >= listH {
		t.Errorf("the list kept its height %.0f beside the outcome", listH)
	}
	// The next action replaces it.
	p.toggle(webName, false)
	if p.results.Visible() {
		t.Error("the Resync result stays after the next action")
	}
	p.toggle(webName, true)
	// Leaving the page (another tab, or the chat) forgets the outcome.
	p.resync()
	h.s.Show(hint.PageFolders, "")
	h.s.Show(hint.PageCapabilities, "")
	if p.results.Visible() || p.problem.Text() != "" {
		t.Errorf("an old outcome greets the next visit: %q", p.result.Text())
	}
	p.resync()
	h.s.Object().Hide()
	h.s.Object().Show()
	if p.results.Visible() {
		t.Error("the outcome outlives closing the settings")
	}
}

// A guide offers instructions, not tools, and the words say so.
func TestGuideWording(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "styleguide", filepath.Join(ws, "brain", "cerebellum")) })
	c, err := h.core.Capabilities().Get("styleguide")
	if err != nil || c.Kind != cerebellum.KindGuide {
		t.Fatalf("styleguide: %v, kind %v", err, c)
	}
	if err := h.core.Disable("styleguide"); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapability, "styleguide")
	if got := h.s.caps.detail.state.Text; !strings.Contains(got, "its instructions are not offered") {
		t.Errorf("detail says %q", got)
	}
	h.s.caps.confirmRemove("styleguide")
	if text := h.screenText(); !strings.Contains(text, "Its instructions go away now.") || strings.Contains(text, "Its tools go away") {
		t.Errorf("the confirmation says:\n%s", text)
	}
}

// "off" is drawn in the normal text colour, readable on the selected row.
func TestOffIsReadableWhenSelected(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.core.Disable(webName); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapabilities, webName)
	r := h.row(webName)
	if r.state.Text != "off" || r.state.Importance == widget.LowImportance {
		t.Errorf("state %q with importance %v", r.state.Text, r.state.Importance)
	}
}

// There is one Back control, the window's; the view adds none.
func TestNoSecondBackControl(t *testing.T) {
	h := newHarness(t, nil)
	for _, o := range h.onScreen() {
		if b, ok := asButton(o); ok && strings.Contains(b.Text, "Back") {
			t.Errorf("the settings show a %q button", b.Text)
		}
	}
}

// Helper text is one size on every page.
func TestHelperTextOneSize(t *testing.T) {
	h := newHarness(t, nil)
	p := h.s.model
	sizes := map[fyne.ThemeSizeName]bool{}
	for _, l := range []*widget.Label{p.keyStatus, p.listNote} {
		sizes[l.SizeName] = true
	}
	for _, o := range visible(p.Object()) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Leave empty for the provider's default") {
			sizes[l.SizeName] = true
		}
	}
	for _, o := range visible(h.s.shell.Object()) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "How long a command may run") {
			sizes[l.SizeName] = true
		}
	}
	if len(sizes) != 1 {
		t.Errorf("helper text comes in %d sizes: %v", len(sizes), sizes)
	}
}

// No page, in any state the QA run found, asks for more height than the
// default window gives it (720 px less the title and tabs).
func TestPagesFitTheDefaultWindow(t *testing.T) {
	const limit = 700
	h := newHarness(t, nil)
	h.win.Resize(settingsArea)
	states := []struct {
		name string
		do   func()
	}{
		{"as opened", func() {}},
		{"Model: a failed Test", func() {
			h.s.Show(hint.PageModel, "")
			fill(h.s.model, "openai", deadURL(t), "alpha", "", "")
			h.tap("Test")
			h.s.model.loadModels()
		}},
		{"Capabilities: the index preview", func() {
			h.s.Show(hint.PageCapabilities, "")
			h.s.caps.views.SelectIndex(2)
			h.s.caps.preview.Load()
		}},
		{"Capabilities: a failed import and the watcher's banner", func() {
			h.s.caps.views.SelectIndex(0)
			broken := writeZip(t, "twice.zip", map[string]string{
				"twice/SKILL.md": "---\nname: twice\ndescription: x\ntools:\n  - name: a\n    description: first\n    parameters: {type: objekt}\n  - name: b\n    description: second\n    parameters: {type: strng}\n  - name: c\n    description: third\n    parameters: {type: nummber}\n---\n",
			})
			h.s.HandleDrop([]fyne.URI{storage.NewFileURI(broken)})
			h.s.caps.onDisk(cerebellum.Diff{Changed: []string{"hello", "greeter", "web"}}, false, nil)
		}},
		{"Capabilities: the Trash", func() { h.s.caps.views.SelectIndex(1) }},
		{"Shell: refused values", func() {
			h.s.Show(hint.PageCapability, shellName)
			field(t, h.s.shell, "timeout").entry.SetText("20m")
			field(t, h.s.shell, "workdir").entry.SetText(strings.Repeat("/very/long/folder", 20))
			h.tap("Save")
		}},
		{"Web: a refused host", func() {
			h.s.Show(hint.PageCapability, webName)
			field(t, h.s.web, "allowedHosts").entry.SetText("http://bad host/\n" + strings.Repeat("a.example.com\n", 30))
			h.tap("Save")
		}},
		{"Folders", func() { h.s.Show(hint.PageFolders, "") }},
	}
	for _, st := range states {
		st.do()
		for _, tab := range h.s.tabs.Items {
			if m := tab.Content.MinSize(); m.Height > limit {
				t.Errorf("%s: the %s page asks for %.0f px of height (at most %d)", st.name, tab.Text, m.Height, limit)
			}
		}
		if m := h.s.Object().MinSize(); m.Height > 720 {
			t.Errorf("%s: the settings view asks for %.0f px (the window is 720)", st.name, m.Height)
		}
	}
}
