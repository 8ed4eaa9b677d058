// Package chat is the desktop window's conversation side: the sidebar
// (conversations newest first, new, rename, delete, search) and the chat
// area (the loaded-capabilities strip, the virtualised message list with
// tool and approval cards, the find bar, the composer and the status line).
//
// The state that matters is plain Go, apart from the widgets: a transcript
// (transcript.go) turns a conversation's stored events into rows, and the
// approval queue (approver.go) holds every pending confirmation per
// conversation, so a pending approval survives switching conversations and
// rebuilding widgets. Widgets only show rows.
//
// Threading: everything here runs on the UI goroutine except a turn, which
// runs through env.Go; its Sink and Approver hand every change to env.Do.
// Streamed text is accumulated off the UI goroutine and shown at most ten
// times a second (throttle.go), re-rendering only the message that changed.
//
// A conversation opens on its last page of events; one of up to 10,000
// events then reads the rest in the background and puts it in front, a
// longer one loads older pages as the view reaches the top; find searches
// the stored events before the loaded pages in the background and loads
// the pages up to a match before going to it (findbar.go). Row heights are
// measured up front in a short conversation; in a long one the rows out
// of view get estimated heights (estimate.go) and are measured as they
// come into view, the view held in place, so the scroll bar spans the
// whole conversation. Ctrl+Home and Ctrl+End, and the buttons over the
// list, go to the first and the latest message; a wheel notch scrolls
// three lines (jump.go). After a width change rows are measured again once
// the width has settled, the rows in view first and the rest a chunk at a
// time (messagelist.go).
//
// The composer's menu (composermenu.go) offers the enabled MCP servers'
// prompts on / and their resources on @ or the + button; attached
// resources are chips above the message, kept up to date by subscription
// until it is sent, and travel with it as text (attachments.go).
package chat
