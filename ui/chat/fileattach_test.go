package chat

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/provider"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// testPNG is a small picture's bytes.
func testPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 32))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pressTab does what the desktop driver does with Tab (glfw
// window.capturesTab): a focused widget that accepts tabs gets the key as
// text; otherwise the focus moves on, or back with Shift.
func pressTab(c fyne.Canvas, shift bool) {
	if t, ok := c.Focused().(fyne.Tabbable); ok && t.AcceptsTab() {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
		return
	}
	if shift {
		c.FocusPrevious()
	} else {
		c.FocusNext()
	}
}

// Tab and Shift+Tab leave the composer (on main they typed tab characters
// into it, trapping a keyboard user); Ctrl+Tab still types one.
func TestComposerTabMovesFocus(t *testing.T) {
	h := newHarness(t)
	e := h.chat.composer.entry
	c := h.win.Canvas()
	for _, shift := range []bool{false, true} {
		c.Focus(e)
		e.SetText("draft")
		pressTab(c, shift)
		if c.Focused() == e {
			t.Errorf("shift=%v: the composer kept the focus", shift)
		}
		if e.Text != "draft" {
			t.Errorf("shift=%v: Tab changed the message to %q", shift, e.Text)
		}
	}
	c.Focus(e)
	e.SetText("")
	e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl})
	if e.Text != "\t" {
		t.Errorf("Ctrl+Tab typed %q; want a tab", e.Text)
	}
}

// Enter while an approval waits says why nothing was sent (on main it did
// nothing at all), keeps the message, and the note goes when the person
// types or the turn ends.
func TestEnterDuringApprovalSaysSo(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo hi"}`))
	h.model.Reply(pt.Text("done"))
	h.send("run it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	h.send("and another thing")
	if !h.shows("Answer the approval above first (Ctrl+Enter approves)") {
		t.Fatalf("Enter during an approval said nothing; the window shows:\n%s", h.texts())
	}
	if got := h.chat.composer.entry.Text; got != "and another thing" {
		t.Errorf("the message became %q; it must be kept", got)
	}
	test.Tap(h.button("Approve"))
	h.idle()
	if h.shows("Answer the approval above first") {
		t.Error("the note stayed after the turn ended")
	}
}

// Dropped files become chips: a text file goes as its text, an image as
// image content of the message (on main a drop typed the file's path
// into the message, which the model could not read outside the granted
// folders). The chips go once sent.
func TestDroppedFilesReachTheModel(t *testing.T) {
	h := newHarness(t)
	if _, err := h.core.SetConfig("imageInput", "on"); err != nil {
		t.Fatal(err)
	}
	pic := testPNG(t)
	img := writeFile(t, "chart.png", pic)
	notes := writeFile(t, "notes.md", []byte("# Plan\nShip on Friday.\n"))
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(img), storage.NewFileURI(notes)})
	h.until("the chips", func() bool { return h.shows("chart.png · image") && h.shows("notes.md · text") })
	if h.shows("does not read images") {
		t.Errorf("warned about images with imageInput on:\n%s", h.texts())
	}
	h.model.Reply(pt.Text("Seen."))
	h.send("What do these say?")
	h.idle()
	reqs := h.model.Requests()
	body := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{
		`"url":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(pic),
		`What do these say?`,
		`<file name=\"notes.md\" path=\"` + notes,
		`Ship on Friday.`,
		`[Attached image chart.png (image/png,`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %.120q:\n%.2000s", want, body)
		}
	}
	if h.shows("chart.png · image") {
		t.Error("the chips stayed after sending")
	}
	if u := h.rowsOf(rowUser); len(u) != 1 || len(u[0].images) != 1 {
		t.Errorf("the user message does not keep its image")
	}
	// The files go with the turn, so fs_read may read them in this
	// conversation (and no other) although their folder is not granted.
	conv, err := h.core.History().GetConversation(h.chat.cur.id)
	if err != nil {
		t.Fatal(err)
	}
	var attached []string
	for _, f := range conv.Attached {
		attached = append(attached, f.Path)
	}
	if !slices.Equal(attached, []string{img, notes}) {
		t.Errorf("the conversation records attached files %q; want %q", attached, []string{img, notes})
	}
	// The sent message shows the picture as a thumbnail under its text.
	thumbs := 0
	for _, o := range h.visible() {
		if img, ok := o.(*canvas.Image); ok && img.Image != nil && img.MinSize().Height == thumbHeight {
			thumbs++
		}
	}
	if thumbs != 1 {
		t.Errorf("the sent message shows %d thumbnails; want 1", thumbs)
	}
}

// A file that cannot go stays as a red chip saying why, blocks sending
// until removed, and removing it sends the rest.
func TestUnsendableFileChip(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		says string
	}{
		{"tool.bin", []byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2}, "is binary data"},
		{"scan.pdf", []byte("%PDF-1.4\nnot really"), "could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			p := writeFile(t, tt.name, tt.data)
			h.chat.composer.attach([]string{p})
			h.until("the chip", func() bool { return h.shows(tt.says) })
			h.send("hello")
			if !h.shows("Could not attach " + tt.name + "; remove it to send") {
				t.Fatalf("sending with a failed file said nothing:\n%s", h.texts())
			}
			if n := len(h.model.Requests()); n != 0 {
				t.Fatalf("%d requests: the message went with a failed file", n)
			}
			at := h.chat.composer.menu.files[0]
			if !strings.Contains(at.remove.Tip, "Remove "+tt.name) {
				t.Errorf("the remove button's tip is %q", at.remove.Tip)
			}
			test.Tap(at.remove)
			if h.shows("Could not attach") {
				t.Error("the note stayed after the file was removed")
			}
			h.model.Reply(pt.Text("hi"))
			h.send("hello")
			h.idle()
			if n := len(h.model.Requests()); n != 1 {
				t.Errorf("%d requests after removing the file", n)
			}
		})
	}
}

// An image attached for a model that does not read images warns before
// sending (the fake model's name is no vision model's).
func TestImageForBlindModelWarns(t *testing.T) {
	h := newHarness(t)
	h.chat.composer.attach([]string{writeFile(t, "photo.png", testPNG(t))})
	h.until("the warning", func() bool { return h.shows("fake-model does not read images") })
	h.chat.picker.choose("gpt-4o") // a model that reads images: no warning
	if h.shows("does not read images") {
		t.Error("the warning stayed after choosing a model that reads images")
	}
	h.chat.picker.choose("fake-model")
	if !h.shows("fake-model does not read images") {
		t.Error("no warning after choosing a model that does not read images again")
	}
	test.Tap(h.chat.composer.menu.files[0].remove)
	if h.shows("does not read images") {
		t.Error("the warning stayed after the image was removed")
	}
}

// The paperclip opens the file chooser.
func TestPaperclipOpensChooser(t *testing.T) {
	h := newHarness(t)
	if !strings.Contains(h.chat.composer.clip.Tip, "Attach a file") {
		t.Errorf("the paperclip's tip is %q", h.chat.composer.clip.Tip)
	}
	test.Tap(h.chat.composer.clip)
	if h.win.Canvas().Overlays().Top() == nil {
		t.Fatal("the paperclip opened no file chooser")
	}
}

// Pasting text that names files attaches them; other text pastes as text.
func TestPasteFilePaths(t *testing.T) {
	h := newHarness(t)
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)
	p := writeFile(t, "pasted.txt", []byte("hello"))
	clip := fyne.CurrentApp().Clipboard()
	clip.SetContent("file://" + p + "\n")
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
	h.until("the chip", func() bool { return h.shows("pasted.txt · text") })
	if e.Text != "" {
		t.Errorf("the path was also typed: %q", e.Text)
	}
	clip.SetContent("just words " + p)
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
	if e.Text != "just words "+p {
		t.Errorf("text pasted as %q", e.Text)
	}
}

func TestPastedPaths(t *testing.T) {
	a := writeFile(t, "a.txt", []byte("a"))
	b := writeFile(t, "b.txt", []byte("b"))
	tests := []struct {
		in   string
		want []string
	}{
		{a, []string{a}},
		{"file://" + a + "\r\nfile://" + b + "\n", []string{a, b}},
		{a + "\n" + b, []string{a, b}},
		{"a.txt", nil},
		{a + "\nsome words", nil},
		{filepath.Dir(a), nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := pastedPaths(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("pastedPaths(%q) = %v; want %v", tt.in, got, tt.want)
		}
	}
}

// A user message's pictures show as thumbnails kept at thumbnail size,
// not as the whole decoded picture (which the canvas would keep as long
// as the thumbnail lives); the measuring row decodes nothing. Other rows
// show none.
func TestMessageImages(t *testing.T) {
	test.NewTempApp(t)
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 1000, 500))); err != nil {
		t.Fatal(err)
	}
	pics := []provider.Image{{MIMEType: "image/png", Data: b.Bytes()}}
	quiet := newMessageImages()
	quiet.bind(&row{kind: rowUser, images: pics}, imageSource{}, true)
	if _, ok := quiet.box.Objects[0].(*fyne.Container).Objects[1].(*canvas.Rectangle); !ok {
		t.Error("the measuring row decoded the picture")
	}
	if got := quiet.box.MinSize().Height; got != thumbHeight {
		t.Errorf("the measuring row is %v high; want %d", got, thumbHeight)
	}
	m := newMessageImages()
	m.bind(&row{kind: rowUser, images: pics}, imageSource{}, false)
	if !m.Object().Visible() || len(m.box.Objects) != 1 {
		t.Fatalf("a user message with a picture shows %d thumbnails", len(m.box.Objects))
	}
	img := m.box.Objects[0].(*fyne.Container).Objects[1].(*canvas.Image)
	if img.Image == nil {
		t.Fatal("the thumbnail is not decoded at its size")
	}
	if got := img.Image.Bounds().Size(); got.X > thumbScale*thumbMaxWidth || got.Y > thumbScale*thumbHeight {
		t.Errorf("the thumbnail keeps %v pixels of a 1000×500 picture; want at most %d high", got, thumbScale*thumbHeight)
	}
	if got := img.MinSize(); got.Height != thumbHeight || got.Width != 2*thumbHeight {
		t.Errorf("thumbnail %v; want the picture's shape at height %d", got, thumbHeight)
	}
	m.bind(&row{kind: rowAssistant, images: pics}, imageSource{}, false)
	if m.Object().Visible() {
		t.Error("a reply row shows the user's pictures")
	}
}

// A picture read from the store without its bytes (a page of History) is
// read when its thumbnail is drawn, not when a row is measured, and two
// messages with pictures of the same type are told apart by their event.
func TestThumbnailsReadTheirBytesWhenDrawn(t *testing.T) {
	test.NewTempApp(t)
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 200, 100))); err != nil {
		t.Fatal(err)
	}
	reads := map[uint64]int{}
	src := imageSource{id: 7, read: func(id store.ID, seq uint64, n int) ([]byte, error) {
		if id != 7 || n != 0 {
			t.Errorf("read picture %d of event %d of %v", n, seq, id)
		}
		reads[seq]++
		return b.Bytes(), nil
	}}
	lazy := []provider.Image{{MIMEType: "image/png"}}
	quiet := newMessageImages()
	quiet.bind(&row{kind: rowUser, seq: 3, images: lazy}, src, true)
	if len(reads) != 0 {
		t.Fatalf("measuring a row read %v", reads)
	}
	if got := quiet.box.MinSize().Height; got != thumbHeight {
		t.Errorf("the measured row is %v high; want %d", got, thumbHeight)
	}
	m := newMessageImages()
	m.bind(&row{kind: rowUser, seq: 3, images: lazy}, src, false)
	m.bind(&row{kind: rowUser, seq: 3, images: lazy}, src, false) // bound again: no new read
	if reads[3] != 1 {
		t.Fatalf("drawing the row read event 3 %d times; want once", reads[3])
	}
	img := m.box.Objects[0].(*fyne.Container).Objects[1].(*canvas.Image)
	if img.Image == nil || img.MinSize().Width != 2*thumbHeight {
		t.Fatalf("the thumbnail %v is not the 2:1 picture read", img.MinSize())
	}
	m.bind(&row{kind: rowUser, seq: 9, images: lazy}, src, false)
	if reads[9] != 1 {
		t.Errorf("a view bound to another message's picture showed the old one (reads %v)", reads)
	}
}

// The window opens a stored conversation without holding its pictures'
// bytes in its rows, and still draws them.
func TestOpenedConversationReadsPicturesOnDemand(t *testing.T) {
	h := newHarness(t)
	if _, err := h.core.SetConfig("imageInput", "on"); err != nil {
		t.Fatal(err)
	}
	h.chat.HandleDrop([]fyne.URI{storage.NewFileURI(writeFile(t, "chart.png", testPNG(t)))})
	h.until("the chip", func() bool { return h.shows("chart.png · image") })
	h.model.Reply(pt.Text("Seen."))
	h.send("What is this?")
	h.idle()
	id := h.chat.cur.id
	h.chat.Open(0)
	h.chat.Open(id)
	h.until("the conversation", func() bool { return len(h.rowsOf(rowUser)) == 1 })
	if u := h.rowsOf(rowUser)[0]; len(u.images) != 1 || u.images[0].Data != nil {
		t.Fatalf("the opened message's row holds %d pictures with %d bytes; want one without its bytes",
			len(u.images), len(u.images[0].Data))
	}
	thumbs := 0
	for _, o := range h.visible() {
		if img, ok := o.(*canvas.Image); ok && img.Image != nil && img.MinSize().Height == thumbHeight {
			thumbs++
		}
	}
	if thumbs != 1 {
		t.Errorf("the opened message shows %d thumbnails; want 1", thumbs)
	}
}

// A picture on the clipboard (a screenshot, an image copied in a browser)
// pasted with Ctrl+V becomes an image chip and reaches the model as image
// content; an empty clipboard says so and attaches nothing.
func TestPasteAPicture(t *testing.T) {
	h := newHarness(t)
	if _, err := h.core.SetConfig("imageInput", "on"); err != nil {
		t.Fatal(err)
	}
	pic := testPNG(t)
	var clipPic []byte
	h.env.PasteImage = func() []byte { return clipPic }
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)
	clip := fyne.CurrentApp().Clipboard()
	clip.SetContent("")
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
	h.until("the note", func() bool { return h.shows("The clipboard holds no text or picture to paste.") })
	if len(h.chat.composer.menu.attachments.files) != 0 {
		t.Fatal("an empty clipboard attached something")
	}
	clipPic = pic
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
	h.until("the chip", func() bool { return h.shows("pasted image 2.png · image") })
	h.model.Reply(pt.Text("A chart."))
	h.send("What is this?")
	h.idle()
	reqs := h.model.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, `"url":"data:image/png;base64,`+base64.StdEncoding.EncodeToString(pic)) {
		t.Errorf("the pasted picture did not reach the model:\n%.1500s", body)
	}
	conv, err := h.core.History().GetConversation(h.chat.cur.id)
	if err != nil || len(conv.Attached) != 0 {
		t.Errorf("a pasted picture recorded attached files %v (%v); it has no path to read", conv.Attached, err)
	}
}
