package markdown

import (
	"math"
	"net/url"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// span is a run of inline text in one style.
type span struct {
	text   string
	bold   bool
	italic bool
	strike bool
	code   bool     // inline code: monospace on a tinted background
	link   *url.URL // tappable when set
	// shown is true when the link's text is its address, so tapping it
	// opens what the person read; otherwise the address is shown first.
	shown bool
	muted bool // secondary colour (H6, language captions, raw HTML)
}

func (s *span) sameStyle(o *span) bool {
	return s.bold == o.bold && s.italic == o.italic && s.strike == o.strike &&
		s.code == o.code && s.link == o.link && s.shown == o.shown && s.muted == o.muted
}

func (s *span) textStyle(pre bool) fyne.TextStyle {
	if s.code || pre {
		// Themes have one monospace face (and the test theme no bold or
		// italic one), so monospace ignores weight and slant.
		return fyne.TextStyle{Monospace: true}
	}
	return fyne.TextStyle{Bold: s.bold, Italic: s.italic}
}

// appendText adds text to spans, merging it into the last span when the
// style matches so a paragraph stays a handful of runs.
func appendText(spans []span, st span, text string) []span {
	if text == "" {
		return spans
	}
	if n := len(spans); n > 0 && spans[n-1].sameStyle(&st) {
		spans[n-1].text += text
		return spans
	}
	st.text = text
	return append(spans, st)
}

// textFlow is wrapped inline text. It is Fyne's RichText done again because
// RichText cannot strike text through, does not wrap inside links (a
// hyperlink is one unbreakable object), and reports a wrong height until it
// has been laid out (fyne-io/fyne#5585). Here the line breaking is ours, so
// heightFor(width) is exact without a layout pass.
type textFlow struct {
	widget.BaseWidget

	spans    []span
	sizeName fyne.ThemeSizeName
	scale    float32 // multiple of the theme size sizeName
	align    fyne.TextAlign
	pre      bool    // preformatted: keep spaces, lines end only at \n or the edge
	above    float32 // extra space above, in units of the text size (headings)
	onLink   func(from fyne.CanvasObject, u *url.URL, shown bool)
	// mark is a find query marked where it occurs (find.go); markAt is
	// the occurrence marked as the current one (-1: none here).
	mark   string
	markAt int

	lay flowCache
	// drawn is the flow's renderer once it has one (release empties it).
	drawn *flowRenderer
}

type fragment struct {
	span int
	text string
	x, w float32
}

type flowLine struct {
	frags  []fragment
	width  float32
	height float32
	ascent float32 // baseline from the top of the line
}

type token struct {
	span int
	text string
	w    float32
	kind tokenKind
}

type tokenKind uint8

const (
	tokWord tokenKind = iota
	tokSpace
	tokBreak
)

// flowCache holds the measured tokens for one text size and the lines for
// one width; both are recomputed only when those change.
type flowCache struct {
	size    float32
	tokens  []token
	metrics [2]textMetrics // proportional, monospace
	width   float32
	lines   []flowLine
	height  float32
	valid   bool
}

func newTextFlow(spans []span, sizeName fyne.ThemeSizeName, scale float32) *textFlow {
	f := &textFlow{spans: spans, sizeName: sizeName, scale: scale}
	f.ExtendBaseWidget(f)
	return f
}

func (f *textFlow) textSize() float32 {
	name := f.sizeName
	if name == "" {
		name = theme.SizeNameText
	}
	s := theme.SizeForWidget(name, f)
	if f.scale > 0 {
		s *= f.scale
	}
	return s
}

// spaceAbove is the extra gap a stack leaves before this block.
func (f *textFlow) spaceAbove() float32 {
	return f.above * f.textSize()
}

// plain is the text of the flow without styling.
func (f *textFlow) plain() string {
	var b strings.Builder
	for _, s := range f.spans {
		b.WriteString(s.text)
	}
	return b.String()
}

func (f *textFlow) measure(text string, si int, size float32) float32 {
	return fyne.MeasureText(text, size, f.spans[si].textStyle(f.pre)).Width
}

// tokens measures the words and spaces once per text size.
func (f *textFlow) tokens(size float32) []token {
	c := &f.lay
	if c.size == size && c.tokens != nil {
		return c.tokens
	}
	c.size = size
	c.valid = false
	c.metrics[0] = measureMetrics(size, fyne.TextStyle{})
	c.metrics[1] = measureMetrics(size, fyne.TextStyle{Monospace: true})
	toks := make([]token, 0, 16)
	for si := range f.spans {
		text := f.spans[si].text
		if f.pre {
			for i, line := range strings.Split(text, "\n") {
				if i > 0 {
					toks = append(toks, token{span: si, kind: tokBreak})
				}
				if line != "" {
					line = strings.ReplaceAll(line, "\t", "    ")
					toks = append(toks, token{span: si, text: line, w: f.measure(line, si, size)})
				}
			}
			continue
		}
		start := -1
		flush := func(end int) {
			if start >= 0 {
				w := text[start:end]
				toks = append(toks, token{span: si, text: w, w: f.measure(w, si, size)})
				start = -1
			}
		}
		for i, r := range text {
			switch r {
			case '\n':
				flush(i)
				toks = append(toks, token{span: si, kind: tokBreak})
			case ' ', '\t', '\r':
				flush(i)
				if n := len(toks); n == 0 || toks[n-1].kind != tokSpace || toks[n-1].span != si {
					toks = append(toks, token{span: si, text: " ", w: f.measure(" ", si, size), kind: tokSpace})
				}
			default:
				if start < 0 {
					start = i
				}
			}
		}
		flush(len(text))
	}
	c.tokens = toks
	return toks
}

// textMetrics is the height of a line of text and its baseline from the top.
type textMetrics struct{ height, ascent float32 }

func measureMetrics(size float32, style fyne.TextStyle) textMetrics {
	if a := fyne.CurrentApp(); a != nil {
		sz, base := a.Driver().RenderedTextSize("M", size, style, nil)
		return textMetrics{height: sz.Height, ascent: base}
	}
	h := fyne.MeasureText("M", size, style).Height
	return textMetrics{height: h, ascent: h * 0.8}
}

func (f *textFlow) metricsOf(si int) textMetrics {
	if f.pre || f.spans[si].code {
		return f.lay.metrics[1]
	}
	return f.lay.metrics[0]
}

// layoutAt breaks the text into lines no wider than width (except that a
// line always holds at least one character).
func (f *textFlow) layoutAt(width float32) *flowCache {
	size := f.textSize()
	toks := f.tokens(size)
	c := &f.lay
	if c.valid && c.width == width {
		return c
	}
	if width < 1 {
		width = 1
	}
	b := lineBuilder{f: f, width: width, size: size}
	pending := -1 // index of a space waiting to be placed before the next word
	for i := 0; i < len(toks); {
		t := toks[i]
		switch t.kind {
		case tokBreak:
			b.newLine()
			pending = -1
			i++
			continue
		case tokSpace:
			if len(b.cur.frags) > 0 {
				pending = i
			}
			i++
			continue
		}
		// A group of words with no space between them (across styles, as in
		// "**bold**,") only breaks when it alone is wider than a line.
		j, gw := i, float32(0)
		for j < len(toks) && toks[j].kind == tokWord {
			gw += toks[j].w
			j++
		}
		var sp *token
		if pending >= 0 {
			sp = &toks[pending]
		}
		if len(b.cur.frags) > 0 && b.x+spaceWidth(sp)+gw > width {
			b.newLine()
			sp = nil
		}
		for k := i; k < j; k++ {
			if k > i {
				sp = nil
			}
			b.place(&toks[k], sp)
		}
		pending = -1
		i = j
	}
	b.finish()
	c.lines = b.lines
	c.width = width
	c.height = 0
	for _, l := range b.lines {
		c.height += l.height
	}
	c.valid = true
	return c
}

func spaceWidth(sp *token) float32 {
	if sp == nil {
		return 0
	}
	return sp.w
}

type lineBuilder struct {
	f     *textFlow
	width float32
	size  float32
	x     float32
	cur   flowLine
	lines []flowLine
}

func (b *lineBuilder) newLine() {
	if b.cur.height == 0 {
		m := b.f.lay.metrics[boolIndex(b.f.pre)]
		b.cur.height, b.cur.ascent = m.height, m.ascent
	}
	b.lines = append(b.lines, b.cur)
	b.cur = flowLine{}
	b.x = 0
}

func (b *lineBuilder) finish() {
	// A trailing hard break leaves no empty line behind (as in HTML).
	if len(b.cur.frags) > 0 || len(b.lines) == 0 {
		b.newLine()
	}
}

// place puts a word on the current line, breaking it across lines by
// characters when it does not fit on a line of its own.
func (b *lineBuilder) place(t *token, sp *token) {
	text, w, known := t.text, t.w, true
	for {
		sw := spaceWidth(sp)
		if len(b.cur.frags) == 0 {
			sw = 0
		}
		if known && b.x+sw+w <= b.width {
			b.add(t.span, text, w, sp, sw)
			return
		}
		avail := b.width - b.x - sw
		k := b.fit(text, t.span, avail)
		if k == len(text) { // the rest of a broken word fits
			b.add(t.span, text, b.f.measure(text, t.span, b.size), sp, sw)
			return
		}
		if k == 0 {
			if len(b.cur.frags) > 0 {
				b.newLine()
				sp = nil
				continue
			}
			_, k = utf8.DecodeRuneInString(text) // always make progress
		}
		head := text[:k]
		b.add(t.span, head, b.f.measure(head, t.span, b.size), sp, sw)
		b.newLine()
		sp = nil
		text, known = text[k:], false
		if text == "" {
			return
		}
	}
}

// fit returns the byte length of the longest prefix of text no wider than
// avail; in preformatted text it prefers to end after a space.
func (b *lineBuilder) fit(text string, si int, avail float32) int {
	if avail <= 0 {
		return 0
	}
	// No glyph is narrower than about a fifth of the text size, which bounds
	// how many runes can fit, so a long word at a narrow width costs
	// measurements in proportion to the width, not to the word.
	limit := int(avail/(0.2*b.size)) + 1
	offs := make([]int, 0, min(limit, len(text)))
	for i := range text {
		if i > 0 {
			offs = append(offs, i)
			if len(offs) == limit {
				break
			}
		}
	}
	if len(offs) < limit {
		offs = append(offs, len(text))
	}
	lo, hi := 0, len(offs) // offs[:lo] fit
	for lo < hi {
		mid := (lo + hi) / 2
		if b.f.measure(text[:offs[mid]], si, b.size) <= avail {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0
	}
	k := offs[lo-1]
	if b.f.pre && k < len(text) {
		if sp := strings.LastIndexByte(text[:k], ' '); sp > k/2 {
			return sp + 1
		}
	}
	return k
}

func (b *lineBuilder) add(si int, text string, w float32, sp *token, sw float32) {
	// Lines share a baseline, so inline code in a taller font sits level.
	m := b.f.metricsOf(si)
	desc := max(b.cur.height-b.cur.ascent, m.height-m.ascent)
	b.cur.ascent = max(b.cur.ascent, m.ascent)
	b.cur.height = b.cur.ascent + desc
	if n := len(b.cur.frags); n > 0 {
		last := &b.cur.frags[n-1]
		if last.span == si && (sp == nil || sp.span == si) {
			if sw > 0 {
				text = " " + text
			}
			last.text += text
			b.x += sw + w
			last.w = b.x - last.x
			b.cur.width = b.x
			return
		}
	}
	b.x += sw
	b.cur.frags = append(b.cur.frags, fragment{span: si, text: text, x: b.x, w: w})
	b.x += w
	b.cur.width = b.x
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// heightFor is the height of the text wrapped at width.
func (f *textFlow) heightFor(width float32) float32 {
	return f.layoutAt(width).height
}

// naturalWidth is the width of the widest line when nothing wraps.
func (f *textFlow) naturalWidth() float32 {
	toks := f.tokens(f.textSize())
	var w, line float32
	for _, t := range toks {
		if t.kind == tokBreak {
			line = 0
			continue
		}
		line += t.w
		w = max(w, line)
	}
	return w
}

// minWordWidth is the width of the widest unbreakable word group.
func (f *textFlow) minWordWidth() float32 {
	toks := f.tokens(f.textSize())
	var w, group float32
	for _, t := range toks {
		if t.kind != tokWord {
			group = 0
			continue
		}
		group += t.w
		w = max(w, group)
	}
	return w
}

func (f *textFlow) MinSize() fyne.Size {
	f.ExtendBaseWidget(f)
	return f.BaseWidget.MinSize()
}

func (f *textFlow) CreateRenderer() fyne.WidgetRenderer {
	r := &flowRenderer{f: f}
	f.drawn = r
	r.rebuild(f.Size())
	return r
}

// release lets go of what the flow measured and drew. A flow dropped from
// a view (a card bound to another message, a reply that changed) stays in
// Fyne's renderer cache for a minute after it was last drawn, and with it
// every word it measured and every text object it drew: over a long day
// of turns that was megabytes held for nothing. Drawn again, the flow
// measures and draws itself anew.
func (f *textFlow) release() {
	f.lay = flowCache{}
	if r := f.drawn; r != nil {
		r.texts, r.rects, r.marks, r.strikes, r.hits, r.objects = nil, nil, nil, nil, nil, nil
		r.built = fyne.Size{}
	}
}

type flowRenderer struct {
	f       *textFlow
	texts   []*canvas.Text
	rects   []*canvas.Rectangle
	marks   []*canvas.Rectangle // find marks (find.go)
	strikes []*canvas.Line
	hits    []*linkHit
	objects []fyne.CanvasObject
	built   fyne.Size
}

// Destroy lets the flow forget its renderer once Fyne's cache drops it, so
// a kept flow out of view does not hold its drawn texts.
func (r *flowRenderer) Destroy() {
	if r.f.drawn == r {
		r.f.drawn = nil
	}
}

func (r *flowRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *flowRenderer) Layout(size fyne.Size) {
	if size != r.built || !r.f.lay.valid {
		r.rebuild(size)
	}
}

func (r *flowRenderer) MinSize() fyne.Size {
	f := r.f
	w := f.Size().Width
	if w <= 0 {
		w = math.MaxFloat32
	}
	size := f.textSize()
	minW := min(f.minWordWidth(), 8*size)
	return fyne.NewSize(minW, f.heightFor(w))
}

func (r *flowRenderer) Refresh() {
	r.f.lay.tokens = nil // theme or text may have changed
	r.f.lay.valid = false
	r.rebuild(r.f.Size())
	for _, o := range r.objects {
		o.Refresh()
	}
}

// rebuild positions one canvas.Text per fragment, re-using the objects of
// the previous layout.
func (r *flowRenderer) rebuild(size fyne.Size) {
	f := r.f
	r.built = size
	w := size.Width
	if w <= 0 {
		w = math.MaxFloat32
	}
	lay := f.layoutAt(w)
	fg := theme.ColorForWidget(theme.ColorNameForeground, f)
	muted := theme.ColorForWidget(theme.ColorNamePlaceHolder, f)
	link := theme.ColorForWidget(theme.ColorNameHyperlink, f)
	codeBG := theme.ColorForWidget(theme.ColorNameInputBackground, f)
	textSize := lay.size
	pad := textSize / 7

	nt, nr, ns, nh := 0, 0, 0, 0
	y := float32(0)
	for _, line := range lay.lines {
		dx := float32(0)
		if size.Width > 0 {
			switch f.align {
			case fyne.TextAlignCenter:
				dx = (size.Width - line.width) / 2
			case fyne.TextAlignTrailing:
				dx = size.Width - line.width
			}
		}
		for _, fr := range line.frags {
			s := &f.spans[fr.span]
			m := f.metricsOf(fr.span)
			h := m.height
			top := y + line.ascent - m.ascent
			pos := fyne.NewPos(fr.x+dx, top)
			if s.code {
				rc := r.rect(nr)
				nr++
				rc.FillColor = codeBG
				rc.CornerRadius = pad
				rc.Move(fyne.NewPos(pos.X-pad, top))
				rc.Resize(fyne.NewSize(fr.w+2*pad, h))
			}
			t := r.text(nt)
			nt++
			t.Text = fr.text
			t.TextSize = textSize
			t.TextStyle = s.textStyle(f.pre)
			switch {
			case s.link != nil:
				t.Color = link
			case s.muted:
				t.Color = muted
			default:
				t.Color = fg
			}
			t.Move(pos)
			t.Resize(fyne.NewSize(fr.w, h))
			if s.strike || s.link != nil { // a line through, or under a link
				l := r.strike(ns)
				ns++
				l.StrokeColor = t.Color
				l.StrokeWidth = max(1, textSize/14)
				ly := top + m.ascent*0.62
				if !s.strike {
					ly = top + m.ascent + l.StrokeWidth*1.5
				}
				l.Position1 = fyne.NewPos(pos.X, ly)
				l.Position2 = fyne.NewPos(pos.X+fr.w, ly)
			}
			if s.link != nil && f.onLink != nil {
				hit := r.hit(nh)
				nh++
				hit.url, hit.shown = s.link, s.shown
				hit.onTap = f.onLink
				hit.Move(pos)
				hit.Resize(fyne.NewSize(fr.w, h))
			}
		}
		y += line.height
	}
	r.rects, r.texts, r.strikes, r.hits = r.rects[:nr], r.texts[:nt], r.strikes[:ns], r.hits[:nh]
	r.objects = r.objects[:0]
	for _, o := range r.rects {
		r.objects = append(r.objects, o)
	}
	var nm int
	r.marks, nm = f.markRects(w, r.marks)
	for _, o := range r.marks[:nm] {
		r.objects = append(r.objects, o)
	}
	for _, o := range r.texts {
		r.objects = append(r.objects, o)
	}
	for _, o := range r.strikes {
		r.objects = append(r.objects, o)
	}
	for _, o := range r.hits {
		r.objects = append(r.objects, o)
	}
	canvas.Refresh(f)
}

func (r *flowRenderer) text(i int) *canvas.Text {
	if i < len(r.texts) {
		return r.texts[i]
	}
	t := &canvas.Text{}
	r.texts = append(r.texts, t)
	return t
}

func (r *flowRenderer) rect(i int) *canvas.Rectangle {
	if i < len(r.rects) {
		return r.rects[i]
	}
	c := &canvas.Rectangle{}
	r.rects = append(r.rects, c)
	return c
}

func (r *flowRenderer) strike(i int) *canvas.Line {
	if i < len(r.strikes) {
		return r.strikes[i]
	}
	l := &canvas.Line{}
	r.strikes = append(r.strikes, l)
	return l
}

func (r *flowRenderer) hit(i int) *linkHit {
	if i < len(r.hits) {
		return r.hits[i]
	}
	h := &linkHit{}
	h.ExtendBaseWidget(h)
	r.hits = append(r.hits, h)
	return h
}

// linkHit is the invisible tappable area over one line's piece of a link.
type linkHit struct {
	widget.BaseWidget
	url   *url.URL
	shown bool
	onTap func(from fyne.CanvasObject, u *url.URL, shown bool)
}

var (
	_ fyne.Tappable      = (*linkHit)(nil)
	_ desktop.Cursorable = (*linkHit)(nil)
)

func (h *linkHit) Tapped(*fyne.PointEvent) {
	if h.onTap != nil && h.url != nil {
		h.onTap(h, h.url, h.shown)
	}
}

func (h *linkHit) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (h *linkHit) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&canvas.Rectangle{})
}
