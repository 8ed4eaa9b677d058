package markdown

import (
	"net/url"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

const (
	// maxIndentDepth is the nesting of lists and quotes past which content
	// stops moving right, so deep nesting cannot squeeze text to nothing.
	maxIndentDepth = 8
	// maxDepth is the nesting past which blocks are shown as plain text.
	maxDepth = 64
)

// headingScale sizes headings: H1 and H2 take the theme's heading sizes;
// H3–H6 are bold body text stepping down, H6 also in the secondary colour.
func headingScale(level int) float32 {
	switch level {
	case 3:
		return 1.15
	case 5:
		return 0.93
	case 6:
		return 0.86
	}
	return 1
}

// bullet is the unordered-list marker for a nesting depth.
func bullet(depth int) string {
	return [...]string{"•", "◦", "–"}[depth%3]
}

// builder turns goldmark blocks into Fyne objects and their plain text.
type builder struct {
	src  []byte
	opts *Options
}

func (b *builder) flow(spans []span, sizeName fyne.ThemeSizeName, scale float32) *textFlow {
	f := newTextFlow(spans, sizeName, scale)
	f.onLink = b.opts.openLink
	return f
}

// block renders one block node.
func (b *builder) block(n ast.Node, depth int) (fyne.CanvasObject, string) {
	if depth > maxDepth {
		f := b.flow([]span{{text: flatText(n, b.src)}}, theme.SizeNameText, 0)
		return f, f.plain()
	}
	switch x := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		f := b.flow(b.inlines(n, span{}, nil), theme.SizeNameText, 0)
		return f, f.plain()
	case *ast.Heading:
		return b.heading(x)
	case *ast.ThematicBreak:
		return widget.NewSeparator(), "---"
	case *ast.FencedCodeBlock:
		code := b.lines(x)
		return newCodeBlock(code, string(x.Language(b.src)), b.opts), code
	case *ast.CodeBlock:
		code := b.lines(x)
		return newCodeBlock(code, "", b.opts), code
	case *ast.HTMLBlock:
		text := b.lines(x)
		if x.HasClosure() {
			text += "\n" + string(x.ClosureLine.Value(b.src))
		}
		text = strings.TrimRight(text, "\n")
		f := b.flow([]span{{text: text, muted: true}}, theme.SizeNameText, 0.93)
		f.pre = true
		return f, text
	case *ast.Blockquote:
		content, plain := b.children(n, depth+1, 2)
		return newQuote(content, depth < maxIndentDepth), prefixLines(plain, "> ", "> ")
	case *ast.List:
		return b.list(x, depth)
	case *extast.Table:
		return b.table(x)
	}
	if n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return b.children(n, depth+1, 2)
	}
	f := b.flow(b.inlines(n, span{}, nil), theme.SizeNameText, 0)
	return f, f.plain()
}

// children stacks the block children of n.
func (b *builder) children(n ast.Node, depth int, gap float32) (*fyne.Container, string) {
	stack := newStack(gap)
	var plain []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		obj, p := b.block(c, depth)
		stack.Objects = append(stack.Objects, obj)
		plain = append(plain, p)
	}
	sep := "\n\n"
	if gap < 1 {
		sep = "\n"
	}
	return stack, strings.Join(plain, sep)
}

func (b *builder) heading(h *ast.Heading) (fyne.CanvasObject, string) {
	level := min(max(h.Level, 1), 6)
	sizeName := theme.SizeNameText
	switch level {
	case 1:
		sizeName = theme.SizeNameHeadingText
	case 2:
		sizeName = theme.SizeNameSubHeadingText
	}
	f := b.flow(b.inlines(h, span{bold: true, muted: level == 6}, nil), sizeName, headingScale(level))
	f.above = 0.6
	return f, f.plain()
}

// lines is the exact text of a code or HTML block.
func (b *builder) lines(n ast.Node) string {
	var s strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		s.WriteString(strings.Repeat(" ", seg.Padding)) // tabs goldmark expanded
		s.Write(seg.Value(b.src))
	}
	return strings.TrimSuffix(s.String(), "\n")
}

func (b *builder) list(l *ast.List, depth int) (fyne.CanvasObject, string) {
	gap := float32(2)
	if l.IsTight {
		gap = 0.5
	}
	lay := &listLayout{gap: gap}
	c := &fyne.Container{Layout: lay}
	var plain []string
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		var marker fyne.CanvasObject
		var prefix string
		switch checked, ok := taskState(item); {
		case ok:
			res := theme.CheckButtonIcon()
			prefix = "[ ] "
			if checked {
				res, prefix = theme.CheckButtonCheckedIcon(), "[x] "
			}
			marker = widget.NewIcon(res)
		case l.IsOrdered():
			prefix = strconv.Itoa(num) + ". "
			f := b.flow([]span{{text: strconv.Itoa(num) + "."}}, theme.SizeNameText, 0)
			f.align = fyne.TextAlignTrailing
			marker = f
		default:
			prefix = "- "
			marker = b.flow([]span{{text: bullet(depth)}}, theme.SizeNameText, 0)
		}
		num++
		content, p := b.children(item, depth+1, gap)
		if depth >= maxIndentDepth {
			content.Objects = append([]fyne.CanvasObject{marker}, content.Objects...)
			marker = newTextFlow(nil, theme.SizeNameText, 0)
		}
		c.Objects = append(c.Objects, marker, content)
		plain = append(plain, prefixLines(p, prefix, strings.Repeat(" ", len(prefix))))
	}
	sep := "\n"
	if !l.IsTight {
		sep = "\n\n"
	}
	return c, strings.Join(plain, sep)
}

// taskState reports whether a list item starts with a task checkbox.
func taskState(item ast.Node) (checked, ok bool) {
	first := item.FirstChild()
	if first == nil {
		return false, false
	}
	if box, is := first.FirstChild().(*extast.TaskCheckBox); is {
		return box.IsChecked, true
	}
	return false, false
}

func (b *builder) table(t *extast.Table) (fyne.CanvasObject, string) {
	cols := len(t.Alignments)
	var rows [][]*textFlow
	var plain []string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		_, header := r.(*extast.TableHeader)
		var row []*textFlow
		var texts []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cell, ok := c.(*extast.TableCell)
			if !ok {
				continue
			}
			f := b.flow(b.inlines(cell, span{bold: header}, nil), theme.SizeNameText, 0)
			switch cell.Alignment {
			case extast.AlignCenter:
				f.align = fyne.TextAlignCenter
			case extast.AlignRight:
				f.align = fyne.TextAlignTrailing
			}
			row = append(row, f)
			texts = append(texts, f.plain())
		}
		cols = max(cols, len(row))
		rows = append(rows, row)
		plain = append(plain, strings.Join(texts, "\t"))
	}
	if cols == 0 {
		return newTextFlow(nil, theme.SizeNameText, 0), ""
	}
	for i := range rows { // GFM pads short rows with empty cells
		for len(rows[i]) < cols {
			rows[i] = append(rows[i], b.flow(nil, theme.SizeNameText, 0))
		}
	}
	return newTable(rows, cols), strings.Join(plain, "\n")
}

// inlines collects the inline children of n as styled spans.
func (b *builder) inlines(n ast.Node, st span, out []span) []span {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Text:
			out = appendText(out, st, b.text(x))
			switch {
			case x.HardLineBreak():
				out = appendText(out, st, "\n")
			case x.SoftLineBreak():
				out = appendText(out, st, " ")
			}
		case *ast.String:
			out = appendText(out, st, cleanText(x.Value))
		case *ast.CodeSpan:
			s := st
			s.code = true
			var code strings.Builder
			for t := x.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					code.Write(tx.Segment.Value(b.src))
				}
			}
			out = appendText(out, s, strings.ReplaceAll(code.String(), "\n", " "))
		case *ast.Emphasis:
			s := st
			if x.Level >= 2 {
				s.bold = true
			} else {
				s.italic = true
			}
			out = b.inlines(x, s, out)
		case *extast.Strikethrough:
			s := st
			s.strike = true
			out = b.inlines(x, s, out)
		case *ast.Link:
			s := st
			s.link = safeURL(string(x.Destination))
			s.shown = s.link != nil && showsAddress(flatText(x, b.src), s.link)
			out = b.inlines(x, s, out)
		case *ast.AutoLink:
			s := st
			dest := string(x.URL(b.src))
			if x.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
				dest = "mailto:" + dest
			}
			s.link = safeURL(dest)
			s.shown = plainAddress(s.link) // its text is its address, unless it can mislead
			out = appendText(out, s, cleanText(x.Label(b.src)))
		case *ast.Image:
			// Never fetched: drawn as a link with its alt text, whose
			// address is shown before it opens.
			s := st
			s.link = safeURL(string(x.Destination))
			s.shown = false
			before := len(out)
			out = b.inlines(x, s, out)
			if len(out) == before {
				out = appendText(out, s, string(x.Destination))
			}
		case *ast.RawHTML:
			s := st
			s.muted = true
			for i := 0; i < x.Segments.Len(); i++ {
				seg := x.Segments.At(i)
				out = appendText(out, s, strings.ReplaceAll(cleanText(seg.Value(b.src)), "\n", " "))
			}
		case *extast.TaskCheckBox:
			// drawn as the list item's marker
		default:
			out = b.inlines(c, st, out)
		}
	}
	return out
}

// text is a Text node's content with escapes and entities resolved, as
// goldmark's HTML writer would show it.
func (b *builder) text(t *ast.Text) string {
	v := t.Segment.Value(b.src)
	if !t.IsRaw() {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
	}
	return cleanText(v)
}

// cleanText copies v into a valid UTF-8 string without NULs.
func cleanText(v []byte) string {
	s := strings.ToValidUTF8(string(v), "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

// safeURL parses a link destination, keeping only the schemes a chat
// message may open.
func safeURL(dest string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(dest))
	if err != nil {
		return nil
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return u
	}
	return nil
}

// showsAddress reports whether a link's text is its address (a final
// slash aside), so that opening it goes where the person
// read: "[https://docs.python.org/3/](https://attacker/?d=…)" does not.
func showsAddress(text string, u *url.URL) bool {
	if !plainAddress(u) {
		return false
	}
	t := strings.TrimSuffix(strings.TrimSpace(text), "/")
	a := strings.TrimSuffix(u.String(), "/")
	if t == "" {
		return false
	}
	// The scheme counts (http is not https); only https and mailto may be
	// left out of the text, as people write them.
	return t == a || (u.Scheme == "https" && "https://"+t == a) || (u.Scheme == "mailto" && "mailto:"+t == a)
}

// plainAddress reports an address that reads as what it is: no user or
// password (the text could show them redacted or not at all) and a host
// of plain ASCII letters, not an internationalised name (xn--) that can
// look like another site's.
func plainAddress(u *url.URL) bool {
	if u == nil || u.User != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return false
		}
	}
	for _, label := range strings.Split(host, ".") {
		if strings.HasPrefix(label, "xn--") {
			return false
		}
	}
	return true
}

// flatText is all the text under n, for content nested too deep to draw.
func flatText(n ast.Node, src []byte) string {
	var s strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if t, ok := c.(*ast.Text); ok {
			s.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				s.WriteByte(' ')
			}
		} else if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 && !c.HasChildren() {
			for i := 0; i < c.Lines().Len(); i++ {
				seg := c.Lines().At(i)
				s.Write(seg.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return cleanText([]byte(s.String()))
}

// prefixLines puts first before the first line of s and rest before the
// others.
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if lines[i] == "" && i > 0 {
			lines[i] = strings.TrimRight(p, " ")
			continue
		}
		lines[i] = p + lines[i]
	}
	return strings.Join(lines, "\n")
}
