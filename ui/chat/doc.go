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
// A conversation loads a page of events at a time (older ones as the view
// reaches the top); find counts every occurrence, searches the stored
// events before the loaded pages in the background and loads the pages up
// to a match before going to it, scrolling a tall message to the
// occurrence and marking it apart (findbar.go, findscroll.go).
//
// A message edited or answered again keeps its earlier versions (the
// core's Resend keeps them in the store): ‹ 2 / 3 › on the message
// switches between them, each with what followed it (versions.go), and
// the export lists the others. Select text shows a message as a
// selectable label, for copying part of it (selecttext.go). Row heights are measured up front; after a width
// change they are measured again once the width has settled, the rows in
// view first and the rest a chunk at a time (messagelist.go).
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
