// Package chat is the desktop window's conversation side: the sidebar
// (conversations pinned first, then by date in sections, with new,
// rename, pin, archive, delete and search; sidebargroups.go) and the chat
// area (the header with the loaded-capabilities strip, the conversation's
// token use and its instructions' banner (convheader.go), the virtualised
// message list with tool and approval cards, the find bar, the composer
// and the status line).
//
// The state that matters is plain Go, apart from the widgets: a transcript
// (transcript.go) turns a conversation's stored events into rows, and the
// approval queue (approver.go) holds every pending confirmation per
// conversation, so a pending approval survives switching conversations and
// rebuilding widgets. Widgets only show rows.
//
// The chat also says what the person should see (attention.go: a call
// waiting for approval, a reply that took a while, a failed turn), which
// the window notifies while unfocused, and answers the approval keys on
// the first waiting card (approvalkeys.go). A tool card reads its call's
// outcome (toolcard.go): a command's non-zero exit code is a failure, and
// a call no turn will finish (the app closed meanwhile) says so; a
// capability's fix on a card is made there (cardfix.go).
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
// Find counts every occurrence, scrolls a tall message to the occurrence
// and marks it apart (findbar.go, findscroll.go). A message edited or
// answered again keeps its earlier versions (the core's Resend keeps them
// in the store): ‹ 2 / 3 › on the message switches between them, each
// with what followed it (versions.go), and the export lists the others.
// Select text shows a message as a selectable label, for copying part of
// it (selecttext.go).
//
// The composer's menu (composermenu.go) offers the enabled MCP servers'
// prompts on / and their resources on @ or the + button; attached
// resources are chips above the message, kept up to date by subscription
// until it is sent, and travel with it as text (attachments.go). Files
// dropped on the window, pasted as paths or picked with the paperclip are
// chips too (fileattach.go): images go as image content, text, code and
// PDFs as their text (brain/attach), and a file that cannot go stays red
// and blocks sending; attaching grants no folder. Thumbnails, in chips,
// tool cards and user messages, are decoded when drawn and kept at their
// size (thumbs.go).
package chat
