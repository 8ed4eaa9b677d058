// Package ui is the desktop window's shell: the split of the conversations
// sidebar (with the Settings button) and, beside it, the chat or the
// settings; the keyboard shortcuts (Ctrl/Cmd+N new chat, Ctrl/Cmd+,
// settings, Ctrl/Cmd+F find, Esc stop; Ctrl/Cmd+Enter approve the waiting
// call once, Ctrl/Cmd+Backspace deny it, Ctrl/Cmd+J go to it); the tray
// icon and closing to it (tray.go); desktop notifications of what the chat
// asks attention for while the window is unfocused (attention.go); the
// readable theme every screen is drawn with (contrast.go); the
// window-wide drop handler, which
// routes dropped files to the Capabilities page or to the chat's composer;
// env.Navigate, which shows the settings page a hint points to; and the
// watcher of hand edits to the capability folders.
//
// The screens live in ui/chat and ui/settings, and every screen meets Fyne's
// threading and the application core through ui/bridge. This package never
// calls app.New: cmd/wrasse makes the app and window and hands them, with
// the core, to Build, so everything here is tested headless with
// fyne.io/fyne/v2/test.
package ui
