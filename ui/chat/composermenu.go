package chat

import (
	"context"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// The composer's menu of the MCP servers' prompts and resources:
//   - "/" at the start of the message lists the prompts of the enabled
//     servers (server: name — description), filtered by what follows it;
//     choosing one asks its arguments in a small form in the menu and puts
//     the messages the server returns in the composer (assistant.PromptText:
//     user text as it is, an assistant message as quoted context, embedded
//     resources as attachments), to be read, changed and sent;
//   - "@" (or the + button) lists their resources and resource templates,
//     filtered by what follows the @; a template asks its variables.
//     Chosen resources are read and show as chips above the message (see
//     attachments.go).
// Up and Down move through the list, Enter or Tab chooses, Esc closes it.

// menuMode is what the menu lists.
type menuMode int

const (
	menuClosed menuMode = iota
	menuPrompts
	menuResources
)

// menuShown is how many entries the menu shows at once; typing narrows
// the rest.
const menuShown = 8

// menuTimeout bounds a listing, a prompt or a read started from the menu
// (each request is bounded by its server's call timeout too).
const menuTimeout = 2 * time.Minute

type composerMenu struct {
	k    *composer
	mode menuMode
	// at is where the @ of the mention being typed starts in the text.
	at int
	// dismissed is the text the menu was closed on with Esc: it stays
	// closed until the text changes.
	dismissed string
	query     string
	selected  int

	// What the servers offer, listed when the menu opens; loading is the
	// listing in flight (its generation: a later one wins).
	prompts   []mcp.Prompt
	resources []mcp.Resource
	listErr   error
	loading   bool
	gen       int

	matches []int // indexes into prompts or resources
	title   *widget.Label
	rows    *fyne.Container
	form    *fyne.Container
	panel   *fyne.Container
	plus    *tip.Button

	attachments
}

func newComposerMenu(k *composer) *composerMenu {
	m := &composerMenu{k: k}
	m.title = widget.NewLabel("")
	m.title.TextStyle = fyne.TextStyle{Bold: true}
	m.title.Truncation = fyne.TextTruncateEllipsis
	m.title.Wrapping = fyne.TextWrapOff
	m.rows = container.NewVBox()
	m.form = container.NewVBox()
	m.form.Hide()
	m.panel = container.NewVBox(m.title, m.rows, m.form, widget.NewSeparator())
	m.panel.Hide()
	m.plus = tip.NewButton("", theme.ContentAddIcon(), "Attach an MCP server's resource (or type @)", m.plusTapped)
	m.attachments.init(m)
	return m
}

// plusTapped starts a mention: the resources to attach.
func (m *composerMenu) plusTapped() {
	e := m.k.entry
	text := e.Text
	if text != "" && !strings.HasSuffix(text, " ") && !strings.HasSuffix(text, "\n") {
		text += " "
	}
	e.SetText(text + "@")
	e.CursorRow, e.CursorColumn = cursorAtEnd(e.Text)
	if w := m.k.c.env.Window; w != nil {
		w.Canvas().Focus(e)
	}
}

// cursorAtEnd is the row and column of the end of text.
func cursorAtEnd(text string) (row, col int) {
	lines := strings.Split(text, "\n")
	return len(lines) - 1, len([]rune(lines[len(lines)-1]))
}

// textChanged opens, narrows or closes the menu as the message changes.
func (m *composerMenu) textChanged(text string) {
	if text != m.dismissed {
		m.dismissed = ""
	}
	mode, at, query := trigger(text)
	if m.dismissed != "" {
		mode = menuClosed
	}
	if mode == menuClosed {
		m.close()
		return
	}
	if m.form.Visible() && mode == m.mode {
		return // the arguments form is open; typing there is not a filter
	}
	opening := mode != m.mode
	m.mode, m.at, m.query = mode, at, query
	m.selected = 0
	if opening {
		m.load()
	}
	m.show()
}

// trigger reads what the text asks of the menu: prompts for a message
// that starts with / and is one line, resources for a word starting with
// @ at the end of the text.
func trigger(text string) (mode menuMode, at int, query string) {
	if strings.HasPrefix(text, "/") && !strings.Contains(text, "\n") {
		return menuPrompts, 0, strings.TrimSpace(text[1:])
	}
	i := strings.LastIndexByte(text, '@')
	if i < 0 || (i > 0 && !strings.ContainsAny(text[i-1:i], " \n\t")) {
		return menuClosed, 0, ""
	}
	word := text[i+1:]
	if strings.ContainsAny(word, " \n\t") {
		return menuClosed, 0, ""
	}
	return menuResources, i, word
}

// load lists the prompts or resources of the enabled MCP servers in the
// background (starting servers that do not run yet).
func (m *composerMenu) load() {
	m.gen++
	gen, mode := m.gen, m.mode
	m.loading, m.listErr = true, nil
	m.prompts, m.resources = nil, nil
	env, core := m.k.c.env, m.k.c.core
	env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), menuTimeout)
		defer cancel()
		var (
			prompts   []mcp.Prompt
			resources []mcp.Resource
			err       error
		)
		if mode == menuPrompts {
			prompts, err = core.MCPPrompts(ctx)
		} else {
			resources, err = core.MCPResources(ctx)
		}
		env.Do(func() {
			if gen != m.gen {
				return
			}
			m.loading, m.listErr = false, err
			m.prompts, m.resources = prompts, resources
			if m.mode == mode {
				m.show()
			}
		})
	})
}

// show draws the list for the current query.
func (m *composerMenu) show() {
	m.matches = m.match()
	if m.selected >= len(m.matches) {
		m.selected = max(0, len(m.matches)-1)
	}
	what := "prompts"
	if m.mode == menuResources {
		what = "resources"
	}
	switch {
	case m.loading:
		m.title.SetText("Listing the MCP servers' " + what + "…")
	case len(m.matches) == 0 && m.listErr == nil && m.query == "":
		m.title.SetText("No enabled MCP server offers " + what + ".")
	case len(m.matches) == 0 && m.listErr == nil:
		m.title.SetText(fmt.Sprintf("No %s match %q.", what, m.query))
	case m.mode == menuPrompts:
		m.title.SetText("Prompts of the MCP servers (Enter chooses, Esc closes)")
	default:
		m.title.SetText("Resources of the MCP servers to attach (Enter chooses, Esc closes)")
	}
	m.rows.RemoveAll()
	for i, idx := range m.matches {
		if i == menuShown {
			more := widget.NewLabel(fmt.Sprintf("…and %d more: type to narrow", len(m.matches)-menuShown))
			more.Importance = widget.LowImportance
			m.rows.Add(more)
			break
		}
		m.rows.Add(newMenuRow(m.label(idx), i == m.selected, func() { m.choose(idx) }))
	}
	if m.listErr != nil {
		l := widget.NewLabel(errorLine(m.listErr))
		l.Importance = widget.DangerImportance
		l.Wrapping = fyne.TextWrapWord
		m.rows.Add(l)
	}
	m.form.Hide()
	m.rows.Show()
	m.panel.Show()
	m.k.c.relayout()
}

// errorLine is a listing's error in one short paragraph.
func errorLine(err error) string {
	s := strings.ReplaceAll(err.Error(), "\n", "; ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return "Some servers could not be listed: " + s
}

// label is one entry of the list: server: name — description.
func (m *composerMenu) label(idx int) string {
	var s, desc string
	if m.mode == menuPrompts {
		p := m.prompts[idx]
		s, desc = p.Server+": "+p.Name, p.Description
		if p.Title != "" && p.Title != p.Name {
			s += " (" + p.Title + ")"
		}
	} else {
		r := m.resources[idx]
		s, desc = r.Server+": "+r.Label(), r.Description
		if r.Template {
			s += " [template " + r.URI + "]"
		} else if r.Label() != r.URI {
			s += " <" + r.URI + ">"
		}
	}
	if desc = strings.Join(strings.Fields(desc), " "); desc != "" {
		s += " — " + desc
	}
	return s
}

// match lists the entries whose text holds every word of the query.
func (m *composerMenu) match() []int {
	words := strings.Fields(strings.ToLower(m.query))
	var out []int
	n := len(m.prompts)
	if m.mode == menuResources {
		n = len(m.resources)
	}
	for i := range n {
		var hay string
		if m.mode == menuPrompts {
			p := m.prompts[i]
			hay = p.Server + " " + p.Name + " " + p.Title + " " + p.Description
		} else {
			r := m.resources[i]
			hay = r.Server + " " + r.Name + " " + r.Title + " " + r.URI + " " + r.Description
		}
		hay = strings.ToLower(hay)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// key handles the list's keys while the menu is open; false passes the
// key on to the composer.
func (m *composerMenu) key(k *fyne.KeyEvent) bool {
	if m.mode == menuClosed {
		return false
	}
	switch k.Name {
	case fyne.KeyEscape:
		m.dismissed = m.k.entry.Text
		m.close()
		return true
	case fyne.KeyDown, fyne.KeyUp:
		if m.form.Visible() || len(m.matches) == 0 {
			return true
		}
		n := min(len(m.matches), menuShown)
		if k.Name == fyne.KeyDown {
			m.selected = (m.selected + 1) % n
		} else {
			m.selected = (m.selected + n - 1) % n
		}
		m.show()
		return true
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyTab:
		if m.form.Visible() {
			return true
		}
		if m.selected < len(m.matches) {
			m.choose(m.matches[m.selected])
		}
		return true
	}
	return false
}

// close hides the menu.
func (m *composerMenu) close() {
	if m.mode == menuClosed && !m.panel.Visible() {
		return
	}
	m.mode = menuClosed
	m.gen++ // a listing still running is not shown
	m.loading = false
	m.form.Hide()
	m.panel.Hide()
	m.k.c.relayout()
}

// choose takes entry idx of the list.
func (m *composerMenu) choose(idx int) {
	if m.mode == menuPrompts {
		p := m.prompts[idx]
		if len(p.Arguments) == 0 {
			m.getPrompt(p, nil)
			return
		}
		var fields []formField
		for _, a := range p.Arguments {
			fields = append(fields, formField{name: a.Name, title: a.Title, hint: a.Description, required: a.Required})
		}
		m.askFields(p.String(), p.Description, "Insert", fields, func(vals map[string]string) { m.getPrompt(p, vals) })
		return
	}
	r := m.resources[idx]
	mention := m.k.entry.Text[:m.at]
	if !r.Template {
		m.k.entry.SetText(mention)
		m.k.entry.CursorRow, m.k.entry.CursorColumn = cursorAtEnd(mention)
		m.close()
		m.attach(r.Server, r.URI, r.Label())
		return
	}
	var fields []formField
	for _, v := range r.Variables {
		fields = append(fields, formField{name: v, required: true})
	}
	m.askFields(r.Server+": "+r.Label(), r.Description+" ("+r.URI+")", "Attach", fields, func(vals map[string]string) {
		uri, err := mcp.Expand(r.URI, vals)
		if err != nil {
			m.formError(err)
			return
		}
		m.k.entry.SetText(mention)
		m.k.entry.CursorRow, m.k.entry.CursorColumn = cursorAtEnd(mention)
		m.close()
		m.attach(r.Server, uri, uri)
		m.k.c.FocusComposer() // the form's field had it
	})
}

// formField is one field of the arguments form.
type formField struct {
	name, title, hint string
	required          bool
}

// formNote is the form's message line (a missing value, a refusal).
func (m *composerMenu) formNote() *widget.Label {
	if len(m.form.Objects) > 0 {
		if l, ok := m.form.Objects[len(m.form.Objects)-1].(*widget.Label); ok {
			return l
		}
	}
	return nil
}

// askFields shows the arguments form in the menu; done gets the values.
func (m *composerMenu) askFields(title, desc, verb string, fields []formField, done func(map[string]string)) {
	m.title.SetText(title)
	entries := make([]*widget.Entry, len(fields))
	form := widget.NewForm()
	submit := func() {
		vals := map[string]string{}
		var missing []string
		for i, f := range fields {
			v := strings.TrimSpace(entries[i].Text)
			if v == "" && f.required {
				missing = append(missing, f.name)
			}
			vals[f.name] = v
		}
		if len(missing) > 0 {
			m.formError(fmt.Errorf("fill in %s", strings.Join(missing, ", ")))
			return
		}
		done(vals)
	}
	for i, f := range fields {
		e := widget.NewEntry()
		e.SetPlaceHolder(cmpOr(f.hint, f.name))
		last := i == len(fields)-1
		e.OnSubmitted = func(string) {
			if last {
				submit()
			} else if w := m.k.c.env.Window; w != nil {
				w.Canvas().Focus(entries[i+1])
			}
		}
		entries[i] = e
		label := cmpOr(f.title, f.name)
		if f.required {
			label += " *"
		}
		form.Append(label, e)
	}
	form.SubmitText, form.CancelText = verb, "Cancel"
	form.OnSubmit = submit
	form.OnCancel = func() {
		m.dismissed = m.k.entry.Text
		m.close()
		m.k.c.FocusComposer()
	}
	note := widget.NewLabel("")
	note.Wrapping = fyne.TextWrapWord
	note.Hide()
	objs := []fyne.CanvasObject{}
	if desc = strings.TrimSpace(desc); desc != "" {
		d := widget.NewLabel(desc)
		d.Wrapping = fyne.TextWrapWord
		objs = append(objs, d)
	}
	m.form.Objects = append(objs, form, note)
	m.rows.Hide()
	m.form.Show()
	m.form.Refresh()
	m.k.c.relayout()
	if w := m.k.c.env.Window; w != nil && len(entries) > 0 {
		w.Canvas().Focus(entries[0])
	}
}

// formError says what is wrong under the form.
func (m *composerMenu) formError(err error) {
	if l := m.formNote(); l != nil {
		l.SetText(err.Error())
		l.Importance = widget.DangerImportance
		l.Show()
		m.k.c.relayout()
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// getPrompt gets the prompt's messages in the background and puts them
// in the composer; a refusal shows in the form (or the menu).
func (m *composerMenu) getPrompt(p mcp.Prompt, args map[string]string) {
	env, core := m.k.c.env, m.k.c.core
	gen := m.gen
	m.title.SetText("Getting " + p.String() + "…")
	env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), menuTimeout)
		defer cancel()
		msgs, err := core.MCPPrompt(ctx, p.Server, p.Name, args)
		env.Do(func() {
			if gen != m.gen || m.mode != menuPrompts {
				return
			}
			if err != nil {
				m.title.SetText(p.String())
				if !m.form.Visible() {
					m.askFields(p.String(), p.Description, "Try again", nil, func(map[string]string) { m.getPrompt(p, nil) })
				}
				m.formError(err)
				return
			}
			text, atts := assistant.PromptText(msgs)
			m.close()
			m.dismissed = text // a prompt's text starting with / opens no menu
			m.k.entry.SetText(text)
			m.k.entry.CursorRow, m.k.entry.CursorColumn = cursorAtEnd(text)
			for _, a := range atts {
				m.addContent(p.Server, a)
			}
			m.k.c.FocusComposer()
		})
	})
}
