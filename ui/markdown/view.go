package markdown

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// View shows one rendered Markdown message. SetMarkdown may be called again
// and again as a reply streams in: blocks whose source did not change keep
// their widgets, so only the changed and new (usually trailing) blocks are
// built again.
type View struct {
	widget.BaseWidget

	opts    Options
	parser  parser.Parser
	src     string
	set     bool
	refs    string // link reference definitions; a change rebuilds everything
	blocks  []rendered
	objects []fyne.CanvasObject
	stack   stackLayout
	// marked is true while find marks are set (find.go).
	marked bool
}

// rendered is one top-level block: its key (what its rendering depends
// on), its widget and its plain text.
type rendered struct {
	key   string
	obj   fyne.CanvasObject
	plain string
}

var _ fyne.Widget = (*View)(nil)

// Parser is goldmark's parser with the extensions a view renders. Building
// one costs more than parsing a message, so the views of a list share one
// (Options.Parser). A parse keeps its state apart from the parser; views
// use it on the UI goroutine, one parse at a time.
type Parser struct{ p parser.Parser }

// NewParser builds a Parser.
func NewParser() *Parser {
	md := goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.TaskList, extension.Linkify))
	return &Parser{p: md.Parser()}
}

// NewView returns an empty view; fill it with SetMarkdown.
func NewView(opts Options) *View {
	if opts.Parser == nil {
		opts.Parser = NewParser()
	}
	v := &View{opts: opts, parser: opts.Parser.p, stack: stackLayout{gap: 2}}
	v.ExtendBaseWidget(v)
	return v
}

// Render returns src rendered as one message body.
func Render(src string, opts Options) fyne.CanvasObject {
	v := NewView(opts)
	v.SetMarkdown(src)
	return v
}

// SetMarkdown shows src. It does nothing when src is what is shown. Call it
// on the UI goroutine.
func (v *View) SetMarkdown(src string) {
	if v.set && src == v.src {
		return
	}
	v.set, v.src = true, src
	if v.opts.Parsed != nil {
		v.opts.Parsed(len(src))
	}
	source := []byte(src)
	pc := parser.NewContext()
	doc := v.parser.Parse(text.NewReader(source), parser.WithContext(pc))
	refs := refsKey(pc)

	reuse := make(map[string][]int, len(v.blocks))
	if refs == v.refs {
		for i, b := range v.blocks {
			reuse[b.key] = append(reuse[b.key], i)
		}
	}
	v.refs = refs
	b := builder{src: source, opts: &v.opts}
	next := make([]rendered, 0, len(v.blocks)+1)
	kept := make([]bool, len(v.blocks))
	var key []byte
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		key = appendKey(key[:0], n, source)
		if idx := reuse[string(key)]; len(idx) > 0 {
			kept[idx[0]] = true
			next = append(next, v.blocks[idx[0]])
			reuse[string(key)] = idx[1:]
			continue
		}
		obj, plain := b.block(n, 0)
		next = append(next, rendered{key: string(key), obj: obj, plain: plain})
	}
	for i, b := range v.blocks {
		if !kept[i] {
			release(b.obj) // dropped from the view
		}
	}
	v.blocks = next
	v.objects = make([]fyne.CanvasObject, len(next))
	for i := range next {
		v.objects[i] = next[i].obj
	}
	v.stack.Layout(v.objects, v.Size())
	canvas.Refresh(v)
}

// Markdown is the source last given to SetMarkdown.
func (v *View) Markdown() string { return v.src }

// PlainText is the message as plain text, for a Copy-message button: code
// exactly as written, list markers and quote marks kept, table cells
// separated by tabs.
func (v *View) PlainText() string {
	parts := make([]string, 0, len(v.blocks))
	for _, b := range v.blocks {
		if b.plain != "" {
			parts = append(parts, b.plain)
		}
	}
	return strings.Join(parts, "\n\n")
}

// HeightFor is the height the message needs at width, for a virtualised
// list's row heights. It is exact without laying anything out.
func (v *View) HeightFor(width float32) float32 {
	return v.stack.heightFor(v.objects, width)
}

func (v *View) heightFor(width float32) float32 { return v.HeightFor(width) }

func (v *View) MinSize() fyne.Size {
	v.ExtendBaseWidget(v)
	return v.BaseWidget.MinSize()
}

func (v *View) CreateRenderer() fyne.WidgetRenderer {
	return &viewRenderer{v: v}
}

type viewRenderer struct{ v *View }

func (r *viewRenderer) Destroy() {}

func (r *viewRenderer) Objects() []fyne.CanvasObject { return r.v.objects }

func (r *viewRenderer) Layout(size fyne.Size) { r.v.stack.Layout(r.v.objects, size) }

func (r *viewRenderer) MinSize() fyne.Size {
	v := r.v
	return fyne.NewSize(minWidthOf(v.objects), v.stack.heightFor(v.objects, knownWidth(v.Size().Width)))
}

func (r *viewRenderer) Refresh() {
	for _, o := range r.v.objects {
		o.Refresh()
	}
	r.Layout(r.v.Size())
}

// refsKey is the link reference definitions of a parse, which paragraphs
// anywhere in the document may depend on.
func refsKey(pc parser.Context) string {
	var b strings.Builder
	for _, r := range pc.References() {
		b.Write(r.Label())
		b.WriteByte(0)
		b.Write(r.Destination())
		b.WriteByte(0)
		b.Write(r.Title())
		b.WriteByte(1)
	}
	return b.String()
}

// appendKey appends to key what the rendering of block n depends on: its
// kind and attributes, and the source lines of its leaf blocks (whose
// inline content is parsed from exactly those lines). Two blocks with equal
// keys render alike, so a block whose key did not change keeps its widget.
func appendKey(key []byte, n ast.Node, src []byte) []byte {
	key = append(key, n.Kind().String()...)
	key = append(key, '{')
	switch x := n.(type) {
	case *ast.Heading:
		key = append(key, byte('0'+x.Level))
	case *ast.List:
		key = append(key, x.Marker)
		key = appendBool(key, x.IsTight)
		key = appendInt(key, x.Start)
	case *extast.Table:
		for _, a := range x.Alignments {
			key = appendInt(key, int(a))
		}
	case *extast.TableCell:
		key = appendInt(key, int(x.Alignment))
	case *ast.FencedCodeBlock:
		if x.Info != nil {
			key = append(key, x.Info.Segment.Value(src)...)
		}
		key = append(key, '\n')
	case *ast.HTMLBlock:
		if x.HasClosure() {
			key = append(key, x.ClosureLine.Value(src)...)
		}
	case *ast.Text:
		key = append(key, x.Segment.Value(src)...)
		key = appendBool(key, x.SoftLineBreak())
		key = appendBool(key, x.HardLineBreak())
	case *ast.AutoLink:
		key = append(key, x.URL(src)...)
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			key = appendInt(key, seg.Padding)
			key = append(key, seg.Value(src)...)
		}
		if n.HasChildren() && n.FirstChild().Type() == ast.TypeInline {
			return append(key, '}') // inline content comes from these lines
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		key = appendKey(key, c, src)
	}
	return append(key, '}')
}

func appendBool(key []byte, v bool) []byte {
	if v {
		return append(key, 'T')
	}
	return append(key, 'F')
}

func appendInt(key []byte, v int) []byte {
	return strconv.AppendInt(append(key, ':'), int64(v), 10)
}

// release empties the flows of a block dropped from a view (textFlow.release).
func release(o fyne.CanvasObject) {
	switch b := o.(type) {
	case *textFlow:
		b.release()
	case *codeBlock:
		b.body.release()
		b.caption.release()
	case *quote:
		release(b.content)
	case *table:
		for _, row := range b.cells {
			for _, c := range row {
				c.release()
			}
		}
	case *fyne.Container:
		for _, c := range b.Objects {
			release(c)
		}
	}
}
