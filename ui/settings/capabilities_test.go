package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

const helloManifest = "---\nname: zipped\ndescription: A guide that arrives in a zip archive, for the import tests.\n---\n\n# Zipped\n\nRead me.\n"

func TestDropImportsFolderAndArchive(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	src := t.TempDir()
	copyFixture(t, "hello", src)
	archive := writeZip(t, "zipped.zip", map[string]string{"zipped/SKILL.md": helloManifest})

	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(filepath.Join(src, "hello")), storage.NewFileURI(archive)})

	if h.s.Page() != hint.PageCapabilities {
		t.Errorf("a drop shows page %q, want the Capabilities page", h.s.Page())
	}
	for _, name := range []string{"hello", "zipped"} {
		if got := h.state(name); got != "ok" {
			t.Errorf("%s after the drop: %s, want ok", name, got)
		}
		h.row(name) // listed
	}
	res := h.s.caps.result
	if !strings.HasPrefix(res.Title(), "Imported 2 capabilities") {
		t.Errorf("result title = %q", res.Title())
	}
	for _, want := range []string{"✓ Installed hello from", "✓ Installed zipped from"} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text())
		}
	}
	h.tap("Copy")
	if h.copied != res.Text() {
		t.Errorf("Copy copied %q, want the result", h.copied)
	}
}

func TestPickerImport(t *testing.T) {
	good := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.WriteFile(good, []byte(strings.ReplaceAll(helloManifest, "zipped", "loose")), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := writeZip(t, "broken.zip", map[string]string{
		"broken/SKILL.md": "---\nname: Broken_Name\ntools:\n  - name: x\n    parameters: {type: objekt}\n---\nbody\n",
	})
	hostile := writeZip(t, "hostile.zip", map[string]string{
		"../../escape/SKILL.md": helloManifest,
	})
	tests := []struct {
		name      string
		path      string
		installed string
		title     string
		want      []string
	}{
		{"a SKILL.md", good, "loose", "Imported 1 capability", []string{"✓ Installed loose"}},
		{"a zip with an invalid SKILL.md", broken, "", "Import rejected: nothing was written",
			[]string{"✗ " + broken, "name", "description"}},
		{"a zip escaping its folder", hostile, "", "Import rejected: nothing was written", []string{"✗ " + hostile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.s.Show(hint.PageCapabilities, "")
			before := len(h.core.Capabilities().List())
			r, err := storage.Reader(storage.NewFileURI(tt.path))
			if err != nil {
				t.Fatal(err)
			}
			h.s.caps.imp.FilePicked(r, nil)

			res := h.s.caps.result
			if res.Title() != tt.title {
				t.Errorf("title = %q, want %q\n%s", res.Title(), tt.title, res.Text())
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Text(), w) {
					t.Errorf("result lacks %q:\n%s", w, res.Text())
				}
			}
			after := len(h.core.Capabilities().List())
			if tt.installed == "" {
				if after != before {
					t.Errorf("a rejected import changed the registry: %d -> %d capabilities", before, after)
				}
				entries, _ := os.ReadDir(h.capsDir())
				if len(entries) != 0 {
					t.Errorf("a rejected import wrote %v", entries)
				}
				return
			}
			if got := h.state(tt.installed); got != "ok" {
				t.Errorf("%s = %s, want ok", tt.installed, got)
			}
		})
	}
}

// The validation errors of a rejected zip are each shown, with where they are.
func TestRejectedZipShowsEveryError(t *testing.T) {
	h := newHarness(t, nil)
	broken := writeZip(t, "twice.zip", map[string]string{
		"twice/SKILL.md": "---\nname: twice\ndescription: Two broken tools in one manifest, so two errors.\ntools:\n  - name: twice_a\n    description: first\n    parameters: {type: objekt}\n  - name: twice_b\n    description: second\n    parameters: {type: strng}\n---\nbody\n",
	})
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(broken)})
	text := h.s.caps.result.Text()
	for _, w := range []string{"objekt", "strng", "SKILL.md:7", "SKILL.md:10"} {
		if !strings.Contains(text, w) {
			t.Errorf("the rejection lacks %q:\n%s", w, text)
		}
	}
}

func TestFolderPickerImport(t *testing.T) {
	h := newHarness(t, nil)
	src := t.TempDir()
	copyFixture(t, "hello", src)
	l, err := storage.ListerForURI(storage.NewFileURI(filepath.Join(src, "hello")))
	if err != nil {
		t.Fatal(err)
	}
	h.s.caps.imp.FolderPicked(l, nil)
	if got := h.state("hello"); got != "ok" {
		t.Fatalf("hello = %s, want ok\n%s", got, h.s.caps.result.Text())
	}
	// Cancelling the picker does nothing.
	h.s.caps.imp.FolderPicked(nil, nil)
	h.s.caps.imp.FilePicked(nil, nil)
}

func TestToggle(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapabilities, "")
	row := h.row("calc")
	tapCheck(row.enabled)
	if got := h.state("calc"); got != "disabled" {
		t.Fatalf("calc after switching off: %s", got)
	}
	if row := h.row("calc"); row.state.Text != "off" || row.enabled.Checked {
		t.Errorf("row shows %q, checked %v; want off, unchecked", row.state.Text, row.enabled.Checked)
	}
	tapCheck(h.row("calc").enabled)
	if got := h.state("calc"); got != "ok" {
		t.Fatalf("calc after switching on: %s", got)
	}
}

func TestRemoveConfirmAndRestore(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "hello")
	if h.s.caps.detail.Name() != "hello" {
		t.Fatalf("Show(capability, hello) shows %q", h.s.caps.detail.Name())
	}
	h.tap("Move to Trash")
	if h.state("hello") != "ok" {
		t.Fatal("removed before the user confirmed")
	}
	h.tap("No")
	if h.state("hello") != "ok" {
		t.Fatal("removed although the user said No")
	}
	h.tap("Move to Trash")
	h.tap("Yes")
	if got := h.state("hello"); got != "missing" {
		t.Fatalf("hello after confirming: %s", got)
	}
	// Built-ins cannot be removed: their rows have no trash button.
	if !h.row("calc").trash.Hidden {
		t.Error("a built-in's row offers the trash")
	}

	h.s.caps.views.SelectIndex(1)
	if got := h.s.caps.trash.Names(); len(got) != 1 || got[0] != "hello" {
		t.Fatalf("Trash lists %v", got)
	}
	if !strings.Contains(h.screenText(), "restorable until") {
		t.Error("the Trash does not say until when")
	}
	h.tap("Restore")
	if got := h.state("hello"); got != "ok" {
		t.Fatalf("hello after restoring: %s\n%s", got, h.s.caps.problem.Text())
	}
	if got := h.s.caps.trash.Names(); len(got) != 0 {
		t.Errorf("Trash still lists %v", got)
	}
}

func TestResyncAfterHandEdit(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "hello")
	manifest := filepath.Join(h.capsDir(), "hello", "SKILL.md")
	data, _ := os.ReadFile(manifest)
	edited := strings.Replace(string(data), "Greets people warmly", "Greets people very warmly", 1)
	if err := os.WriteFile(manifest, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The watcher's notice, as the core publishes it.
	diff, err := h.core.Pending()
	if err != nil {
		t.Fatal(err)
	}
	h.s.onEvent(assistant.Event{Kind: assistant.EventDisk, Diff: diff})
	banner := h.s.caps.banner
	if !banner.Visible() || !strings.Contains(banner.Text(), "changed hello") {
		t.Fatalf("banner %v: %q", banner.Visible(), banner.Text())
	}
	if strings.Contains(h.s.caps.detail.desc.Text, "very warmly") {
		t.Fatal("the edit applied before Resync")
	}
	h.tap("Resync")
	if banner.Visible() {
		t.Error("the banner stays after Resync")
	}
	if got := h.s.caps.result.Text(); got != "Changed: hello" {
		t.Errorf("Resync shows %q", got)
	}
	if !strings.Contains(h.s.caps.detail.desc.Text, "very warmly") {
		t.Errorf("details after Resync: %q", h.s.caps.detail.desc.Text)
	}
	// A second Resync has nothing to do, and says so.
	h.s.caps.resync()
	if got := h.s.caps.result.Text(); !strings.HasPrefix(got, "Nothing changed") {
		t.Errorf("second Resync shows %q", got)
	}
}

func TestFailedCapabilityShowsItsError(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "badmanifest", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapability, "badmanifest")
	if got := h.row("badmanifest").state.Text; got != "failed" {
		t.Errorf("row state %q", got)
	}
	d := h.s.caps.detail
	if !d.failure.Visible() || !strings.Contains(d.failure.Text(), "badmanifest/SKILL.md:8:13") ||
		!strings.Contains(d.failure.Text(), "^") {
		t.Errorf("failure block %v:\n%s", d.failure.Visible(), d.failure.Text())
	}
	if !strings.Contains(h.s.caps.count.Text, "1 failed") {
		t.Errorf("count %q", h.s.caps.count.Text)
	}
}

func TestGrantAndRevoke(t *testing.T) {
	h := newHarness(t, nil)
	src := t.TempDir()
	copyFixture(t, "greeter", src)
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(filepath.Join(src, "greeter"))})
	if !strings.Contains(h.s.caps.result.Text(), "It asks for network") {
		t.Fatalf("import result:\n%s", h.s.caps.result.Text())
	}
	h.s.Show(hint.PageCapability, "greeter")
	// Waiting for the grant is not a failure, and the page says what it waits for.
	waiting := func(when string, want bool) {
		t.Helper()
		row, detail, count := h.row("greeter").state.Text, h.s.caps.detail.state.Text, h.s.caps.count.Text
		if want && (row != "needs grant" || !strings.HasPrefix(detail, "Waiting for permission: its plugin asks for network. ") ||
			!strings.Contains(detail, "until you grant it below") || !strings.Contains(count, "1 needs a grant")) {
			t.Errorf("%s: row %q, detail %q, count %q; want it waiting for network", when, row, detail, count)
		}
		if !want && (row != "ok" || strings.Contains(detail, "Waiting") || strings.Contains(count, "grant")) {
			t.Errorf("%s: row %q, detail %q, count %q; want it ok", when, row, detail, count)
		}
	}
	waiting("imported", true)
	granted := func() []string {
		c, err := h.core.Capabilities().Get("greeter")
		if err != nil {
			t.Fatal(err)
		}
		return c.Granted
	}
	h.tap("Grant network")
	if g := granted(); len(g) != 1 || g[0] != "network" {
		t.Fatalf("granted = %v (%s)", g, h.s.caps.problem.Text())
	}
	waiting("granted", false)
	h.tap("Revoke network")
	if g := granted(); len(g) != 0 {
		t.Fatalf("granted after revoking = %v", g)
	}
	waiting("revoked", true)
	h.button("Grant network")
}

func TestFilterAndIndexPreview(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapabilities, "")
	test.Type(h.s.caps.filter, "guide")
	for _, c := range h.s.caps.shown {
		if c.Kind != cerebellum.KindGuide && !strings.Contains(strings.ToLower(c.Description()), "guide") {
			t.Errorf("filter 'guide' shows %s (%s)", c.Name, c.Kind)
		}
	}
	if len(h.s.caps.shown) == 0 || len(h.s.caps.shown) == len(h.s.caps.all) {
		t.Errorf("filter shows %d of %d", len(h.s.caps.shown), len(h.s.caps.all))
	}

	h.s.caps.views.SelectIndex(2)
	reg := h.core.Engine().Registry
	want := reg.Index(reg.NewSession("x", nil))
	if got := h.s.caps.preview.Text(); got != want {
		t.Errorf("preview differs from the index:\n%s\nwant:\n%s", got, want)
	}
	if n := cerebellum.EstimateTokens(want); !strings.Contains(h.s.caps.preview.block.Title(), itoa(n)+" tokens") {
		t.Errorf("preview title %q lacks %d tokens", h.s.caps.preview.block.Title(), n)
	}
	// The preview follows changes.
	if err := h.core.Disable("calc"); err != nil {
		t.Fatal(err)
	}
	if h.s.caps.preview.Text() != reg.Index(reg.NewSession("x", nil)) {
		t.Error("the preview did not follow a change")
	}
}

func TestShowRoutesPages(t *testing.T) {
	h := newHarness(t, nil)
	tests := []struct {
		page   hint.Page
		target string
		tab    string
	}{
		{hint.PageModel, "apiKey", "Model"},
		{hint.PageFolders, "", "Folders"},
		{hint.PageCapability, "shell", "Shell"},
		{hint.PageCapability, "web", "Web"},
		{hint.PageCapability, "calc", "Capabilities"},
		{hint.PageCapabilities, "", "Capabilities"},
	}
	for _, tt := range tests {
		h.s.Show(tt.page, tt.target)
		if got := h.s.tabs.Selected().Text; got != tt.tab {
			t.Errorf("Show(%s, %s) shows %s, want %s", tt.page, tt.target, got, tt.tab)
		}
	}
	if h.s.caps.highlight != "calc" || h.s.caps.detail.Name() != "calc" {
		t.Errorf("calc not revealed: highlight %q, detail %q", h.s.caps.highlight, h.s.caps.detail.Name())
	}
	if !h.row("calc").marker.Visible() {
		t.Error("calc's row is not highlighted")
	}
	// The page says how the operating system confines the code: calc
	// ships with Wrasse and runs inside it; shell's commands are sandboxed.
	if !h.s.caps.detail.sandbox.Visible() || !strings.HasPrefix(h.s.caps.detail.sandbox.Text, "Sandbox: ") {
		t.Errorf("calc's sandbox line: %q", h.s.caps.detail.sandbox.Text)
	}
	h.s.Show(hint.PageCapabilities, "shell")
	shell, err := h.core.Capabilities().Get("shell")
	if err != nil {
		t.Fatal(err)
	}
	h.s.caps.detail.Show(shell)
	if txt := h.s.caps.detail.sandbox.Text; !strings.Contains(txt, "commands") {
		t.Errorf("shell's sandbox line does not speak of its commands: %q", txt)
	}
}

// An error whose hint names a page offers a button that goes there.
func TestHintButton(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapabilities, "")
	h.s.caps.problem.Error(hint.With(context.Canceled, hint.Hint{Action: "Grant exec to shell", Page: hint.PageCapability, Target: "web"}))
	h.tap("Grant exec to shell")
	if len(h.navigate) != 1 || h.navigate[0] != "capability:web" || h.s.tabs.Selected().Text != "Web" {
		t.Errorf("navigate = %v, tab %s", h.navigate, h.s.tabs.Selected().Text)
	}
}

// Importing a capability that is already installed offers to replace it;
// No keeps the installed one, Yes replaces it.
func TestImportOffersReplaceOnAClash(t *testing.T) {
	h := newHarness(t, nil)
	v1 := writeZip(t, "zipped.zip", map[string]string{"zipped/SKILL.md": helloManifest})
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(v1)})
	if got := h.state("zipped"); got != "ok" {
		t.Fatalf("zipped after the first import: %s", got)
	}
	v2 := writeZip(t, "zipped2.zip", map[string]string{"zipped/SKILL.md": strings.Replace(helloManifest, "for the import tests", "second version", 1)})

	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(v2)})
	if !strings.Contains(h.s.caps.result.Text(), "already installed") {
		t.Fatalf("the clash is not reported:\n%s", h.s.caps.result.Text())
	}
	// The question names the capability it would replace.
	if text := h.screenText(); !strings.Contains(text, "Replace zipped?") || !strings.Contains(text, "zipped is installed already") {
		t.Errorf("the Replace dialog does not name zipped:\n%s", text)
	}
	h.tap("No")
	if c, _ := h.core.Capabilities().Get("zipped"); strings.Contains(c.Description(), "second version") {
		t.Fatal("replaced although the user said No")
	}

	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(v2)})
	h.tap("Yes")
	c, err := h.core.Capabilities().Get("zipped")
	if err != nil || !strings.Contains(c.Description(), "second version") {
		t.Fatalf("after Yes: %v, %q", err, c.Description())
	}
	if !strings.Contains(h.s.caps.result.Text(), "✓ Replaced zipped") {
		t.Errorf("result after replacing:\n%s", h.s.caps.result.Text())
	}
}

// A collection of skills dropped in one folder offers a checklist; the
// ticked skills install each on its own (the broken one fails alone),
// the unticked one is left out.
func TestDropCollectionOffersChecklist(t *testing.T) {
	h := newHarness(t, nil)
	coll, err := filepath.Abs(filepath.Join("..", "..", "cerebellum", "testdata", "collection"))
	if err != nil {
		t.Fatal(err)
	}
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(coll)})

	checks := map[string]*escCheck{}
	for _, o := range h.onScreen() {
		if c, ok := o.(*escCheck); ok && strings.Contains(c.Text, " file") {
			checks[strings.Fields(c.Text)[0]] = c
		}
	}
	for _, name := range []string{"broken", "pdf", "spec-full", "web-builder"} {
		c := checks[name]
		if c == nil {
			t.Fatalf("no check box for %s; screen:\n%s", name, h.screenText())
		}
		if !c.Checked {
			t.Errorf("%s is not ticked", name)
		}
	}
	if !strings.Contains(h.screenText(), "collection holds 4 skills") {
		t.Errorf("the checklist does not say what it holds:\n%s", h.screenText())
	}
	tapCheck(checks["web-builder"])
	if checks["web-builder"].Checked {
		t.Fatal("web-builder is still ticked")
	}
	h.tap("Install")

	for name, want := range map[string]string{"pdf": "ok", "spec-full": "ok", "web-builder": "missing", "broken": "missing"} {
		if got := h.state(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	res := h.s.caps.result
	if !strings.HasPrefix(res.Title(), "Imported 2, rejected 1") {
		t.Errorf("title %q", res.Title())
	}
	for _, want := range []string{"✓ Installed pdf", "✓ Installed spec-full", "✗ " + coll + ": broken", "Broken_Skill"} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text())
		}
	}
}

// Dropping a collection again offers to replace the skills already
// installed: No keeps them, Yes replaces them (each validated first).
func TestDropCollectionAgainOffersReplace(t *testing.T) {
	h := newHarness(t, nil)
	src, err := filepath.Abs(filepath.Join("..", "..", "cerebellum", "testdata", "collection"))
	if err != nil {
		t.Fatal(err)
	}
	coll := filepath.Join(t.TempDir(), "collection")
	if err := os.CopyFS(coll, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(coll)})
	h.tap("Install")
	if got := h.state("pdf"); got != "ok" {
		t.Fatalf("pdf after the first install: %s", got)
	}
	pdf := filepath.Join(coll, "skills", "pdf", "SKILL.md")
	data, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	desc := func() string {
		c, err := h.core.Capabilities().Get("pdf")
		if err != nil {
			t.Fatal(err)
		}
		return c.Description()
	}
	before := desc()
	edited := strings.Replace(string(data), "description: ", "description: Second version. ", 1)
	if edited == string(data) {
		t.Fatalf("no description line in %s", pdf)
	}
	if err := os.WriteFile(pdf, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(coll)})
	h.tap("Install")
	if text := h.screenText(); !strings.Contains(text, "already installed. Replace them with the version in the collection?") {
		t.Fatalf("no offer to replace the installed skills:\n%s", text)
	}
	h.tap("No")
	if got := desc(); got != before {
		t.Fatalf("pdf changed although the user said No: %q", got)
	}

	h.s.HandleDrop([]fyne.URI{storage.NewFileURI(coll)})
	h.tap("Install")
	h.tap("Yes")
	if got := desc(); !strings.HasPrefix(got, "Second version. ") {
		t.Fatalf("pdf after Yes: %q", got)
	}
	if res := h.s.caps.result.Text(); !strings.Contains(res, "✓ Replaced pdf") || !strings.Contains(res, "✓ Replaced spec-full") {
		t.Errorf("result after replacing:\n%s", res)
	}
}
