package markdown

import (
	"fmt"
	"image/color"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// all returns every object of type T drawn under o, in drawing order.
func all[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	for _, obj := range test.LaidOutObjects(o) {
		if x, ok := obj.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func one[T fyne.CanvasObject](t *testing.T, o fyne.CanvasObject) T {
	t.Helper()
	xs := all[T](o)
	if len(xs) != 1 {
		var zero T
		t.Fatalf("want one %T, found %d", zero, len(xs))
	}
	return xs[0]
}

// laidOut renders src in a view laid out at width.
func laidOut(t *testing.T, src string, width float32, opts Options) *View {
	t.Helper()
	v := NewView(opts)
	v.SetMarkdown(src)
	v.Resize(fyne.NewSize(width, v.HeightFor(width)))
	test.TempWidgetRenderer(t, v)
	return v
}

func TestRenderStructure(t *testing.T) {
	test.NewTempApp(t)
	cases := []struct {
		name  string
		src   string
		check func(t *testing.T, v *View)
	}{
		{"table is a grid with bold headers and aligned columns",
			"| Name | Qty | Notes |\n|:--|:-:|--:|\n| apple | 3 | crisp |\n| pear |\n",
			func(t *testing.T, v *View) {
				tb := one[*table](t, v)
				if tb.cols != 3 || len(tb.cells) != 3 {
					t.Fatalf("grid %d×%d, want 3 rows × 3 columns", len(tb.cells), tb.cols)
				}
				for c, cell := range tb.cells[0] {
					if !cell.spans[0].bold {
						t.Errorf("header cell %d not bold", c)
					}
				}
				if tb.cells[1][0].spans[0].bold {
					t.Error("body cell bold")
				}
				want := []fyne.TextAlign{fyne.TextAlignLeading, fyne.TextAlignCenter, fyne.TextAlignTrailing}
				for c, a := range want {
					if got := tb.cells[1][c].align; got != a {
						t.Errorf("column %d aligned %v, want %v", c, got, a)
					}
				}
				if len(tb.cells[2]) != 3 || tb.cells[2][2].plain() != "" {
					t.Error("short row not padded with empty cells")
				}
			}},
		{"code block has caption, exact code and a Copy button",
			"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n",
			func(t *testing.T, v *View) {
				cb := one[*codeBlock](t, v)
				if cb.code != "func main() {\n\tprintln(\"hi\")\n}" {
					t.Errorf("code %q", cb.code)
				}
				if cb.lang != "go" || cb.caption.plain() != "go" {
					t.Errorf("language %q", cb.lang)
				}
				if b := one[*widget.Button](t, v); b.Text != "Copy" {
					t.Errorf("button says %q", b.Text)
				}
			}},
		{"an open fence while streaming is a code block so far",
			"Here:\n\n```python\nprint(1)\nfor x in",
			func(t *testing.T, v *View) {
				if cb := one[*codeBlock](t, v); cb.code != "print(1)\nfor x in" || cb.lang != "python" {
					t.Errorf("code %q lang %q", cb.code, cb.lang)
				}
			}},
		{"half a table while streaming is text",
			"| a | b |\n| -",
			func(t *testing.T, v *View) {
				if n := len(all[*table](v)); n != 0 {
					t.Errorf("%d tables before the delimiter row is complete", n)
				}
				if !strings.Contains(v.PlainText(), "| a | b |") {
					t.Errorf("text %q", v.PlainText())
				}
			}},
		{"indented code block",
			"text\n\n    x := 1\n    y := 2\n",
			func(t *testing.T, v *View) {
				if cb := one[*codeBlock](t, v); cb.code != "x := 1\ny := 2" || cb.lang != "" {
					t.Errorf("code %q", cb.code)
				}
			}},
		{"inline styles",
			"*em* **strong** ~~gone~~ `code` [site](https://example.com) <https://a.example> www.b.example [bad](file:///etc/passwd)",
			func(t *testing.T, v *View) {
				f := one[*textFlow](t, v)
				find := func(text string) span {
					for _, s := range f.spans {
						if strings.TrimSpace(s.text) == text {
							return s
						}
					}
					t.Fatalf("no span %q in %+v", text, f.spans)
					return span{}
				}
				if !find("em").italic || !find("strong").bold || !find("gone").strike || !find("code").code {
					t.Error("emphasis, strong, strikethrough or code lost")
				}
				if u := find("site").link; u == nil || u.String() != "https://example.com" {
					t.Errorf("link %v", u)
				}
				if u := find("https://a.example").link; u == nil {
					t.Error("autolink not a link")
				}
				if u := find("www.b.example").link; u == nil || u.String() != "http://www.b.example" {
					t.Errorf("linkify %v", u)
				}
				if find("bad").link != nil {
					t.Error("file: link is tappable")
				}
			}},
		{"headings have distinct sizes, all bold",
			"# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6\n",
			func(t *testing.T, v *View) {
				fs := all[*textFlow](v)
				if len(fs) != 6 {
					t.Fatalf("%d headings", len(fs))
				}
				for i, f := range fs {
					if !f.spans[0].bold {
						t.Errorf("H%d not bold", i+1)
					}
					if i > 0 && f.textSize() >= fs[i-1].textSize() {
						t.Errorf("H%d (%v) not smaller than H%d (%v)", i+1, f.textSize(), i, fs[i-1].textSize())
					}
				}
				if body := theme.TextSize(); fs[2].textSize() <= body {
					t.Errorf("H3 %v not larger than body text %v", fs[2].textSize(), body)
				}
			}},
		{"nested lists and tasks",
			"- a\n  - b\n    1. c\n- [x] done\n- [ ] open\n",
			func(t *testing.T, v *View) {
				if n := len(all[*widget.Icon](v)); n != 2 {
					t.Errorf("%d checkbox icons, want 2", n)
				}
				got := v.PlainText()
				want := "- a\n  - b\n    1. c\n[x] done\n[ ] open"
				if got != want {
					t.Errorf("plain text\n%q, want\n%q", got, want)
				}
			}},
		{"quote and rule",
			"> quoted *text*\n\n---\n\nafter",
			func(t *testing.T, v *View) {
				one[*quote](t, v)
				one[*widget.Separator](t, v)
				if got := v.PlainText(); got != "> quoted text\n\n---\n\nafter" {
					t.Errorf("plain %q", got)
				}
			}},
		{"escapes and entities resolved",
			`a \*not em\* &amp; &#65; &copy;`,
			func(t *testing.T, v *View) {
				if got := v.PlainText(); got != "a *not em* & A ©" {
					t.Errorf("plain %q", got)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, laidOut(t, c.src, 500, Options{}))
		})
	}
}

func TestCopyButton(t *testing.T) {
	test.NewTempApp(t)
	var copied []string
	var pending []func()
	var delay time.Duration
	opts := Options{
		Copy:  func(s string) { copied = append(copied, s) },
		After: func(d time.Duration, f func()) { delay = d; pending = append(pending, f) },
	}
	code := "a  b\n\tc\n"
	v := laidOut(t, "```\n"+code+"```\n", 400, opts)
	b := one[*widget.Button](t, v)

	test.Tap(b)
	if len(copied) != 1 || copied[0] != strings.TrimSuffix(code, "\n") {
		t.Fatalf("copied %q", copied)
	}
	if b.Text != "Copied" || b.Icon != theme.ConfirmIcon() {
		t.Errorf("after tap: %q %v", b.Text, b.Icon)
	}
	if delay < 500*time.Millisecond || delay > 2*time.Second {
		t.Errorf("reverts after %v, want about a second", delay)
	}
	test.Tap(b) // again before the first revert
	pending[0]()
	if b.Text != "Copied" {
		t.Error("the first tap's timer reverted the second tap's confirmation")
	}
	pending[1]()
	if b.Text != "Copy" || b.Icon != theme.ContentCopyIcon() {
		t.Errorf("after revert: %q", b.Text)
	}
}

func TestLinkTap(t *testing.T) {
	test.NewTempApp(t)
	var opened, asked []string
	v := laidOut(t, "see [the docs](https://example.com/docs) and [x](javascript:alert(1))", 400,
		Options{OpenURL: func(u *url.URL) { opened = append(opened, u.String()) },
			ConfirmOpen: func(_ fyne.CanvasObject, u *url.URL, open func()) { asked = append(asked, u.String()); open() }})
	hits := all[*linkHit](v)
	if len(hits) != 1 {
		t.Fatalf("%d tappable links, want 1 (javascript: is not)", len(hits))
	}
	test.Tap(hits[0])
	// Its text is not its address: the address is shown first, and it
	// opens once the person agrees.
	if len(asked) != 1 || asked[0] != "https://example.com/docs" {
		t.Errorf("asked about %q, want the full address", asked)
	}
	if len(opened) != 1 || opened[0] != "https://example.com/docs" {
		t.Errorf("opened %q", opened)
	}
}

// A link whose text is its address opens on one tap: the person read
// where it goes.
func TestLinkShowingItsAddressOpensAtOnce(t *testing.T) {
	for _, src := range []string{
		"see <https://example.com/docs?q=1>",
		"see https://example.com/docs",
		"see [https://example.com/docs](https://example.com/docs)",
		"see [example.com/docs/](https://example.com/docs)",
	} {
		test.NewTempApp(t)
		var opened []string
		v := laidOut(t, src, 400, Options{OpenURL: func(u *url.URL) { opened = append(opened, u.String()) },
			ConfirmOpen: func(fyne.CanvasObject, *url.URL, func()) { t.Errorf("%q: asked, want it opened at once", src) }})
		hits := all[*linkHit](v)
		if len(hits) == 0 {
			t.Fatalf("%q: no tappable link", src)
		}
		test.Tap(hits[0])
		if len(opened) != 1 {
			t.Errorf("%q: opened %q, want one", src, opened)
		}
	}
}

// With no hook, a disguised link shows a dialog in its window with the
// full address, and opens only when the person presses Open.
func TestDisguisedLinkDialog(t *testing.T) {
	a := test.NewTempApp(t)
	var opened []string
	v := NewView(Options{OpenURL: func(u *url.URL) { opened = append(opened, u.String()) }})
	v.SetMarkdown("[the report](https://example.com/r?d=secret)")
	w := a.NewWindow("chat")
	w.SetContent(v)
	w.Resize(fyne.NewSize(600, 400))
	hits := all[*linkHit](v)
	if len(hits) == 0 {
		t.Fatal("no tappable link")
	}
	test.Tap(hits[0])
	if len(opened) != 0 {
		t.Fatalf("opened %q before any confirmation", opened)
	}
	overlay := w.Canvas().Overlays().Top()
	if overlay == nil {
		t.Fatal("no dialog shown")
	}
	var shown bool
	var openBtn *widget.Button
	for _, o := range test.LaidOutObjects(overlay) {
		switch x := o.(type) {
		case *widget.Label:
			shown = shown || x.Text == "https://example.com/r?d=secret"
		case *widget.Button:
			if x.Text == "Open" {
				openBtn = x
			}
		}
	}
	if !shown || openBtn == nil {
		t.Fatalf("dialog shows the address %v, has Open %v", shown, openBtn != nil)
	}
	test.Tap(openBtn)
	if len(opened) != 1 || opened[0] != "https://example.com/r?d=secret" {
		t.Errorf("opened %q", opened)
	}
}

func TestLinkWrapsAcrossLines(t *testing.T) {
	test.NewTempApp(t)
	v := laidOut(t, "[a link whose text is long enough to wrap over several lines](https://example.com)", 120, Options{})
	hits := all[*linkHit](v)
	if len(hits) < 2 {
		t.Fatalf("link on %d line(s) at 120 wide, want it wrapped", len(hits))
	}
	for _, h := range hits {
		if h.Position().X+h.Size().Width > 120.5 {
			t.Errorf("link piece ends at %v, past the 120 edge", h.Position().X+h.Size().Width)
		}
	}
}

const sampleDoc = "# Title\n\nSome *text* with `code` and a [link](https://example.com) that is long enough to wrap.\n\n" +
	"- one\n- two\n  - nested\n\n> quote\n\n```go\nfmt.Println(\"a long line of code that will have to wrap somewhere\")\n```\n\n" +
	"| a | b |\n|---|--:|\n| cell text that wraps | 1 |\n"

func TestHeightFor(t *testing.T) {
	test.NewTempApp(t)
	v := NewView(Options{})
	v.SetMarkdown(sampleDoc)
	wide, narrow, tiny := v.HeightFor(800), v.HeightFor(300), v.HeightFor(60)
	if !(wide < narrow && narrow < tiny) {
		t.Errorf("heights wide %v, narrow %v, tiny %v: want taller when narrower", wide, narrow, tiny)
	}
	if again := v.HeightFor(300); again != narrow {
		t.Errorf("HeightFor(300) changed from %v to %v", narrow, again)
	}
	// The measured height is the height the laid-out view asks for.
	v.Resize(fyne.NewSize(300, narrow))
	test.TempWidgetRenderer(t, v)
	if ms := v.MinSize().Height; ms != narrow {
		t.Errorf("MinSize height %v after layout at 300, HeightFor said %v", ms, narrow)
	}
	objs := test.LaidOutObjects(v)
	var bottom float32
	for _, o := range v.objects {
		bottom = max(bottom, o.Position().Y+o.Size().Height)
	}
	if bottom > narrow+0.5 || len(objs) == 0 {
		t.Errorf("blocks reach %v, below the measured %v", bottom, narrow)
	}
}

func TestSetMarkdownReusesUnchangedBlocks(t *testing.T) {
	test.NewTempApp(t)
	v := NewView(Options{})
	v.SetMarkdown("# Title\n\nfirst paragraph\n\nsecond")
	before := append([]fyne.CanvasObject(nil), v.objects...)
	v.SetMarkdown("# Title\n\nfirst paragraph\n\nsecond, growing")
	if len(v.objects) != 3 || v.objects[0] != before[0] || v.objects[1] != before[1] {
		t.Error("unchanged leading blocks were rebuilt")
	}
	if v.objects[2] == before[2] {
		t.Error("the changed trailing block was kept")
	}
	kept := v.objects[2]
	v.SetMarkdown("# Title\n\nfirst paragraph\n\nsecond, growing")
	if v.objects[2] != kept {
		t.Error("same source rebuilt")
	}
	// A later line can change an earlier block: setext heading.
	v.SetMarkdown("# Title\n\nfirst paragraph\n===\n\nsecond, growing")
	if f, ok := v.objects[1].(*textFlow); !ok || !f.spans[0].bold {
		t.Error("paragraph turned setext heading not rebuilt")
	}
	// A reference definition arriving later changes earlier paragraphs.
	v.SetMarkdown("see [x]\n\nmore")
	first := v.objects[0]
	v.SetMarkdown("see [x]\n\nmore\n\n[x]: https://example.com")
	if v.objects[0] == first {
		t.Error("paragraph not rebuilt when its link reference was defined")
	}
	if f := v.objects[0].(*textFlow); f.spans[len(f.spans)-1].link == nil {
		t.Errorf("reference link not resolved: %+v", f.spans)
	}
}

func TestStreamingMatchesFreshRender(t *testing.T) {
	test.NewTempApp(t)
	streamed := NewView(Options{})
	for i := 0; i <= len(sampleDoc); i += 7 {
		streamed.SetMarkdown(sampleDoc[:i])
	}
	streamed.SetMarkdown(sampleDoc)
	fresh := NewView(Options{})
	fresh.SetMarkdown(sampleDoc)
	if streamed.PlainText() != fresh.PlainText() {
		t.Errorf("streamed\n%q\nfresh\n%q", streamed.PlainText(), fresh.PlainText())
	}
	for _, w := range []float32{200, 500} {
		if a, b := streamed.HeightFor(w), fresh.HeightFor(w); a != b {
			t.Errorf("at %v: streamed height %v, fresh %v", w, a, b)
		}
	}
}

func TestPlainText(t *testing.T) {
	test.NewTempApp(t)
	src := "# Hi\n\nA **b** c.\n\n1. x\n2. y\n\n```sh\necho  'a'\n```\n\n| h1 | h2 |\n|----|----|\n| 1 | 2 |\n"
	want := "Hi\n\nA b c.\n\n1. x\n2. y\n\necho  'a'\n\nh1\th2\n1\t2"
	if got := Render(src, Options{}).(*View).PlainText(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestTableStaysReadableWhenNarrow(t *testing.T) {
	test.NewTempApp(t)
	src := "| name | description |\n|---|---|\n| x | " + strings.Repeat("word ", 40) + "|\n"
	for _, width := range []float32{900, 300, 80} {
		v := laidOut(t, src, width, Options{})
		tb := one[*table](t, v)
		cols := tb.columnWidths(width)
		var sum float32
		for _, c := range cols {
			sum += c
		}
		if sum+3 > width+0.5 {
			t.Errorf("at %v the columns take %v", width, sum+3)
		}
		for _, row := range tb.cells {
			for _, cell := range row {
				if cell.Position().X+cell.Size().Width > width {
					t.Errorf("at %v a cell ends at %v", width, cell.Position().X+cell.Size().Width)
				}
			}
		}
	}
	// Content-sized: a small table does not stretch to the full width.
	v := laidOut(t, "| a | b |\n|---|---|\n| 1 | 2 |\n", 900, Options{})
	var sum float32
	for _, c := range one[*table](t, v).columnWidths(900) {
		sum += c
	}
	if sum > 200 {
		t.Errorf("two one-letter columns take %v", sum)
	}
}

func TestMarkupGoldens(t *testing.T) {
	docs := map[string]string{
		"inline":   "Plain *em* **strong** ~~strike~~ `code` and [a link](https://example.com) wrapping at the edge.\nSoft break, hard break  \nnext line.",
		"blocks":   "## Heading\n\n- one\n- [x] task\n  1. nested\n\n> quote\n\n---\n",
		"code":     "```go\nfunc f() {\n\treturn // a comment long enough to wrap\n}\n```\n",
		"table":    "| left | center | right |\n|:-----|:------:|------:|\n| a | **b** | 3 |\n| longer cell text | c | 42 |\n",
		"headings": "# H1\n## H2\n### H3\n#### H4\n##### H5\n###### H6\n",
	}
	for _, variant := range []struct {
		name string
		th   fyne.Theme
	}{{"light", variantTheme{theme.VariantLight}}, {"dark", variantTheme{theme.VariantDark}}} {
		for name, src := range docs {
			t.Run(variant.name+"/"+name, func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(variant.th)
				v := NewView(Options{})
				v.SetMarkdown(src)
				v.Resize(fyne.NewSize(320, v.HeightFor(320)))
				test.AssertObjectRendersToMarkup(t, fmt.Sprintf("%s/%s.xml", variant.name, name), v)
			})
		}
	}
}

func TestThemeChangeRecolours(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(variantTheme{theme.VariantLight})
	v := laidOut(t, "text", 300, Options{})
	a.Settings().SetTheme(variantTheme{theme.VariantDark})
	v.Refresh()
	fg := theme.DefaultTheme().Color(theme.ColorNameForeground, theme.VariantDark)
	txt := findText(t, v, "text")
	if txt.Color != fg {
		t.Errorf("text colour %v after switching to dark, want %v", txt.Color, fg)
	}
}

func FuzzRender(f *testing.F) {
	test.NewTempApp(f)
	for _, s := range []string{
		sampleDoc, "", "```", "|a|\n|-|\n|", "- [ ]", "> > > > >", "***~~`x`~~***",
		"[a](<>)", "1) x\n2) y", "<div>\n\n</div>", "\t\tcode\n", "a\x00b", "\xff\xfe",
		strings.Repeat("> ", 200) + "deep", strings.Repeat("- ", 200) + "deep",
		"| a | b |\n|:-:|--:|\n| " + strings.Repeat("x", 500) + " |",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := NewView(Options{})
		if len(src) > 1 {
			v.SetMarkdown(src[:len(src)/2]) // a stream's earlier state
		}
		v.SetMarkdown(src)
		for _, w := range []float32{0, 1, 37, 400} {
			if h := v.HeightFor(w); h < 0 || h != h {
				t.Fatalf("HeightFor(%v) = %v", w, h)
			}
		}
		v.Resize(fyne.NewSize(250, v.HeightFor(250)))
		test.LaidOutObjects(v)
		_ = v.PlainText()
	})
}

// BenchmarkSetMarkdownStreaming streams a 20 KB reply 100 bytes per call,
// as the chat does when it re-renders a growing reply.
func BenchmarkSetMarkdownStreaming(b *testing.B) {
	test.NewTempApp(b)
	var doc strings.Builder
	for i := 0; doc.Len() < 20_000; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&doc, "## Section %d\n\nA paragraph with *some* **styled** text, `code` and a [link](https://example.com/%d) that goes on for a while so it wraps.\n\n", i, i)
		case 1:
			doc.WriteString("- first item\n- second item with more words\n  - nested item\n\n")
		case 2:
			doc.WriteString("```go\nfunc f(x int) int {\n\treturn x * 2\n}\n```\n\n")
		case 3:
			doc.WriteString("| a | b | c |\n|---|:-:|--:|\n| one | two | three |\n| four | five | six |\n\n")
		}
	}
	src := doc.String()
	steps := len(src) / 100
	run := func(b *testing.B, fresh bool) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			v := NewView(Options{})
			v.Resize(fyne.NewSize(600, 400))
			for s := 1; s <= steps; s++ {
				if fresh { // what re-rendering the whole reply would cost
					v = NewView(Options{})
					v.Resize(fyne.NewSize(600, 400))
				}
				v.SetMarkdown(src[:s*100])
				v.HeightFor(600)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps)/1e3, "µs/call")
	}
	b.Run("incremental", func(b *testing.B) { run(b, false) })
	b.Run("rebuild-all", func(b *testing.B) { run(b, true) })
}

func findText(t *testing.T, o fyne.CanvasObject, text string) *canvas.Text {
	t.Helper()
	for _, x := range all[*canvas.Text](o) {
		if x.Text == text {
			return x
		}
	}
	t.Fatalf("no text %q", text)
	return nil
}

func TestCodeWrapsAtSpacesAndKeepsEveryCharacter(t *testing.T) {
	test.NewTempApp(t)
	line := "fmt.Println(x) // a long comment that has to wrap at least once here"
	v := laidOut(t, "```\n"+line+"\n```\n", 300, Options{})
	cb := one[*codeBlock](t, v)
	var shown []string
	for _, txt := range all[*canvas.Text](cb.body) {
		shown = append(shown, txt.Text)
	}
	if len(shown) < 2 {
		t.Fatalf("one line %q at 300 wide", shown)
	}
	if strings.Join(shown, "") != line {
		t.Errorf("wrapped pieces %q do not add up to the line", shown)
	}
	for _, s := range shown[:len(shown)-1] {
		if !strings.HasSuffix(s, " ") {
			t.Errorf("piece %q not broken after a space", s)
		}
	}
}

// variantTheme is Fyne's default theme held to one variant, whatever the
// system prefers (theme.LightTheme and DarkTheme are deprecated for this).
type variantTheme struct{ variant fyne.ThemeVariant }

func (v variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return theme.DefaultTheme().Color(n, v.variant)
}
func (variantTheme) Font(s fyne.TextStyle) fyne.Resource     { return theme.DefaultTheme().Font(s) }
func (variantTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (variantTheme) Size(n fyne.ThemeSizeName) float32       { return theme.DefaultTheme().Size(n) }

// A block dropped from a view lets go of its measured words and drawn
// texts (Fyne's renderer cache keeps it a minute), and the blocks kept
// keep theirs; a dropped block drawn again measures itself anew.
func TestDroppedBlocksLetGoOfTheirLayout(t *testing.T) {
	test.NewTempApp(t)
	v := NewView(Options{})
	v.SetMarkdown("kept paragraph\n\n```go\ncode()\n```\n\n| a | b |\n|---|---|\n| c | d |\n\n> quoted words")
	w := test.NewWindow(v)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 600))
	kept := v.objects[0].(*textFlow)
	code := v.objects[1].(*codeBlock)
	tbl := v.objects[2].(*table)
	var quoted *textFlow
	for _, o := range v.objects[3].(*quote).content.Objects {
		if f, ok := o.(*textFlow); ok {
			quoted = f
		}
	}
	if quoted == nil {
		t.Fatal("the quote holds no flow")
	}
	dropped := []*textFlow{code.body, tbl.cells[1][0], quoted}
	for _, f := range append(dropped, kept) {
		if f.lay.tokens == nil || f.drawn == nil || len(f.drawn.objects) == 0 {
			t.Fatalf("flow %q was not laid out and drawn", f.spans[0].text)
		}
	}
	v.SetMarkdown("kept paragraph\n\nsomething else")
	if v.objects[0] != kept || kept.lay.tokens == nil || len(kept.drawn.objects) == 0 {
		t.Error("the kept paragraph lost its layout")
	}
	for _, f := range dropped {
		if f.lay.tokens != nil || len(f.drawn.objects) != 0 {
			t.Errorf("dropped flow %q still holds its layout", f.spans[0].text)
		}
	}
	h := code.body.heightFor(300)
	code.body.drawn.Layout(fyne.NewSize(300, h))
	if h <= 0 || len(code.body.drawn.objects) == 0 {
		t.Errorf("a released flow drawn again: height %v, %d objects", h, len(code.body.drawn.objects))
	}
}
