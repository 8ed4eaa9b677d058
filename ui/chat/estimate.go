package chat

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// measureUpFront is how many rows a list measures exactly when it is
// made; a longer conversation's rows get estimated heights and are
// measured as they come into view. Measuring lays out a row's Markdown
// (about 0.1–0.5 ms a row), which for 5,000 rows would hold the window
// for seconds; estimating is counting runes.
const measureUpFront = 200

// estimator guesses a row's height from its text, and learns from every
// row measured how much a card adds around its text (header, padding,
// buttons), per kind, so guesses drift toward what this theme and width
// give. Its guesses only place rows out of view: the scroll bar's size
// and position, and where a jump lands before the rows there are
// measured.
type estimator struct {
	// charW and lineH are the theme's average character width and line
	// height, read once (size is the text size they were read at).
	size, charW, lineH float32
	// extra sums, per kind, a measured height less its text's lines (a
	// message) or the whole height (any other card), over n rows.
	extra map[rowKind]float32
	n     map[rowKind]int
}

// fallback is a card's guessed height before any of its kind was
// measured: a tool card's header and one line.
const fallback = 64

func (e *estimator) metrics() {
	th := theme.Current()
	size := th.Size(theme.SizeNameText)
	if size == e.size && e.charW > 0 {
		return
	}
	const sample = "The quick brown fox jumps over the lazy dog, 0123456789."
	m := fyne.MeasureText(sample, size, fyne.TextStyle{})
	e.size = size
	e.charW = m.Width / float32(utf8.RuneCountInString(sample))
	e.lineH = m.Height
	if e.charW <= 0 {
		e.charW = size / 2
	}
	if e.lineH <= 0 {
		e.lineH = size * 1.3
	}
}

// textOf is the text a message row shows (of a long message, its piece).
func textOf(r *row) string {
	if r.body != "" || r.part != nil {
		return r.body
	}
	return r.text
}

// lines is how many lines text wraps to at width, counting each line of
// the source (a Markdown paragraph, a list item, a line of code) as at
// least one.
func (e *estimator) lines(text string, width float32) float32 {
	perLine := max(int(width/e.charW), 8)
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		runes := utf8.RuneCountInString(line)
		n += max(1, (runes+perLine-1)/perLine)
	}
	return float32(n)
}

func isMessage(k rowKind) bool { return k == rowUser || k == rowAssistant }

// guess is row r's estimated height at width.
func (e *estimator) guess(r *row, width float32) float32 {
	e.metrics()
	k := r.kind
	extra := float32(fallback)
	if e.n[k] > 0 {
		extra = e.extra[k] / float32(e.n[k])
	} else if isMessage(k) {
		extra = 3 * e.lineH // a header and the padding around the text
	}
	if !isMessage(k) {
		return extra
	}
	return max(extra+e.lines(textOf(r), width)*e.lineH, e.lineH)
}

// learn records row r's measured height h at width.
func (e *estimator) learn(r *row, h, width float32) {
	if h <= 0 {
		return
	}
	e.metrics()
	if e.extra == nil {
		e.extra, e.n = map[rowKind]float32{}, map[rowKind]int{}
	}
	if isMessage(r.kind) {
		h -= e.lines(textOf(r), width) * e.lineH
	}
	e.extra[r.kind] += h
	e.n[r.kind]++
}

// guess estimates row r's height at the current width and keeps it as
// an estimate (measured when the row comes into view).
func (m *messageList) guess(r *row, last bool) float32 {
	h := m.est.guess(r, m.width)
	m.heights[r] = cachedHeight{version: r.version, last: last, running: m.runningFor(r), width: m.width, h: h, guess: true}
	return h
}
