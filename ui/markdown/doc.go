// Package markdown renders assistant messages written in Markdown as Fyne
// objects: paragraphs with emphasis, strikethrough, inline code and
// tappable links; headings H1–H6; nested ordered, unordered and task
// lists; block quotes; rules; code blocks with a language caption and a
// Copy button; and GFM tables with aligned, wrapped columns.
//
// It owns parsing (goldmark with the GFM table, strikethrough, task-list
// and linkify extensions), the inline line breaking, the block widgets and
// the incremental re-render used while a reply streams (View.SetMarkdown
// keeps the widgets of unchanged top-level blocks). It also owns height
// measurement for a virtualised chat list (View.HeightFor), because Fyne's
// wrapped text reports its height only after it has been laid out.
//
// A find bar marks where its query occurs in the text as shown, the
// current occurrence apart, and learns how far down a message it lies
// without a layout (View.SetMark, View.MarkOffset in find.go).
//
// It knows nothing of conversations or the clipboard: the app injects Copy,
// OpenURL and the Copy button's timer through Options. Everything here runs
// on the Fyne UI goroutine; colours and sizes come from the widget's theme,
// so light, dark and theme overrides all apply.
package markdown
