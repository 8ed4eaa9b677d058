// Package clipimage reads a picture from the system clipboard, which
// Fyne's clipboard cannot (it carries text only): a screenshot or an image
// copied in a browser, pasted into the composer with Ctrl+V, becomes an
// attachment. It uses golang.design/x/clipboard (X11 on Linux, loaded at
// run time; the system's API on macOS and Windows).
package clipimage
