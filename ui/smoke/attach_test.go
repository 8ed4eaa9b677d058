//go:build smoke

package smoke

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestWindowAttachAndTab drops a picture and a notes file on the real
// window with a real X11 drag source (shared/tools/xdnd.c, XDND as a file
// manager speaks it) from a folder that is not granted, sends, and finds
// the picture in the fake model's request as image content and the notes
// as text; the granted folders are unchanged. Then Tab: "first", Tab,
// "second", Shift+Tab, Enter must send "first" alone, since Tab moved the
// focus out of the composer (before, it typed a tab there and "second"
// followed it). With $SHOTS set it saves the composer with the chips and
// the sent message there.
func TestWindowAttachAndTab(t *testing.T) {
	requireDisplay(t, "cc")
	ctx, bin := begin(t, 3*time.Minute)
	xdnd := buildXdnd(t, ctx)

	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text("A blue and orange chart; the notes say ship on Friday."))
	model.Reply(providertest.Text("Noted."))

	granted, outside := t.TempDir(), t.TempDir()
	// imageInput on: the fake model's name is no vision model's.
	cfg := openAIConfig(model.BaseURL(), granted)
	cfg["imageInput"] = "on"
	ws := newWorkspace(t, cfg)
	pic := chartPNG(t)
	picPath := filepath.Join(outside, "chart.png")
	notesPath := filepath.Join(outside, "notes.md")
	if err := os.WriteFile(picPath, pic, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notesPath, []byte("# Release\nShip on Friday.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	win := launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke"), ws)
	wid := win.wid

	// Drop both files over the message list.
	x, y, w, h := geometry(t, ctx, wid)
	dropX, dropY := strconv.Itoa(x+w*2/3), strconv.Itoa(y+h/2)
	if out, err := exec.CommandContext(ctx, xdnd, wid, dropX, dropY, "file://"+picPath, "file://"+notesPath).CombinedOutput(); err != nil {
		t.Fatalf("xdnd: %v: %s", err, out)
	}
	// The chips are read off the UI goroutine; a message sent while one
	// is read is refused ("Still reading"), so give them a moment.
	time.Sleep(time.Second)
	shotIn(t, ctx, "SHOTS", "attach-chips.png", false)
	send(t, ctx, "What do these show?")
	waitFor(t, ctx, "the request with the picture", func() bool { return len(model.Requests()) >= 1 })
	body := string(model.Requests()[0].Body)
	for _, want := range []string{`"url":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(pic), "What do these show?", "Ship on Friday.", `notes.md`} {
		if !strings.Contains(body, want) {
			t.Errorf("the model's request lacks %.80q:\n%.1500s", want, body)
		}
	}
	waitFor(t, ctx, "the reply to be stored", func() bool {
		return strings.Contains(win.conversation(ctx), "ship on Friday")
	})
	time.Sleep(500 * time.Millisecond) // the reply's last frame
	shotIn(t, ctx, "SHOTS", "attach-message.png", false)
	if cfg, err := os.ReadFile(filepath.Join(ws, "config.json")); err != nil || strings.Contains(string(cfg), outside) {
		t.Errorf("the drop changed the granted folders: %s %v", cfg, err)
	}

	// Tab leaves the composer: what is typed after it goes nowhere, and
	// Shift+Tab comes back.
	xdo(t, ctx, "type", "--delay", "15", "first")
	xdo(t, ctx, "key", "Tab")
	xdo(t, ctx, "type", "--delay", "15", "second")
	xdo(t, ctx, "key", "shift+Tab")
	xdo(t, ctx, "key", "Return")
	waitFor(t, ctx, "the second request", func() bool { return len(model.Requests()) >= 2 })
	if got := lastText(model.Requests()); got != "first" {
		t.Errorf("after Tab, Shift+Tab and Enter the composer sent %q; want %q (Tab must move the focus out)", got, "first")
	}
	if os.Getenv("SHOTS") == "" {
		return
	}
	// For the pictures: a file that cannot go stays as a red chip.
	bad := filepath.Join(outside, "setup.bin")
	if err := os.WriteFile(bad, []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0}, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.CommandContext(ctx, xdnd, wid, dropX, dropY, "file://"+picPath, "file://"+bad).CombinedOutput(); err != nil {
		t.Fatalf("xdnd: %v: %s", err, out)
	}
	time.Sleep(time.Second)
	send(t, ctx, "And this one?")
	time.Sleep(300 * time.Millisecond)
	shotIn(t, ctx, "SHOTS", "attach-error.png", false)
}

// buildXdnd compiles the X11 drag source kept in testdata (a copy of the
// team's shared tools/xdnd.c), so the drop is a real XDND drop wherever
// the smoke test runs, CI included.
func buildXdnd(t *testing.T, ctx context.Context) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", "xdnd.c"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "xdnd")
	if msg, err := exec.CommandContext(ctx, "cc", "-o", out, src, "-lX11").CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v: %s (libx11-dev is in `make smoke-deps`)", src, err, msg)
	}
	return out
}

// geometry is the window's position and size on the root window.
func geometry(t *testing.T, ctx context.Context, wid string) (x, y, w, h int) {
	t.Helper()
	vals := map[string]int{}
	for line := range strings.Lines(xdo(t, ctx, "getwindowgeometry", "--shell", wid)) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		vals[k], _ = strconv.Atoi(v)
	}
	return vals["X"], vals["Y"], vals["WIDTH"], vals["HEIGHT"]
}

// chartPNG is a small bar chart.
func chartPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 240, 160))
	bars := []struct {
		h int
		c color.NRGBA
	}{{60, color.NRGBA{0x3b, 0x82, 0xf6, 0xff}}, {110, color.NRGBA{0xf9, 0x73, 0x16, 0xff}}, {85, color.NRGBA{0x3b, 0x82, 0xf6, 0xff}}, {140, color.NRGBA{0xf9, 0x73, 0x16, 0xff}}}
	for y := range 160 {
		for x := range 240 {
			img.Set(x, y, color.NRGBA{0xfa, 0xfa, 0xfa, 0xff})
		}
	}
	for i, b := range bars {
		for y := 160 - b.h; y < 156; y++ {
			for x := 20 + i*55; x < 60+i*55; x++ {
				img.Set(x, y, b.c)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
