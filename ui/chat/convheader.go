package chat

import (
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// convHeader is the chat's top bar: the loaded-capabilities strip, the
// conversation's token use and cost so far, the model picker and the
// buttons (Instructions, Find, Export), with the conversation's own
// instructions as a banner under it when it has some.
type convHeader struct {
	c *Chat
	// usage is "52.3k in · 1.2k out · $0.18", the conversation's
	// tokens so far; its tooltip adds the cache and today's total.
	usage        *tip.Label
	instructions *tip.Button
	bar          fyne.CanvasObject
	// banner shows the conversation's instructions (bannerText, one
	// line; the whole on hover) with a button to edit them.
	banner     *fyne.Container
	bannerText *tip.Label
	// shown are the instructions the banner shows, for tests.
	shown string
	// usageGen numbers the usage asked for (showUsage).
	usageGen int
}

func newConvHeader(c *Chat) *convHeader {
	h := &convHeader{c: c}
	h.usage = tip.NewLabel()
	h.usage.SizeName = theme.SizeNameCaptionText
	h.instructions = tip.NewButton("", theme.ListIcon(), "", h.editInstructions)
	find := tip.NewButton("", theme.SearchIcon(), "Find in this conversation (Ctrl+F)", c.ShowFind)
	export := tip.NewButton("", theme.DocumentSaveIcon(), "Export this conversation…", c.exportDialog)
	h.bar = container.NewBorder(nil, nil, nil,
		container.NewHBox(container.NewCenter(h.usage), c.picker.button, h.instructions, find, export), c.strip.object)

	h.bannerText = tip.NewLabel()
	h.bannerText.Truncation = fyne.TextTruncateEllipsis
	edit := tip.NewButton("Edit", theme.DocumentCreateIcon(), "Edit this conversation's instructions", h.editInstructions)
	icon := widget.NewIcon(theme.ListIcon())
	h.banner = container.NewBorder(nil, nil, icon, edit, h.bannerText)
	h.banner.Hide()
	return h
}

// refresh shows the current conversation's instructions and use.
func (h *convHeader) refresh() {
	id := h.c.cur.id
	var conv store.Conversation
	if id != 0 {
		conv, _ = h.c.core.History().GetConversation(id)
	}
	if id == 0 {
		conv.Instructions = h.c.cur.draftInstructions
	}
	h.showInstructions(conv.Instructions)
	h.instructions.Tip = "Instructions for this conversation…"
	h.showUsage(id)
}

func (h *convHeader) showInstructions(text string) {
	if text == h.shown && h.banner.Visible() == (text != "") {
		return
	}
	h.shown = text
	if text == "" {
		h.banner.Hide()
	} else {
		first, _, more := strings.Cut(text, "\n")
		if more {
			first += " …"
		}
		h.bannerText.SetText("Instructions: " + first)
		h.bannerText.Tip = text
		h.banner.Show()
	}
	h.c.relayout()
}

// showUsage writes the conversation's tokens and cost so far, and
// today's across conversations in the tooltip. Adding them up may read
// the conversation's history (the first time, or what was added since),
// so it runs off the UI goroutine; usageGen drops an answer for a
// conversation no longer shown.
func (h *convHeader) showUsage(id store.ID) {
	h.usageGen++
	gen := h.usageGen
	if id == 0 {
		h.usage.SetText("")
		h.usage.Hide()
		return
	}
	today := h.c.clock.Now().Local().Format(time.DateOnly)
	h.c.env.Go(func() {
		u, err := h.c.core.ConversationUsage(id)
		var day assistant.UsageTotal
		var dayOK bool
		if err == nil {
			if rep, rerr := h.c.core.UsageByDay(); rerr == nil {
				day, dayOK = rep.Days[today]
			}
		}
		h.c.env.Do(func() {
			if gen != h.usageGen {
				return
			}
			if err != nil || u.InputTokens == 0 && u.OutputTokens == 0 {
				h.usage.SetText("")
				h.usage.Hide()
				return
			}
			h.usage.SetText(usageSummary(u))
			text := "This conversation: " + usageDetail(u)
			if dayOK {
				text += "\nToday, all conversations: " + usageDetail(day)
			}
			h.usage.Tip = text + "\nSettings → Usage has every day and the prices."
			h.usage.Show()
		})
	})
}

// usageSummary is "52.3k in · 1.2k out · $0.18".
func usageSummary(u assistant.UsageTotal) string {
	return fmt.Sprintf("%s in · %s out · %s", tokens(u.InputTokens), tokens(u.OutputTokens), assistant.CostText(u))
}

// usageDetail adds what the prompt cache served and wrote.
func usageDetail(u assistant.UsageTotal) string {
	in := tokens(u.InputTokens) + " in"
	var cache []string
	if u.CachedTokens > 0 {
		cache = append(cache, tokens(u.CachedTokens)+" read from the cache")
	}
	if u.CacheWriteTokens > 0 {
		cache = append(cache, tokens(u.CacheWriteTokens)+" written to it")
	}
	if len(cache) > 0 {
		in += " (" + strings.Join(cache, ", ") + ")"
	}
	s := fmt.Sprintf("%s, %s out, %s", in, tokens(u.OutputTokens), assistant.CostText(u))
	if u.Unpriced {
		s += " (? : a model with no price; add it in Settings → Usage)"
	}
	return s
}

// instructionsSize is the editor's size: room for a paragraph or two.
var instructionsSize = fyne.NewSize(560, 320)

// editInstructions opens the editor of the conversation's instructions.
func (h *convHeader) editInstructions() {
	tr, id := h.c.cur, h.c.cur.id
	if h.c.env.Window == nil {
		return
	}
	// Before the first message there is no conversation to keep them
	// in yet: the draft goes with that message (TurnOptions.Instructions).
	conv := store.Conversation{Title: "the new conversation", Instructions: tr.draftInstructions}
	if id != 0 {
		var err error
		if conv, err = h.c.core.History().GetConversation(id); err != nil {
			dialog.ShowError(err, h.c.env.Window)
			return
		}
		conv.Title = "“" + titleOf(conv.Title) + "”"
	}
	e := widget.NewMultiLineEntry()
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(6)
	e.SetPlaceHolder("How the assistant should answer in this conversation, e.g. “Answer in French, briefly.”")
	e.SetText(conv.Instructions)
	note := widget.NewLabel("Added to the assistant's instructions for every reply in this conversation only. Empty removes them.")
	note.Wrapping = fyne.TextWrapWord
	note.SizeName = theme.SizeNameCaptionText
	d := dialog.NewCustomConfirm("Instructions for "+conv.Title, "Save", "Cancel",
		container.NewBorder(nil, note, nil, nil, e), func(ok bool) {
			switch {
			case !ok:
			case id != 0:
				h.saveInstructions(id, e.Text)
			case tr.id == 0:
				tr.draftInstructions = strings.TrimSpace(e.Text)
				if h.c.cur == tr {
					h.refresh()
				}
			default:
				// The first message was sent while the editor was open: the
				// conversation exists now, so they go to it.
				h.saveInstructions(tr.id, e.Text)
			}
		}, h.c.env.Window)
	d.Resize(instructionsSize)
	d.Show()
	h.c.env.Window.Canvas().Focus(e)
}

// saveInstructions stores them through the core, which publishes the
// change; the header shows it at once.
func (h *convHeader) saveInstructions(id store.ID, text string) {
	if err := h.c.core.SetConversationInstructions(id, text); err != nil {
		dialog.ShowError(err, h.c.env.Window)
		return
	}
	if h.c.cur.id == id {
		h.refresh()
	}
}

// withInstructions puts conversation id's own instructions, when it has
// some, under the export's heading (md's first line), as a quote.
func withInstructions(md string, core *assistant.App, id store.ID) string {
	conv, err := core.History().GetConversation(id)
	if err != nil || conv.Instructions == "" {
		return md
	}
	head, rest, _ := strings.Cut(md, "\n")
	var b strings.Builder
	b.WriteString(head + "\n\n> **Instructions for this conversation**\n>\n")
	for _, line := range strings.Split(conv.Instructions, "\n") {
		b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
	}
	b.WriteString(rest)
	return b.String()
}
